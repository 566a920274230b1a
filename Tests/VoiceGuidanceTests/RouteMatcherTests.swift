import Foundation
import Testing
import VoiceGuidance

@Suite struct RouteMatcherTests {
    static let origin = Coordinate(latitude: 48.137, longitude: 11.575)

    /// A route through `turns`: each (bearing, length) is one step's road; steps meet at maneuvers.
    static func route(_ legs: [(bearing: Double, length: Double)], speed: Double = 13.9) -> Route {
        var steps: [RouteStep] = []
        var point = origin
        for (index, leg) in legs.enumerated() {
            let end = point.offset(by: leg.length, bearing: leg.bearing)
            let line =
                stride(from: 0.0, through: leg.length, by: 20).map {
                    point.offset(by: $0, bearing: leg.bearing)
                } + [end]
            steps.append(
                RouteStep(
                    maneuver: Maneuver(
                        type: index == 0 ? .depart : .turn, modifier: index == 0 ? nil : .left,
                        location: [point.longitude, point.latitude]),
                    name: "Road \(index)", distance: leg.length, duration: leg.length / speed,
                    geometry: .line(line)))
            point = end
        }
        steps.append(
            RouteStep(
                maneuver: Maneuver(type: .arrive, location: [point.longitude, point.latitude]), distance: 0,
                duration: 0,
                geometry: .line([point, point])))
        return Route(legs: [RouteLeg(steps: steps)])
    }

    /// Fixes driving `along` meters of the route's line at the given times, with an offset to the side.
    static func fixes(
        _ line: RouteLine, times: some Sequence<Int>, speed: Double, side: Double = 0,
        reportsSpeed: Bool = true,
        place: (Double) -> Double
    ) -> [Position] {
        times.map { second in
            let along = place(Double(second))
            var point = line.coordinate(at: along)
            if side != 0 { point = point.offset(by: side, bearing: line.bearing(at: along) + 90) }
            return Position(
                coordinate: point, time: Double(second), speed: reportsSpeed ? speed : nil,
                course: reportsSpeed && speed > 1 ? line.bearing(at: along) : nil, horizontalAccuracy: 5)
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func followsRealisticDrivesOnEveryCorpusRoute(seed: UInt64) throws {
        var checked = 0
        var close = 0
        for (name, route) in try RoutingSupport.fixtureRoutes() where route.distance < 300_000 {
            var matcher = try RouteMatcher(route: route)
            var configuration = MotionConfiguration()
            configuration.reportsMotion = seed != 2  // seed 2: places and times only
            let motion = RealisticMotion(
                route: route, line: matcher.line, seed: seed, configuration: configuration)
            let receiver = SimulatedReceiver(motion: motion, seed: seed, configuration: configuration)
            var last = -Double.infinity
            var events: [RouteMatcher.Event] = []
            for fix in receiver.fixes {
                let update = matcher.update(fix)
                events += update.events
                guard update.progress != nil else { continue }
                let time = fix.time - configuration.startTime
                #expect(matcher.distanceAlong >= last, "\(name) went back at \(time) s")
                last = matcher.distanceAlong
                checked += 1
                if abs(matcher.distanceAlong - motion.place(at: time)) <= 25 { close += 1 }
            }
            #expect(!events.contains(.offRoute), "\(name) seed \(seed): \(events)")
        }
        #expect(checked > 3_000)
        #expect(Double(close) >= 0.97 * Double(checked), "\(close) of \(checked) within 25 m")
    }

    @Test func standingStillDoesNotMoveProgressBack() throws {
        let route = Self.route([(90, 600), (0, 400)])
        var matcher = try RouteMatcher(route: route)
        var drive = Self.fixes(matcher.line, times: 0..<20, speed: 10) { 10 * $0 }
        // Standing at 200 m for 60 s while the position wanders ±6 m (a fixed pseudo-random walk).
        var wander = Self.fixes(matcher.line, times: 20..<80, speed: 0) { _ in 200 }
        for index in wander.indices {
            let angle = Double((index * 137) % 360)
            wander[index].coordinate = wander[index].coordinate.offset(by: Double(index % 7), bearing: angle)
            wander[index].speed = 0.1
        }
        drive += wander
        var last = 0.0
        var standing: [Double] = []
        for fix in drive {
            #expect(matcher.update(fix).progress != nil)
            #expect(matcher.distanceAlong >= last)
            last = matcher.distanceAlong
            if fix.time >= 20 { standing.append(matcher.distanceAlong) }
        }
        #expect((standing.max() ?? 0) - (standing.min() ?? 0) < 4)
        #expect(abs((standing.last ?? 0) - 200) < 8)
        #expect(matcher.smoothedSpeed < 0.5)
    }

    @Test func aRouteThatDoublesBackIsMatchedByContinuity() throws {
        // East 800 m, a U-turn, back west 800 m on the same road (10 m to the side), then north.
        let route = Self.route([(90, 800), (270, 800), (0, 300)])
        var matcher = try RouteMatcher(route: route)
        let fixes = Self.fixes(matcher.line, times: 0..<180, speed: 12) { min(12 * $0, 1_899) }
        var worst = 0.0
        for fix in fixes {
            _ = matcher.update(fix)
            worst = max(worst, abs(matcher.distanceAlong - min(12 * fix.time, 1_899)))
        }
        #expect(worst < 15, "worst error \(worst) m")
    }

    @Test func anOutageIsBridgedAtTheLastSpeedAndMatchingResumes() throws {
        let route = Self.route([(90, 1_500), (0, 800)])
        var matcher = try RouteMatcher(route: route)
        let before = Self.fixes(matcher.line, times: 0..<30, speed: 15) { 15 * $0 }
        let after = Self.fixes(matcher.line, times: 60..<80, speed: 12) { 450 + 400 + 12 * ($0 - 60) }
        for fix in before { _ = matcher.update(fix) }
        var events: [RouteMatcher.Event] = []
        for second in 30..<60 { events += matcher.noFix(at: Double(second)) }
        #expect(events == [.signalLost])
        // Carried forward at 15 m/s for the 30 s.
        let carried = try #require(matcher.progress(at: 59))
        #expect(abs((1_500 - carried.distanceRemaining) - 15 * 59) < 10)
        var recovered: [RouteMatcher.Event] = []
        for fix in after {
            let update = matcher.update(fix)
            recovered += update.events
        }
        #expect(recovered == [.signalRecovered])
        #expect(abs(matcher.distanceAlong - (850 + 12 * 19)) < 10)
    }

    @Test func matchingStartsAnywhereOnTheRoute() throws {
        let route = Self.route([(90, 1_000), (180, 1_000), (90, 1_000)])
        var matcher = try RouteMatcher(route: route)
        let fixes = Self.fixes(matcher.line, times: 0..<10, speed: 14) { 1_500 + 14 * $0 }
        let first = try #require(matcher.update(fixes[0]).progress)
        #expect(first.stepIndex == 1)
        #expect(abs(first.distanceRemaining - 500) < 3)
        for fix in fixes.dropFirst() { _ = matcher.update(fix) }
        #expect(abs(matcher.distanceAlong - (1_500 + 14 * 9)) < 6)
    }

    @Test func singleOutliersAreIgnored() throws {
        let route = Self.route([(90, 2_000), (0, 500)])
        var matcher = try RouteMatcher(route: route)
        var fixes = Self.fixes(matcher.line, times: 0..<60, speed: 14) { 14 * $0 }
        for index in stride(from: 10, to: 60, by: 10) {
            fixes[index].coordinate = fixes[index].coordinate.offset(
                by: 40, bearing: Double(index * 33 % 360))
        }
        var flagged = 0
        var worst = 0.0
        for fix in fixes {
            let update = matcher.update(fix)
            if update.isOutlier { flagged += 1 }
            #expect(!update.events.contains(.offRoute))
            worst = max(worst, abs(matcher.distanceAlong - 14 * fix.time))
        }
        #expect(flagged == 5)
        #expect(worst < 6)
    }

    @Test func leavingAndRejoiningTheRouteAreDetected() throws {
        let route = Self.route([(90, 2_000), (0, 500)])
        var matcher = try RouteMatcher(route: route)
        let on = Self.fixes(matcher.line, times: 0..<20, speed: 14) { 14 * $0 }
        let away = Self.fixes(matcher.line, times: 20..<40, speed: 14, side: 150) { 14 * $0 }
        let back = Self.fixes(matcher.line, times: 40..<50, speed: 14) { 14 * $0 }
        var events: [(Double, RouteMatcher.Event)] = []
        var progressWhileOff = 0
        for fix in on + away + back {
            let update = matcher.update(fix)
            events += update.events.map { (fix.time, $0) }
            if matcher.state == .offRoute, update.progress != nil { progressWhileOff += 1 }
        }
        #expect(events.map(\.1) == [.offRoute, .backOnRoute])
        #expect(events.first?.0 == 22)
        #expect(events.last?.0 == 41)
        #expect(progressWhileOff == 0)
        #expect(abs(matcher.distanceAlong - 14 * 49) < 10)
    }

    @Test func drivingAgainstTheRouteIsOffRoute() throws {
        let route = Self.route([(90, 2_000), (0, 500)])
        var matcher = try RouteMatcher(route: route)
        let forward = Self.fixes(matcher.line, times: 0..<10, speed: 14) { 500 + 14 * $0 }
        let backward = Self.fixes(matcher.line, times: 10..<20, speed: 14) { 640 - 14 * ($0 - 10) }
            .map { fix -> Position in
                var copy = fix
                copy.course = 270
                return copy
            }
        var events: [RouteMatcher.Event] = []
        for fix in forward + backward { events += matcher.update(fix).events }
        #expect(events == [.offRoute])
    }

    @Test func speedComesFromPositionsWhenTheReceiverGivesNone() throws {
        let route = Self.route([(45, 3_000)])
        var matcher = try RouteMatcher(route: route)
        let fixes = Self.fixes(matcher.line, times: 0..<60, speed: 20, reportsSpeed: false) { 20 * $0 }
        for fix in fixes { _ = matcher.update(fix) }
        #expect(abs(matcher.smoothedSpeed - 20) < 1)
    }

    @Test func aRouteWithoutGeometryCannotBeMatched() {
        let route = RoutingSupport.route([(.turn, .left, 500)])
        #expect(throws: RouteLine.Error.self) { try RouteMatcher(route: route) }
    }
}
