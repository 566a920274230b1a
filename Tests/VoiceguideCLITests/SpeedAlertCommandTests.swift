import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// Speed alerts through `drive` and `navigate` as a user runs them: JSON events, spoken words,
/// audio in alerts-only mode, the `--no-alert` switch.
@Suite(.serialized) struct SpeedAlertCommandTests {
    let cli: CommandRunner
    init() throws { cli = try CommandRunner() }

    var limitedPath: String { TestFixtures.directions(SteadyDrive.limitedRouteName).path }

    /// The Tokyo fixture driven at 15 m/s (54 km/h) as a trace file in `format`, fixes timed
    /// from a day in 2024.
    static func trace(in folder: URL, as format: TraceFormat = .gpsdJSON) throws -> URL {
        let route = try Route.decode(
            from: Data(contentsOf: TestFixtures.directions(SteadyDrive.limitedRouteName)))
        let fixes = SteadyDrive.fixes(on: try RouteLine(route: route), speed: 15).map { fix in
            var fix = fix
            fix.time += 1_704_067_200
            return fix
        }
        let file = folder.appendingPathComponent("steady.\(format.rawValue)")
        try TraceWriter.write(fixes, as: format).write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    static func objects(_ stdout: String) throws -> [[String: Any]] {
        try NavigateCommandTests.objects(stdout)
    }

    static func speedAlerts(_ objects: [[String: Any]]) -> [[String: Any]] {
        objects.filter { $0["event"] as? String == "speed_alert" }
    }

    @Test func driveTraceReportsAndSpeaksEachLimitStretch() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = try Self.trace(in: folder)
        let result = try cli.run(["drive", limitedPath, "--trace", trace.path, "--units", "metric", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try Self.objects(result.stdout)
        let alerts = Self.speedAlerts(objects)
        #expect(alerts.count == 2, "\(alerts)")
        for alert in alerts {
            #expect(alert["limit_kmh"] as? Double == 40)
            #expect(abs((alert["speed_kmh"] as? Double ?? 0) - 54) < 1)
            #expect(alert["posted_limit"] as? Double == 40)
            #expect(alert["posted_unit"] as? String == "km/h")
        }
        let times = alerts.compactMap { $0["time_s"] as? Double }
        #expect(times.count == 2 && (23...25).contains(times[0]) && (55...57).contains(times[1]), "\(times)")
        let said = objects.filter {
            $0["event"] as? String == "prompt" && $0["text"] as? String == "Speed limit 40"
        }
        #expect(said.count == 2)
        #expect(said.first?["tier"] as? String == "custom")

        // The plain timeline names the speed and the limit; imperial voices say miles per hour.
        let plain = try cli.run(["drive", limitedPath, "--trace", trace.path])
        #expect(plain.status == 0)
        #expect(plain.stdout.contains("[speed_alert 54 km/h, limit 40 km/h]"), "\(plain.stdout)")
        #expect(plain.stdout.contains("Speed limit 25"))
    }

    @Test func noAlertSpeedSilencesItButKeepsTheEvent() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = try Self.trace(in: folder)
        let result = try cli.run([
            "drive", limitedPath, "--trace", trace.path, "--no-alert", "speed,gps", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try Self.objects(result.stdout)
        #expect(Self.speedAlerts(objects).count == 2)
        #expect(!objects.contains { ($0["text"] as? String)?.hasPrefix("Speed limit") == true })
        #expect(objects.contains { $0["event"] as? String == "prompt" })
        let unknown = try cli.run(["drive", limitedPath, "--trace", trace.path, "--no-alert", "speed,radar"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown alert 'radar'"), "\(unknown.stderr)")
        let constant = try cli.run(["drive", limitedPath, "--no-alert", "speed"])
        #expect(constant.status == 64)
    }

    @Test func realisticMotionOverTheLimitIsAlerted() throws {
        // The fixture's road is posted 100 km/h but routed at 113 km/h: the seeded driver cruises above.
        let path = TestFixtures.directions("directions-swift_amenities.json").path
        let result = try cli.run(["drive", path, "--motion", "realistic", "--seed", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let alerts = Self.speedAlerts(try Self.objects(result.stdout))
        #expect(alerts.count == 1)
        #expect(alerts.first?["limit_kmh"] as? Double == 100)
        #expect((alerts.first?["speed_kmh"] as? Double ?? 0) > 110)
        // A route without maxspeed, driven the same way: no alert, no error.
        let plain = try cli.run([
            "drive", TestFixtures.directions("navigation-ios_routeWithInstructions.json").path, "--motion",
            "realistic", "--seed", "1", "--json",
        ])
        #expect(plain.status == 0)
        #expect(Self.speedAlerts(try Self.objects(plain.stdout)).isEmpty)
    }

    @Test func navigateInAlertsOnlyModeSpeaksTheAlertIntoTheWAV() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = try Self.trace(in: folder, as: .nmea)
        let wavURL = folder.appendingPathComponent("alerts.wav")
        let result = try cli.run([
            "navigate", limitedPath, "--trace", trace.path, "--speedup", "20", "--alerts-only", "--units",
            "metric", "--output", wavURL.path, "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try Self.objects(result.stdout)
        #expect(Self.speedAlerts(objects).count == 2)
        let prompts = NavigateCommandTests.prompts(objects)
        #expect(prompts.map(\.text) == ["Speed limit 40", "Speed limit 40"], "\(prompts.map(\.text))")
        let wav = try WAVFile.read(from: wavURL)
        NavigateCommandTests.expectPromptsInAudio(wav, prompts, scale: 20)
        // Nothing but the two alerts is heard: the rest of the track is silence.
        let rate = Double(wav.sampleRate)
        let spoken = prompts.reduce(0) { $0 + $1.heard }
        let loud = stride(from: 0, to: wav.samples.count - Int(rate / 10), by: Int(rate / 10)).filter {
            AudioLevel.rmsDB(Array(wav.samples[$0..<$0 + Int(rate / 10)])) > -40
        }
        #expect(
            Double(loud.count) / 10 <= spoken + 0.3, "\(loud.count) loud tenths for \(spoken) s of speech")
    }
}
