import DriveSimulation
import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// Speed alerts on a guided drive: at the right times, in the voice's language, in alerts-only
/// mode too, and silent (but reported) when switched off.
@Suite struct SpeedAlertDriveTests {
    /// What a drive of the Tokyo fixture at `speed` m/s said and reported.
    struct Outcome {
        var events: [GuidedDrive.EventRecord]
        var heard: [SimulatedSpeech.HeardPrompt]
        var speedAlerts: [GuidedDrive.EventRecord] { events.filter { $0.event == .speedAlert } }
    }

    static func drive(
        speed: Double, language: String = "en", mode: VoiceController.Mode = .all,
        enabled: Set<RouteMatcher.Event> = Set(RouteMatcher.Event.allCases)
    ) async throws -> Outcome {
        let route = try SpeedLimitTests.limitedRoute()
        let book = try PhraseBook.load(directory: RoutingSupport.phrasesFolder, language: language)
        let fixes = SteadyDrive.fixes(on: try RouteLine(route: route), speed: speed)
        var drive = GuidedDrive(
            route: route, phrases: PhraseBuilder(book: book, units: .metric), fixes: fixes,
            alerts: GuidanceAlerts(words: try #require(book.alerts), enabled: enabled, units: .metric),
            usesServerInstructions: false, durationOf: RoutingSupport.estimate)
        drive.mode = mode
        let heard = Locked<[SimulatedSpeech.HeardPrompt]>([])
        drive.onHeard = { prompt in heard.withLock { $0.append(prompt) } }
        let result = try await drive.run()
        return Outcome(events: result.events, heard: heard.withLock { $0 })
    }

    @Test func at54KmhOnlyTheTwoFortyStretchesAreAlertedAfterThreeSeconds() async throws {
        // 15 m/s = 54 km/h: over 40 + 5, within 50 + 5 and 60 + 6. The 40 stretches start at
        // 304 m (20.3 s) and 789 m (52.6 s); three seconds over, on the next whole second.
        let outcome = try await Self.drive(speed: 15)
        let alerts = outcome.speedAlerts
        #expect(alerts.count == 2, "\(alerts)")
        #expect(alerts.map(\.speedAlert?.limitKmh) == [40, 40])
        #expect(alerts.allSatisfy { abs(($0.speedAlert?.speedKmh ?? 0) - 54) < 1 })
        let times = alerts.map(\.timeS)
        #expect(times.count == 2 && (23...25).contains(times[0]) && (55...57).contains(times[1]), "\(times)")
        let said = outcome.heard.filter { $0.instruction.text == "Speed limit 40" }
        #expect(said.count == 2)
        #expect(zip(said, times).allSatisfy { $0.start >= $1 && $0.start < $1 + 2 })
    }

    @Test func underTheLimitsNothingIsAlerted() async throws {
        let outcome = try await Self.drive(speed: 11)  // 39.6 km/h
        #expect(outcome.speedAlerts.isEmpty)
        #expect(!outcome.heard.contains { $0.instruction.text.hasPrefix("Speed limit") })
    }

    @Test(arguments: [
        ("en", "Speed limit 40"), ("fr", "Limitation à 40"), ("de", "Tempolimit 40"),
        ("es", "Límite de velocidad 40"),
    ])
    func theAlertIsSpokenInTheVoicesLanguage(language: String, text: String) async throws {
        let outcome = try await Self.drive(speed: 15, language: language)
        #expect(
            outcome.heard.filter { $0.instruction.text == text }.count == 2,
            "\(outcome.heard.map(\.instruction.text))")
    }

    @Test func alertsOnlyModeStillSpeaksIt() async throws {
        let all = try await Self.drive(speed: 15)
        let alertsOnly = try await Self.drive(speed: 15, mode: .alertsOnly)
        let texts = alertsOnly.heard.map(\.instruction.text)
        #expect(texts == ["Speed limit 40", "Speed limit 40"], "\(texts)")
        #expect(all.heard.count > texts.count + 2)  // the turn prompts were there to suppress
        #expect(alertsOnly.heard.allSatisfy { $0.length > 0.5 && !$0.wasCut })
    }

    @Test func switchedOffItIsReportedButNotSpoken() async throws {
        let enabled = Set(RouteMatcher.Event.allCases).subtracting([.speedAlert])
        let outcome = try await Self.drive(speed: 15, enabled: enabled)
        #expect(outcome.speedAlerts.count == 2)
        #expect(!outcome.heard.contains { $0.instruction.text.hasPrefix("Speed limit") })
        #expect(!outcome.heard.isEmpty)
    }
}
