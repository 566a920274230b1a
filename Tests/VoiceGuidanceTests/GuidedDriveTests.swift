import DriveSimulation
import Foundation
import Testing
import VoiceGuidance

@Suite struct GuidedDriveTests {
    static func alerts() throws -> GuidanceAlerts {
        let book = try PhraseBook.load(directory: RoutingSupport.phrasesFolder, language: "en")
        return GuidanceAlerts(words: try #require(book.alerts))
    }

    /// Realistic drives over the corpus (routes under 300 km), several seeds, braking expected or not.
    static func realisticTotals(expectsBraking: Bool, seeds: [UInt64]) async throws -> GuidedDriveSummary {
        var total = GuidedDriveSummary()
        let phrases = try RoutingSupport.builder()
        for (_, route) in try RoutingSupport.fixtureRoutes() where route.distance < 300_000 {
            for seed in seeds {
                let line = try RouteLine(route: route)
                let motion = RealisticMotion(route: route, line: line, seed: seed)
                var timing = AnnouncementTiming()
                timing.expectsBraking = expectsBraking
                let drive = GuidedDrive(
                    route: route, phrases: phrases,
                    fixes: SimulatedReceiver(motion: motion, seed: seed).fixes,
                    truth: motion, timing: timing, alerts: try alerts(), durationOf: RoutingSupport.estimate)
                let summary = try await drive.run().summary
                total.maneuvers += summary.maneuvers
                total.judged += summary.judged
                total.finalInWindow += summary.finalInWindow
                total.late += summary.late
                total.overlaps += summary.overlaps
                total.repeats += summary.repeats
            }
        }
        return total
    }

    @Test func realisticDrivesMeetTheTimingGoalsWhenBrakingIsExpected() async throws {
        let braking = try await Self.realisticTotals(expectsBraking: true, seeds: [1, 2, 3])
        let naive = try await Self.realisticTotals(expectsBraking: false, seeds: [1, 2, 3])
        print("braking expected: \(braking)\ncurrent speed only: \(naive)")
        #expect(braking.judged >= 100)
        #expect(Double(braking.finalInWindow) >= 0.9 * Double(braking.judged), "\(braking)")
        #expect(braking.late == 0)
        #expect(braking.overlaps == 0)
        #expect(braking.repeats == 0)
        #expect(braking.finalInWindow > naive.finalInWindow)
    }
}

@Suite struct AlertPhraseTests {
    @Test(arguments: ["en", "fr", "de", "es"])
    func everyPhraseBookHasTheAlerts(language: String) throws {
        let book = try PhraseBook.load(directory: RoutingSupport.phrasesFolder, language: language)
        let alerts = try #require(book.alerts)
        let texts = [alerts.offRoute, alerts.backOnRoute, alerts.gpsLost, alerts.gpsRecovered]
        #expect(Set(texts).count == 4)
        #expect(texts.allSatisfy { !$0.isEmpty })
    }
}
