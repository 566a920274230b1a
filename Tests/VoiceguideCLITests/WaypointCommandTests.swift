import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// Waypoints through `drive` and `navigate` as a user runs them: the JSON event with the next
/// leg, the plain timeline, and the words in alerts-only mode, in the WAV.
@Suite(.serialized) struct WaypointCommandTests {
    let cli: CommandRunner
    init() throws { cli = try CommandRunner() }

    var multilegPath: String { TestFixtures.directions("navigation-ios_multileg-route.json").path }

    static func reached(_ objects: [[String: Any]]) -> [[String: Any]] {
        objects.filter { $0["event"] as? String == "waypoint_reached" }
    }

    @Test func aRealisticDriveReportsTheWaypointAndGuidesTheNextLeg() throws {
        let result = try cli.run(["drive", multilegPath, "--motion", "realistic", "--seed", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try NavigateCommandTests.objects(result.stdout)
        let reached = Self.reached(objects)
        #expect(reached.count == 1, "\(reached)")
        #expect(reached.first?["waypoint"] as? Int == 1)
        #expect(reached.first?["next_leg"] as? Int == 1)
        let time = try #require(reached.first?["time_s"] as? Double)
        let prompts = objects.filter { $0["event"] as? String == "prompt" }
        let arrival = prompts.first { $0["text"] as? String == "You have arrived at your 1st destination" }
        #expect((arrival?["time_s"] as? Double ?? .infinity) < time, "the leg's arrival is said before it")
        #expect(prompts.contains { $0["leg"] as? Int == 1 && ($0["time_s"] as? Double ?? 0) > time })
        let plain = try cli.run(["drive", multilegPath, "--motion", "realistic", "--seed", "1"])
        #expect(plain.stdout.contains("[waypoint_reached 1]"), "\(plain.stdout)")
    }

    @Test func navigateInAlertsOnlyModeSaysTheWaypointIntoTheWAV() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let route = try Route.decode(from: Data(contentsOf: URL(fileURLWithPath: multilegPath)))
        let fixes = SteadyDrive.fixes(on: try RouteLine(route: route), speed: 10).map { fix in
            var fix = fix
            fix.time += 1_704_067_200
            return fix
        }
        let trace = folder.appendingPathComponent("multileg.nmea")
        try TraceWriter.write(fixes, as: .nmea).write(to: trace, atomically: true, encoding: .utf8)
        let wavURL = folder.appendingPathComponent("waypoint.wav")
        let result = try cli.run([
            "navigate", multilegPath, "--trace", trace.path, "--speedup", "20", "--alerts-only", "--output",
            wavURL.path, "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try NavigateCommandTests.objects(result.stdout)
        #expect(Self.reached(objects).count == 1)
        let prompts = NavigateCommandTests.prompts(objects)
        #expect(prompts.map(\.text) == ["You have reached waypoint 1"], "\(prompts.map(\.text))")
        NavigateCommandTests.expectPromptsInAudio(try WAVFile.read(from: wavURL), prompts, scale: 20)

        let silenced = try cli.run([
            "navigate", multilegPath, "--trace", trace.path, "--speedup", "20", "--alerts-only", "--no-alert",
            "waypoint", "--output", folder.appendingPathComponent("silent.wav").path, "--json",
        ])
        #expect(silenced.status == 0, "\(silenced.stderr)")
        let silencedObjects = try NavigateCommandTests.objects(silenced.stdout)
        #expect(Self.reached(silencedObjects).count == 1)
        #expect(NavigateCommandTests.prompts(silencedObjects).isEmpty)
    }
}
