import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// `drive --trace` and `drive --motion realistic`, run as a user runs them.
@Suite(.serialized) struct GuidedDriveCommandTests {
    let cli: CommandRunner
    init() throws { cli = try CommandRunner() }

    static let routeName = "navigation-ios_routeWithInstructions.json"
    var routePath: String { TestFixtures.directions(Self.routeName).path }

    /// A simulated drive's fixes over the route (seeded), with the car 200 m off the road from
    /// `offRoute` seconds for 30 s when given.
    static func fixes(offRoute: Double? = nil) throws -> [Position] {
        let route = try Route.decode(from: Data(contentsOf: TestFixtures.directions(routeName)))
        let line = try RouteLine(route: route)
        let motion = RealisticMotion(route: route, line: line, seed: 5)
        var fixes = SimulatedReceiver(motion: motion, seed: 5).fixes
        if let offRoute {
            let start = fixes[0].time + offRoute
            for index in fixes.indices where fixes[index].time >= start && fixes[index].time < start + 30 {
                fixes[index].coordinate = fixes[index].coordinate.offset(by: 200, bearing: 45)
                fixes[index].course = nil
            }
        }
        return fixes
    }

    func lines(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test(arguments: TraceFormat.allCases)
    func aRecordedTraceInEachFormatIsGuided(format: TraceFormat) throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("trace.\(format.rawValue)")
        try TraceWriter.write(try Self.fixes(), as: format).write(to: file, atomically: true, encoding: .utf8)
        let result = try cli.run(["drive", routePath, "--trace", file.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try lines(result.stdout)
        let events = objects.compactMap { $0["event"] as? String }
        #expect(events.filter { $0 == "prompt" }.count >= 5)
        #expect(events.contains("gps_lost") && events.contains("gps_recovered"))
        let summary = try #require(objects.last)
        #expect(summary["event"] as? String == "summary")
        #expect(summary["late"] as? Int == 0)
        #expect(summary["overlaps"] as? Int == 0)
        #expect((summary["judged"] as? Int ?? 0) >= 3)
        let times = objects.dropLast().compactMap { $0["time_s"] as? Double }
        #expect(times == times.sorted())
        #expect(times.first.map { $0 >= 0 } ?? false)
    }

    @Test func leavingTheRouteIsReportedAndNoTurnIsSpokenWhileOff() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("trace.nmea")
        try TraceWriter.write(try Self.fixes(offRoute: 300), as: .nmea).write(
            to: file, atomically: true, encoding: .utf8)
        let result = try cli.run(["drive", routePath, "--trace", file.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try lines(result.stdout)
        let off = try #require(objects.first { $0["event"] as? String == "off_route" }?["time_s"] as? Double)
        let back = try #require(
            objects.first { $0["event"] as? String == "back_on_route" }?["time_s"] as? Double)
        #expect(off > 300 && off < 306)
        #expect(back > 330 && back < 336)
        let turnsWhileOff = objects.filter {
            $0["event"] as? String == "prompt" && ($0["tier"] as? String) != "custom"
                && ($0["time_s"] as? Double ?? 0) > off + 1 && ($0["time_s"] as? Double ?? 0) < back
        }
        #expect(turnsWhileOff.isEmpty)
        let alerts = objects.filter { $0["tier"] as? String == "custom" }.compactMap { $0["text"] as? String }
        #expect(alerts.contains("You are off the route"))
        #expect(alerts.contains("You are back on the route"))
    }

    @Test func realisticMotionIsSeededAndMeetsItsChecks() throws {
        let first = try cli.run(["drive", routePath, "--motion", "realistic", "--seed", "3", "--json"])
        let second = try cli.run(["drive", routePath, "--motion", "realistic", "--seed", "3", "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == second.stdout)
        let summary = try #require(try lines(first.stdout).last)
        #expect(summary["late"] as? Int == 0)
        #expect(summary["repeats"] as? Int == 0)
    }

    @Test func aFileThatIsNoTraceIsAClearError() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("junk.txt")
        try Data("hello\u{0}world".utf8).write(to: file)
        let result = try cli.run(["drive", routePath, "--trace", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not a trace"))
        let empty = folder.appendingPathComponent("nofix.nmea")
        try Data("$GPRMC,000000,V,,,,,,,010126,,*00\r\n".utf8).write(to: empty)
        let none = try cli.run(["drive", routePath, "--trace", empty.path])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no usable fix"))
        let badMotion = try cli.run(["drive", routePath, "--motion", "wild"])
        #expect(badMotion.status == 64)
    }
}
