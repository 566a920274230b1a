import DriveSimulation
import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@Suite struct DriveSimulatorTests {
    static let speeds: [(String, DriveSimulator.SpeedProfile)] = [
        ("30", .constant(30 / 3.6)), ("50", .constant(50 / 3.6)), ("90", .constant(90 / 3.6)),
        ("130", .constant(130 / 3.6)), ("route", .route),
    ]

    /// The corpus check: every fixture, 5 speeds, with and without noise, server and stripped.
    @Test(arguments: UnitSystem.allCases)
    func corpusMeetsTheTimingRules(units: UnitSystem) async throws {
        let phrases = try RoutingSupport.builder("en", units: units)
        var feasible = 0
        var inWindow = 0
        var late = 0
        var overlaps = 0
        var stale = 0
        var repeats = 0
        var maxPrompts = 0
        var maxClose = 0
        var distances = 0
        var distanceMisses = 0
        var worstDistance = 0.0
        var drives = 0
        var prompts = 0
        var ends: [Double] = []
        var perSpeed: [String: (feasible: Int, inWindow: Int)] = [:]
        for (name, original) in try RoutingSupport.fixtureRoutes() {
            for server in [true, false] {
                let route = server ? original : original.strippingVoiceInstructions()
                for (speedName, speed) in Self.speeds {
                    for noise in [0.0, 10.0] {
                        let drive = try await DriveSimulator(
                            route: route, phrases: phrases, speed: speed, gpsNoise: noise, seed: 42,
                            usesServerInstructions: server, durationOf: RoutingSupport.estimate
                        ).run()
                        drives += 1
                        prompts += drive.prompts.count
                        let s = drive.summary
                        perSpeed[speedName, default: (0, 0)].feasible += s.feasible
                        perSpeed[speedName, default: (0, 0)].inWindow += s.finalInWindow
                        feasible += s.feasible
                        inWindow += s.finalInWindow
                        late += s.late
                        overlaps += s.overlaps
                        stale += s.stale
                        repeats += s.repeats
                        maxPrompts = max(maxPrompts, s.maxPromptsPerManeuver)
                        maxClose = max(maxClose, s.maxPromptsPerCloseManeuver)
                        for prompt in drive.prompts {
                            if prompt.tier == .final || prompt.tier == .arrival {
                                ends.append(prompt.endsBeforeManeuverS)
                            }
                            guard let spoken = prompt.spokenDistanceM, let heard = prompt.heardDistanceM
                            else { continue }
                            distances += 1
                            let error = abs(spoken - heard) / heard
                            worstDistance = max(worstDistance, error)
                            if error > 0.15 {
                                distanceMisses += 1
                                print(
                                    "distance miss \(name) \(speedName) noise \(noise) server \(server): \(prompt.text) heard at \(heard)"
                                )
                            }
                        }
                        if s.late + s.overlaps + s.stale + s.repeats > 0 || s.maxPromptsPerManeuver > 3 {
                            print("FAIL \(name) \(speedName) noise \(noise) server \(server): \(s)")
                        }
                    }
                }
            }
        }
        ends.sort()
        let share = Double(inWindow) / Double(max(feasible, 1))
        print(
            "CORPUS \(units) drives \(drives) prompts \(prompts) feasible \(feasible) in window \(inWindow) (\(share * 100)%) late \(late) overlaps \(overlaps) stale \(stale) repeats \(repeats) max/maneuver \(maxPrompts) max/close \(maxClose) distances \(distances) misses \(distanceMisses) worst \(worstDistance) final end p5 \(ends[ends.count / 20]) median \(ends[ends.count / 2]) p95 \(ends[ends.count * 19 / 20])"
        )
        #expect(share >= 0.95)
        for (speedName, counts) in perSpeed.sorted(by: { $0.key < $1.key }) {
            let speedShare = Double(counts.inWindow) / Double(max(counts.feasible, 1))
            print("CORPUS \(units) at \(speedName): \(counts.inWindow)/\(counts.feasible) in window")
            #expect(speedShare >= 0.95, "at \(speedName)")
        }
        #expect(late == 0)
        #expect(overlaps == 0)
        #expect(stale == 0)
        #expect(repeats == 0)
        #expect(maxPrompts <= 3)
        #expect(maxClose <= 2)
        #expect(distanceMisses == 0)
    }

    /// With 1.5 s of silence before every prompt (a Bluetooth link's wake-up) counted as output
    /// latency, the corpus still puts at least 95% of finals in their window, at every speed.
    @Test func corpusKeepsFinalsInTheirWindowWithALeadIn() async throws {
        let phrases = try RoutingSupport.builder("en", units: .metric)
        var timing = AnnouncementTiming()
        timing.outputLatency += 1.5
        var perSpeed: [String: (feasible: Int, inWindow: Int, late: Int, overlaps: Int)] = [:]
        for (_, original) in try RoutingSupport.fixtureRoutes() {
            for server in [true, false] {
                let route = server ? original : original.strippingVoiceInstructions()
                for (speedName, speed) in Self.speeds {
                    for noise in [0.0, 10.0] {
                        let summary = try await DriveSimulator(
                            route: route, phrases: phrases, speed: speed, gpsNoise: noise, seed: 42,
                            timing: timing, usesServerInstructions: server,
                            durationOf: RoutingSupport.estimate
                        ).run().summary
                        var counts = perSpeed[speedName, default: (0, 0, 0, 0)]
                        counts.feasible += summary.feasible
                        counts.inWindow += summary.finalInWindow
                        counts.late += summary.late
                        counts.overlaps += summary.overlaps
                        perSpeed[speedName] = counts
                    }
                }
            }
        }
        for (speedName, counts) in perSpeed.sorted(by: { $0.key < $1.key }) {
            let share = Double(counts.inWindow) / Double(max(counts.feasible, 1))
            print("CORPUS lead-in 1.5 s at \(speedName): \(counts.inWindow)/\(counts.feasible) in window")
            #expect(share >= 0.95, "at \(speedName): \(counts)")
            #expect(counts.late == 0 && counts.overlaps == 0, "at \(speedName): \(counts)")
        }
    }

    /// A chime before every final (and the prompt chime before arrivals) counts in the final's
    /// length: over the corpus the finals still end in their window.
    @Test func corpusKeepsFinalsInTheirWindowWithChimes() async throws {
        let phrases = try RoutingSupport.builder("en", units: .metric)
        var feasible = 0
        var inWindow = 0
        var chimed = 0
        for (_, original) in try RoutingSupport.fixtureRoutes() {
            for server in [true, false] {
                let route = server ? original : original.strippingVoiceInstructions()
                for (_, speed) in Self.speeds {
                    var simulator = DriveSimulator(
                        route: route, phrases: phrases, speed: speed, seed: 42,
                        usesServerInstructions: server,
                        durationOf: {
                            RoutingSupport.estimate($0) + ($0.delivery.chime.map(Chime.duration) ?? 0)
                        })
                    simulator.sound = PromptSound(chimes: .finals)
                    let timeline = try await simulator.run()
                    feasible += timeline.summary.feasible
                    inWindow += timeline.summary.finalInWindow
                    #expect(timeline.summary.late == 0 && timeline.summary.overlaps == 0)
                    for prompt in timeline.prompts {
                        #expect((prompt.chime == .prompt) == prompt.tier.isFinal, "\(prompt.tier)")
                        if prompt.chime != nil { chimed += 1 }
                    }
                }
            }
        }
        let share = Double(inWindow) / Double(max(feasible, 1))
        print("CORPUS chimes before finals: \(inWindow)/\(feasible) in window, \(chimed) chimes")
        #expect(share >= 0.95 && chimed > 0)
    }

    /// The summary is computed from the records and the route alone, so it catches a bad timeline.
    @Test func summaryCatchesLateOverlappingStaleAndRepeatedPrompts() {
        // Turn at 500 m (50 s at 10 m/s), arrival at 1000 m (100 s).
        let route = RoutingSupport.route([(.turn, .left, 500), (.arrive, nil, 500)])
        func record(_ time: Double, step: Int, tier: PromptTier, text: String, duration: Double)
            -> PromptRecord
        {
            let maneuver = step == 1 ? 50.0 : 100.0
            return PromptRecord(
                timeS: time, leg: 0, step: step, tier: tier, text: text, distanceM: (maneuver - time) * 10,
                speedMps: 10, durationS: duration, endsBeforeManeuverS: maneuver - time - duration,
                spokenDistanceM: nil)
        }
        let prompts = [
            record(30, step: 1, tier: .approach, text: "In 200 meters, turn left", duration: 2),
            // Overlaps the one before, and repeats its tier.
            record(31, step: 1, tier: .approach, text: "In 190 meters, turn left", duration: 2),
            record(44, step: 1, tier: .final, text: "Turn left", duration: 2),  // ends 4 s before: in window
            record(95, step: 2, tier: .arrival, text: "You have arrived", duration: 2),
            record(97.5, step: 2, tier: .approach, text: "In 20 meters, arrive", duration: 3),  // late, stale
        ]
        let summary = DriveSummary(route: route, speed: .constant(10), prompts: prompts)
        #expect(summary.maneuvers == 2)
        #expect(summary.feasible == 2)
        #expect(summary.finalInWindow == 1)
        #expect(summary.late == 1)
        #expect(summary.overlaps == 1)
        #expect(summary.stale == 1)
        #expect(summary.repeats == 1)
        #expect(summary.maxPromptsPerManeuver == 3)
    }

    @Test func noisyDrivesAreDeterministicAndTimesMatchTheRoute() async throws {
        let url = TestFixtures.directions("directions-swift_instructions.json")
        let route = try Route.decode(from: Data(contentsOf: url))
        func run() async throws -> DriveTimeline {
            try await DriveSimulator(
                route: route, phrases: try RoutingSupport.builder("en", units: .imperial), speed: .route,
                gpsNoise: 10,
                seed: 7, durationOf: RoutingSupport.estimate
            ).run()
        }
        let first = try await run()
        let second = try await run()
        #expect(first.prompts == second.prompts)
        #expect(Double(first.updates) >= route.legs[0].steps.reduce(0) { $0 + $1.duration } - 1)
        // Each prompt's maneuver time, recomputed from the route alone, matches its fields.
        var starts: [Double] = [0]
        for step in route.legs[0].steps { starts.append(starts.last! + step.duration) }
        for prompt in first.prompts {
            let maneuverTime = starts[prompt.step]
            #expect(abs(prompt.timeS + prompt.durationS + prompt.endsBeforeManeuverS - maneuverTime) < 1e-6)
        }
    }
}
