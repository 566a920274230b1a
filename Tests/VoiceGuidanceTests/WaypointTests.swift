import DriveSimulation
import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// Intermediate waypoints: marked on the route, said as a waypoint (not the destination) by the
/// phrase books, reached once by route matching, and announced as an alert when turn prompts are
/// not spoken; guidance goes on onto the next leg.
@Suite struct WaypointTests {
    /// The two-leg fixture (Zürich-area streets, 494 m then 841 m; the server says "You have
    /// arrived at your 1st destination" at the end of the first leg).
    static let multilegName = "navigation-ios_multileg-route.json"

    static func multileg() throws -> Route {
        try Route.decode(from: Data(contentsOf: TestFixtures.directions(multilegName)))
    }

    /// A built route of three legs, each a straight 600 m road north and its arrival, with
    /// geometry (one leg starts where the one before it ends).
    static func threeLegs() -> Route {
        var point = RouteMatcherTests.origin
        var legs: [RouteLeg] = []
        for _ in 0..<3 {
            let end = point.offset(by: 600, bearing: 0)
            let road = stride(from: 0.0, through: 600, by: 20).map { point.offset(by: $0, bearing: 0) }
            let depart = RouteStep(
                maneuver: Maneuver(
                    type: .depart, location: [point.longitude, point.latitude], bearingAfter: 0),
                name: "Road", distance: 600, duration: 600 / 13.9, geometry: .line(road))
            let arrive = RouteStep(
                maneuver: Maneuver(type: .arrive, location: [end.longitude, end.latitude]), distance: 0,
                duration: 0, geometry: .line([end, end]))
            legs.append(RouteLeg(steps: [depart, arrive]))
            point = end
        }
        return Route(legs: legs)
    }

    // MARK: Route and phrases

    @Test func theArrivalOfEachLegButTheLastIsAWaypoint() throws {
        let route = try Self.multileg()
        let marks = route.legs.map { $0.steps.map(\.waypoint) }
        #expect(marks == [[nil, nil, 1], [nil, nil, nil, nil, nil, nil]], "\(marks)")
        let built = Self.threeLegs()
        #expect(built.legs.map { $0.steps.last?.waypoint } == [1, 2, nil])
        #expect(Route(legs: [built.legs[0]]).legs[0].steps.last?.waypoint == nil)
    }

    @Test(arguments: [
        (
            "en", "Your first waypoint is ahead", "In 300 meters, you will arrive at your first waypoint",
            "Your destination is ahead"
        ),
        (
            "fr", "Votre première étape est droit devant",
            "Dans 300 mètres, vous arriverez à votre première étape",
            "Votre destination est droit devant"
        ),
        (
            "de", "Ihre erste Zwischenstation liegt vor Ihnen",
            "In 300 Metern erreichen Sie Ihre erste Zwischenstation", "Ihr Ziel liegt vor Ihnen"
        ),
        (
            "es", "Su primera parada está adelante", "En 300 metros, llegará a su primera parada",
            "Su destino está adelante"
        ),
    ])
    func aWaypointIsSaidAsAWaypointInEveryLanguage(
        language: String, final: String, approach: String, destination: String
    ) throws {
        let route = Self.threeLegs()
        let phrases = try RoutingSupport.builder(language)
        let waypoint = try #require(route.legs[0].steps.last)
        #expect(phrases.finalText(for: waypoint, wording: .long) == final)
        let distance = try #require(phrases.distance(300))
        #expect(phrases.approachText(for: waypoint, distance: distance, wording: .long) == approach)
        let end = try #require(route.legs[2].steps.last)
        #expect(phrases.finalText(for: end, wording: .long) == destination)
    }

    @Test func aWaypointPastTheBooksOrdinalsIsSpelled() throws {
        var step = try #require(Self.threeLegs().legs[0].steps.last)
        step.waypoint = 12
        #expect(
            try RoutingSupport.builder("en").finalText(for: step, wording: .short)
                == "Your twelfth waypoint is ahead")
        #expect(
            try RoutingSupport.builder("de").finalText(for: step, wording: .short).hasPrefix("Ihre zwölfte"))
    }

    @Test func aBookWithoutWaypointWordsSaysTheDestinationsWords() throws {
        var book = try PhraseBook.load(directory: RoutingSupport.phrasesFolder, language: "en")
        book.maneuvers["arrive.waypoint"] = nil
        book.maneuvers["arrive.waypoint.approach"] = nil
        book.alerts?.waypointReached = nil
        let step = try #require(Self.threeLegs().legs[0].steps.last)
        #expect(
            PhraseBuilder(book: book, units: .metric).finalText(for: step, wording: .long)
                == "Your destination is ahead")
        let alerts = GuidanceAlerts(words: try #require(book.alerts))
        #expect(alerts.text(forWaypoint: 2) == "You have reached waypoint 2")
    }

    // MARK: Matching

    /// The events of matching `fixes` on `route`, with the time of each and the last progress.
    static func match(_ fixes: [Position], on route: Route) throws -> (
        events: [(time: Double, event: RouteMatcher.Event, waypoint: Int?)], legs: Set<Int>
    ) {
        var matcher = try RouteMatcher(route: route)
        var events: [(Double, RouteMatcher.Event, Int?)] = []
        var legs: Set<Int> = []
        for fix in fixes {
            let update = matcher.update(fix)
            for event in update.events { events.append((fix.time, event, update.waypoint)) }
            if let progress = update.progress { legs.insert(progress.legIndex) }
        }
        return (events, legs)
    }

    @Test func drivingThroughAWaypointReachesItOnceThenGuidesTheNextLeg() throws {
        let route = try Self.multileg()
        let line = try RouteLine(route: route)
        #expect(line.waypoints.count == 1)
        let waypointAlong = try #require(line.waypoints.first)
        #expect(abs(waypointAlong - 494) < 30, "\(waypointAlong)")
        let fixes = SteadyDrive.fixes(on: line, speed: 10)
        let (events, legs) = try Self.match(fixes, on: route)
        let reached = events.filter { $0.event == .waypointReached }
        #expect(reached.count == 1, "\(events)")
        #expect(reached.first?.waypoint == 1)
        // Reached within the arrival distance of it (25 m at 10 m/s: from 2.5 s before it on).
        let arrival = (waypointAlong - MatchingConfiguration().waypointArrivalDistance) / 10
        let time = try #require(reached.first?.time)
        #expect(time >= arrival - 0.5 && time <= waypointAlong / 10 + 1, "\(time) for \(arrival)")
        #expect(legs == [0, 1])
    }

    @Test func everyWaypointOfThreeLegsIsReachedInOrder() throws {
        let route = Self.threeLegs()
        let fixes = SteadyDrive.fixes(on: try RouteLine(route: route), speed: 12)
        let reached = try Self.match(fixes, on: route).events.filter { $0.event == .waypointReached }
        #expect(reached.map(\.waypoint) == [1, 2])
        #expect(reached.count == 2 && reached[0].time < reached[1].time)
    }

    @Test func startingBeyondAWaypointPassesItWithoutAWord() throws {
        let route = try Self.multileg()
        let line = try RouteLine(route: route)
        let waypoint = try #require(line.waypoints.first)
        // At 10 m/s from time 0, the fix at time t is 10 t meters along.
        let fixes = SteadyDrive.fixes(on: line, speed: 10).filter { $0.time * 10 > waypoint + 100 }
        #expect(fixes.count > 20)
        let (events, legs) = try Self.match(fixes, on: route)
        #expect(!events.contains { $0.event == .waypointReached }, "\(events)")
        #expect(legs == [1])
    }

    @Test func standingAtTheWaypointWithJitterReachesItOnce() throws {
        let route = try Self.multileg()
        let line = try RouteLine(route: route)
        let waypoint = try #require(line.waypoints.first)
        var fixes = SteadyDrive.fixes(on: line, speed: 10).filter { $0.time * 10 < waypoint - 5 }
        var random = SplitMix64(seed: 7)
        let stop = line.coordinate(at: waypoint - 5)
        let start = (fixes.last?.time ?? 0) + 1
        for second in 0..<120 {
            // Parked for two minutes, the receiver wandering a few meters around the car.
            let meters = Double(random.next() % 400) / 100
            let bearing = Double(random.next() % 360)
            fixes.append(
                Position(
                    coordinate: stop.offset(by: meters, bearing: bearing), time: start + Double(second),
                    speed: 0.2, course: nil, horizontalAccuracy: 6))
        }
        let reached = try Self.match(fixes, on: route).events.filter { $0.event == .waypointReached }
        #expect(reached.count == 1, "\(reached)")
    }

    // MARK: Guided drive

    /// A steady drive of the multileg fixture at 10 m/s in `mode`, with the phrase book of
    /// `language`.
    static func drive(
        mode: VoiceController.Mode, language: String = "en",
        enabled: Set<RouteMatcher.Event> = Set(RouteMatcher.Event.allCases)
    ) async throws -> (result: GuidedDrive.Result, heard: [SimulatedSpeech.HeardPrompt]) {
        let route = try Self.multileg()
        let book = try PhraseBook.load(directory: RoutingSupport.phrasesFolder, language: language)
        var drive = GuidedDrive(
            route: route, phrases: PhraseBuilder(book: book, units: .metric),
            fixes: SteadyDrive.fixes(on: try RouteLine(route: route), speed: 10),
            alerts: GuidanceAlerts(words: try #require(book.alerts), enabled: enabled),
            usesServerInstructions: language == "en", durationOf: RoutingSupport.estimate)
        drive.mode = mode
        let heard = Locked<[SimulatedSpeech.HeardPrompt]>([])
        drive.onHeard = { prompt in heard.withLock { $0.append(prompt) } }
        let result = try await drive.run()
        return (result, heard.withLock { $0 })
    }

    @Test func withTurnPromptsTheLegsArrivalSaysItAndGuidanceGoesOn() async throws {
        let (result, heard) = try await Self.drive(mode: .all)
        let reached = result.events.filter { $0.event == .waypointReached }
        #expect(reached.count == 1 && reached.first?.waypoint == 1)
        let texts = heard.map(\.instruction.text)
        #expect(texts.contains("You have arrived at your 1st destination"), "\(texts)")
        #expect(!texts.contains { $0.hasPrefix("You have reached waypoint") }, "\(texts)")
        // Prompts of the second leg are said after the waypoint, and the destination at the end.
        let reachedAt = try #require(reached.first?.timeS)
        let after = result.prompts.filter { $0.leg == 1 }
        #expect(after.count >= 3, "\(result.prompts.map { ($0.leg, $0.text) })")
        #expect(after.allSatisfy { $0.timeS >= reachedAt - 10 })
        #expect(texts.last == "You have arrived at your destination")
        #expect(result.summary.late == 0 && result.summary.overlaps == 0 && result.summary.repeats == 0)
    }

    @Test(arguments: [
        ("en", "You have reached waypoint 1"), ("fr", "Vous êtes arrivé à l'étape 1"),
        ("de", "Sie haben Zwischenstation 1 erreicht"), ("es", "Ha llegado a la parada 1"),
    ])
    func inAlertsOnlyModeTheWaypointIsSaidAtOnce(language: String, text: String) async throws {
        let (result, heard) = try await Self.drive(mode: .alertsOnly, language: language)
        let reachedAt = try #require(result.events.first { $0.event == .waypointReached }?.timeS)
        #expect(heard.map(\.instruction.text) == [text], "\(heard.map(\.instruction.text))")
        // Not held back by the leg's arrival prompt, which was decided and not said.
        let start = try #require(heard.first?.start)
        #expect(start >= reachedAt && start < reachedAt + 0.5, "\(start) for \(reachedAt)")
        #expect(heard.allSatisfy { !$0.wasCut })
    }

    @Test func switchedOffItIsReportedButNotSaid() async throws {
        let off = try #require(try? GuidanceAlerts.events(named: "waypoint").get())
        #expect(off == [.waypointReached])
        let (result, heard) = try await Self.drive(
            mode: .alertsOnly, enabled: Set(RouteMatcher.Event.allCases).subtracting(off))
        #expect(result.events.filter { $0.event == .waypointReached }.count == 1)
        #expect(heard.isEmpty, "\(heard.map(\.instruction.text))")
    }
}
