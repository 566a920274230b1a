import DriveSimulation
import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// Drives a scheduler by hand along a one-leg route, with a manual clock.
struct ManualDrive {
    var scheduler: AnnouncementScheduler
    var route: Route
    let clock = ManualClock()
    var position = 0.0
    var spoken: [(time: Double, position: Double, prompt: ScheduledPrompt)] = []
    var drops: [DroppedPrompt] = []
    var interrupts = 0

    init(_ route: Route, units: UnitSystem = .metric, server: Bool = false) throws {
        self.route = route
        scheduler = AnnouncementScheduler(
            route: route, phrases: try RoutingSupport.builder("en", units: units),
            usesServerInstructions: server,
            durationOf: RoutingSupport.estimate)
    }

    var starts: [Double] {
        var out: [Double] = []
        var total = 0.0
        for step in route.legs[0].steps {
            out.append(total)
            total += step.distance
        }
        return out
    }

    /// Position (meters from the start) of the maneuver at the start of `step`.
    func maneuverPosition(_ step: Int) -> Double { starts[step] }

    /// Moves to `position` one second later, reporting `speed` (and `fix` instead of the truth if given).
    mutating func tick(speed: Double, fix: Double? = nil, accuracy: Double? = nil) {
        clock.advance(by: 1)
        position += speed
        report(fix ?? position, speed: speed, accuracy: accuracy)
    }

    mutating func report(_ at: Double, speed: Double, accuracy: Double? = nil) {
        let starts = self.starts
        var index = 0
        while index + 1 < starts.count && at >= starts[index + 1]
            && route.legs[0].steps[index + 1].distance > 0
        {
            index += 1
        }
        let step = route.legs[0].steps[index]
        let progress = RouteProgress(
            time: clock.now, legIndex: 0, stepIndex: index,
            distanceRemaining: starts[index] + step.distance - at,
            speed: speed, horizontalAccuracy: accuracy)
        record(scheduler.update(progress))
    }

    mutating func record(_ decisions: [AnnouncementDecision]) {
        for decision in decisions {
            switch decision {
            case .speak(let prompt, let interrupted):
                if interrupted != nil { interrupts += 1 }
                spoken.append((clock.now, position, prompt))
            case .drop(let dropped): drops.append(dropped)
            }
        }
    }

    /// Drives at `speed` until `position` reaches `until`.
    mutating func drive(speed: Double, until: Double) {
        while position + speed <= until { tick(speed: speed) }
    }

    func prompts(step: Int) -> [ScheduledPrompt] { spoken.map(\.prompt).filter { $0.stepIndex == step } }
}

@Suite struct AnnouncementSchedulerTests {
    @Test func redLightBeforeATurnGivesNoFinalWhileStopped() throws {
        var drive = try ManualDrive(RoutingSupport.route([(.turn, .left, 900), (.arrive, nil, 400)]))
        drive.drive(speed: 13.9, until: 750)  // 150 m before the turn
        let beforeStop = drive.spoken.count
        for _ in 0..<60 { drive.tick(speed: 0) }
        let whileStopped = drive.spoken[beforeStop...].map(\.prompt)
        #expect(!whileStopped.contains { $0.tier == .final })
        drive.drive(speed: 8, until: 900 + 300)
        let final = try #require(drive.spoken.first { $0.prompt.tier == .final && $0.prompt.stepIndex == 1 })
        let endBefore = (900 - final.position) / 8 - final.prompt.duration - 0.15
        #expect(final.position > 750, "said only after moving again")
        #expect(endBefore >= 2.5 && endBefore <= 6.5, "ends \(endBefore) s before")
    }

    @Test func speedJumpFrom30To130IsNotLate() throws {
        var drive = try ManualDrive(
            RoutingSupport.route([(.offRamp, .slightRight, 4000), (.arrive, nil, 500)]))
        drive.drive(speed: 30 / 3.6, until: 3300)
        drive.drive(speed: 130 / 3.6, until: 4400)
        let final = try #require(drive.prompts(step: 1).first { $0.tier == .final })
        let at = try #require(drive.spoken.first { $0.prompt.instruction.id == final.instruction.id })
        let endBefore = (4000 - at.position) / (130 / 3.6) - final.duration - 0.15
        #expect(endBefore >= 2.5 && endBefore <= 6, "ends \(endBefore) s before")
        #expect(drive.prompts(step: 1).filter { $0.tier == .approach }.count <= 1)
    }

    @Test func finalCutsAnApproachWhenTheSpeedJumps() throws {
        var drive = try ManualDrive(RoutingSupport.route([(.turn, .left, 1200), (.arrive, nil, 800)]))
        while !drive.spoken.contains(where: { $0.prompt.tier == .approach }) { drive.tick(speed: 8) }
        // The approach has just started; the car now closes in at 45 m/s.
        drive.tick(speed: 45)
        drive.tick(speed: 45)
        drive.drive(speed: 45, until: 1400)
        let final = try #require(drive.spoken.first { $0.prompt.tier == .final })
        #expect(drive.interrupts == 1)
        let endBefore = (1200 - final.position) / 45 - final.prompt.duration - 0.15
        #expect(endBefore >= 1.0, "ends \(endBefore) s before")
    }

    @Test func gpsJumpBack50MetersRepeatsNothing() throws {
        var drive = try ManualDrive(RoutingSupport.route([(.turn, .right, 1200), (.arrive, nil, 300)]))
        drive.drive(speed: 13.9, until: 1010)  // approach said by now
        #expect(drive.prompts(step: 1).contains { $0.tier == .approach })
        drive.tick(speed: 13.9, fix: drive.position - 50, accuracy: 10)
        drive.tick(speed: 13.9, fix: drive.position - 45, accuracy: 10)
        drive.drive(speed: 13.9, until: 1500)
        let tiers = drive.prompts(step: 1).map(\.tier)
        #expect(Set(tiers).count == tiers.count, "\(tiers)")
        #expect(tiers.contains(.final))
    }

    @Test func rerouteToTheSameNextManeuverRepeatsNothing() throws {
        let route = RoutingSupport.route([(.turn, .left, 1500), (.arrive, nil, 300)])
        var drive = try ManualDrive(route)
        drive.drive(speed: 13.9, until: 1300)  // approach is being said
        let before = drive.prompts(step: 1).map(\.tier)
        #expect(before.contains(.approach))
        // New route from here: a short depart step then the same left turn at the same place.
        var newRoute = RoutingSupport.route([(.turn, .left, 200), (.arrive, nil, 300)])
        newRoute.legs[0].steps[1].maneuver.location = route.legs[0].steps[1].maneuver.location
        drive.scheduler.reroute(to: newRoute)
        drive.route = newRoute
        drive.position = 0
        drive.drive(speed: 13.9, until: 400)
        let after = drive.prompts(step: 1).map(\.tier)
        #expect(after.filter { $0 == .approach }.count == 1, "\(after)")
        #expect(after.filter { $0 == .final }.count == 1)
        #expect(
            !drive.spoken.contains { $0.prompt.tier == .continue && $0.time > 10 },
            "no 'Head …' after reroute")
    }

    @Test func rerouteToAnotherManeuverAnnouncesItWithoutDepart() throws {
        var drive = try ManualDrive(RoutingSupport.route([(.turn, .left, 1500), (.arrive, nil, 300)]))
        drive.drive(speed: 13.9, until: 1000)
        let count = drive.spoken.count
        let newRoute = RoutingSupport.route([(.turn, .right, 700), (.arrive, nil, 300)])
        drive.scheduler.reroute(to: newRoute)
        drive.route = newRoute
        drive.position = 0
        drive.drive(speed: 13.9, until: 900)
        let tiers = drive.spoken[count...].map(\.prompt.tier)
        #expect(tiers.first == .approach, "\(tiers)")
        #expect(tiers.contains(.final))
        #expect(!tiers.contains(.continue))
    }

    @Test func alertDuringAFinalWaitsForIt() throws {
        var drive = try ManualDrive(RoutingSupport.route([(.turn, .left, 800), (.arrive, nil, 900)]))
        while !drive.spoken.contains(where: { $0.prompt.tier == .final }) { drive.tick(speed: 13.9) }
        let final = drive.spoken.last!
        let alert = SpokenInstruction(text: "Speed camera ahead")
        drive.record(drive.scheduler.announce(alert, priority: .high, at: drive.clock.now))
        #expect(drive.spoken.last!.prompt.tier == .final, "the final is never cut")
        drive.drive(speed: 13.9, until: 1000)
        let said = try #require(drive.spoken.first { $0.prompt.tier == .custom })
        #expect(said.time >= final.time + final.prompt.duration + 0.15 + 1.5 - 1e-9)
        #expect(drive.interrupts == 0)
    }

    @Test func highPriorityAlertCutsAnApproach() throws {
        var drive = try ManualDrive(RoutingSupport.route([(.turn, .left, 1500), (.arrive, nil, 900)]))
        while !drive.spoken.contains(where: { $0.prompt.tier == .approach }) { drive.tick(speed: 13.9) }
        drive.record(
            drive.scheduler.announce(
                SpokenInstruction(text: "Accident ahead"), priority: .high, at: drive.clock.now))
        #expect(drive.spoken.last?.prompt.tier == .custom)
        #expect(drive.interrupts == 1)
    }

    @Test func twoTurns60MetersApartAreCombined() throws {
        var drive = try ManualDrive(
            RoutingSupport.route([(.turn, .right, 900), (.turn, .left, 60), (.arrive, nil, 500)]))
        drive.drive(speed: 13.9, until: 1400)
        let first = drive.prompts(step: 1)
        let final = try #require(first.first { $0.tier == .final })
        #expect(final.instruction.text == "Turn right onto Road 1, then turn left")
        #expect(final.includesNextManeuver)
        #expect(drive.prompts(step: 2).isEmpty, "the second is the 'then' of the first")
    }

    @Test(arguments: [(1, "first"), (2, "second"), (3, "third")])
    func roundaboutExits(exit: Int, ordinal: String) throws {
        var drive = try ManualDrive(
            RoutingSupport.route([(.roundabout, .right, 900), (.arrive, nil, 500)], exits: [exit, nil]))
        drive.drive(speed: 13.9, until: 1000)
        let final = try #require(drive.prompts(step: 1).first { $0.tier == .final })
        #expect(final.instruction.text == "At the roundabout, take the \(ordinal) exit onto Road 1")
        let approach = try #require(drive.prompts(step: 1).first { $0.tier == .approach })
        #expect(
            approach.instruction.text.hasSuffix("at the roundabout, take the \(ordinal) exit onto Road 1"))
    }

    @Test(arguments: [(ManeuverModifier.left, "left"), (.right, "right")])
    func arrivalSide(modifier: ManeuverModifier, side: String) throws {
        var drive = try ManualDrive(RoutingSupport.route([(.turn, .left, 600), (.arrive, modifier, 700)]))
        drive.drive(speed: 13.9, until: 1290)
        let arrival = try #require(drive.prompts(step: 2).first { $0.tier == .arrival })
        #expect(arrival.instruction.text == "Your destination is ahead on your \(side)")
        let at = try #require(drive.spoken.first { $0.prompt.tier == .arrival })
        let endBefore = (1300 - at.position) / 13.9 - arrival.duration - 0.15
        #expect(endBefore >= 2.5 && endBefore <= 6)
    }

    @Test func stepShorterThanOnePromptIsNeverLate() throws {
        // 25 m between two turns at 90 km/h: about one second, shorter than any prompt.
        var drive = try ManualDrive(
            RoutingSupport.route([
                (.turn, .right, 1500), (.turn, .left, 25), (.turn, .right, 600), (.arrive, nil, 600),
            ]))
        drive.drive(speed: 25, until: 2700)
        for (time, position, prompt) in drive.spoken where prompt.stepIndex > 0 {
            let target = drive.maneuverPosition(prompt.stepIndex)
            let end = time + 0.15 + prompt.duration
            let reached = time + (target - position) / 25
            #expect(end <= reached, "\(prompt.instruction.text) ends after its maneuver")
        }
        #expect(drive.prompts(step: 2).isEmpty)
        #expect(drive.prompts(step: 1).first { $0.tier == .final }?.includesNextManeuver == true)
    }

    @Test func spokenDistanceNeverGrowsAndStateOnlyMovesForward() throws {
        var drive = try ManualDrive(
            RoutingSupport.route([(.turn, .left, 300), (.offRamp, .right, 5000), (.arrive, nil, 500)]),
            units: .imperial)
        drive.drive(speed: 30, until: 5700)
        let prompts = drive.prompts(step: 2)
        let distances = prompts.compactMap(\.spokenDistance)
        #expect(distances.count == 2)
        #expect(distances == distances.sorted(by: >))
        #expect(prompts.map(\.tier) == [.continue, .approach, .final])
        #expect(prompts.first?.instruction.text == "Continue on Road 1 for 3 miles")
    }

    @Test func serverWordingIsUsedForTheFinal() async throws {
        let url = TestFixtures.directions("navigation-ios_routeWithInstructions.json")
        let route = try Route.decode(from: Data(contentsOf: url))
        let timeline = try await DriveSimulator(
            route: route, phrases: try RoutingSupport.builder("en", units: .imperial), speed: .constant(13.9),
            durationOf: RoutingSupport.estimate
        ).run()
        let finals = timeline.prompts.filter { $0.tier == .final }.map(\.text)
        #expect(finals.contains("Turn left onto Hyde Street"))
        #expect(
            timeline.prompts.first?.text
                == "Head south on Taylor Street, then turn right onto California Street")
    }

    @Test func repeatSaysTheDistanceNow() throws {
        var drive = try ManualDrive(RoutingSupport.route([(.turn, .left, 2000), (.arrive, nil, 500)]))
        drive.drive(speed: 13.9, until: 1000)
        let decisions = drive.scheduler.repeatInstruction(at: drive.clock.now)
        guard case .speak(let prompt, _)? = decisions.first else {
            Issue.record("repeat said nothing")
            return
        }
        #expect(prompt.instruction.text == "In 1 kilometer, turn left onto Road 1")
        drive.drive(speed: 13.9, until: 2600)
        #expect(drive.prompts(step: 1).filter { $0.tier == .final }.count == 1)
    }

    @Test func badUpdatesAreIgnored() throws {
        var drive = try ManualDrive(RoutingSupport.route([(.turn, .left, 500), (.arrive, nil, 500)]))
        #expect(
            drive.scheduler.update(RouteProgress(time: 1, legIndex: 3, stepIndex: 0, distanceRemaining: 5))
                .isEmpty)
        #expect(
            drive.scheduler.update(RouteProgress(time: 1, legIndex: 0, stepIndex: 9, distanceRemaining: 5))
                .isEmpty)
        #expect(
            drive.scheduler.update(RouteProgress(time: .nan, legIndex: 0, stepIndex: 0, distanceRemaining: 5))
                .isEmpty)
        _ = drive.scheduler.update(
            RouteProgress(time: 2, legIndex: 0, stepIndex: 0, distanceRemaining: .infinity))
        drive.clock.set(2)
        drive.drive(speed: 13.9, until: 1100)
        #expect(drive.prompts(step: 1).contains { $0.tier == .final })
    }

    /// Cost per update (the goal is 2 µs in a release build; a debug build is several times slower).
    @Test func updatesAreCheap() throws {
        let route = RoutingSupport.route(
            Array(repeating: (ManeuverType.turn, ManeuverModifier.left, 900.0), count: 200) + [
                (.arrive, nil, 300)
            ])
        var scheduler = AnnouncementScheduler(
            route: route, phrases: try RoutingSupport.builder(), durationOf: RoutingSupport.estimate)
        let motion = DriveMotion(route: route, speed: .constant(25))
        var progress: [RouteProgress] = []
        var time = 0.0
        var step = 0
        var starts: [Double] = [0]
        for s in route.legs[0].steps { starts.append(starts.last! + s.distance) }
        while time < motion.totalTime - 1 {
            let position = motion.position(at: time)
            while step + 1 < route.legs[0].steps.count - 1 && position >= starts[step + 1] { step += 1 }
            progress.append(
                RouteProgress(
                    time: time, legIndex: 0, stepIndex: step, distanceRemaining: starts[step + 1] - position,
                    speed: 25))
            time += 1
        }
        let clock = ContinuousClock()
        var said = 0
        let elapsed = clock.measure {
            for update in progress { said += scheduler.update(update).count }
        }
        let micro =
            Double(elapsed.components.attoseconds) / 1e12 / Double(progress.count)
            + Double(elapsed.components.seconds) * 1e6 / Double(progress.count)
        print("SCHEDULER \(progress.count) updates, \(said) decisions, \(micro) µs per update")
        #expect(said >= 400)
        #expect(micro < 1_000, "a sanity bound against pathological cost; the goal is checked by make bench")
    }
}
