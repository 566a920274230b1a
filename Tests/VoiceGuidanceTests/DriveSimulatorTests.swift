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
    @Test func corpusMeetsTheTimingRules() throws {
        let phrases = try RoutingSupport.builder("en", units: .imperial)
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
        for (name, original) in try RoutingSupport.fixtureRoutes() {
            for server in [true, false] {
                let route = server ? original : original.strippingVoiceInstructions()
                for (speedName, speed) in Self.speeds {
                    for noise in [0.0, 10.0] {
                        let drive = DriveSimulator(
                            route: route, phrases: phrases, speed: speed, gpsNoise: noise, seed: 42,
                            usesServerInstructions: server, durationOf: RoutingSupport.estimate
                        ).run()
                        drives += 1
                        prompts += drive.prompts.count
                        let s = drive.summary
                        feasible += s.feasible
                        inWindow += s.finalInWindow
                        late += s.late
                        overlaps += s.overlaps
                        stale += s.stale
                        repeats += s.repeats
                        maxPrompts = max(maxPrompts, s.maxPromptsPerManeuver)
                        maxClose = max(maxClose, s.maxPromptsPerCloseManeuver)
                        for prompt in drive.prompts {
                            if prompt.tier == .final || prompt.tier == .arrival { ends.append(prompt.endsBeforeManeuverS) }
                            guard let spoken = prompt.spokenDistanceM, let heard = prompt.heardDistanceM else { continue }
                            distances += 1
                            let error = abs(spoken - heard) / heard
                            worstDistance = max(worstDistance, error)
                            if error > 0.1 && ProcessInfo.processInfo.environment["SCHED_DEBUG"] != nil {
                                print("DIST \(name) \(speedName) noise \(noise): \(prompt.tier) \(prompt.text) said \(spoken) heard \(heard) at speed \(prompt.speedMps)")
                            }
                            if error > 0.15 {
                                distanceMisses += 1
                                print("distance miss \(name) \(speedName) noise \(noise) server \(server): \(prompt.text) heard at \(heard)")
                            }
                        }
                        if s.maxPromptsPerCloseManeuver > 2 && ProcessInfo.processInfo.environment["SCHED_DEBUG"] != nil {
                            print("CLOSE \(name) \(speedName) noise \(noise) server \(server)")
                            for p in drive.prompts { print("  \(p.timeS) \(p.leg)/\(p.step) \(p.tier) \(p.text) end \(p.endsBeforeManeuverS)") }
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
            "CORPUS drives \(drives) prompts \(prompts) feasible \(feasible) in window \(inWindow) (\(share * 100)%) late \(late) overlaps \(overlaps) stale \(stale) repeats \(repeats) max/maneuver \(maxPrompts) max/close \(maxClose) distances \(distances) misses \(distanceMisses) worst \(worstDistance) final end p5 \(ends[ends.count / 20]) median \(ends[ends.count / 2]) p95 \(ends[ends.count * 19 / 20])"
        )
        #expect(share >= 0.95)
        #expect(late == 0)
        #expect(overlaps == 0)
        #expect(stale == 0)
        #expect(repeats == 0)
        #expect(maxPrompts <= 3)
        #expect(maxClose <= 2)
        #expect(distanceMisses == 0)
    }
}
