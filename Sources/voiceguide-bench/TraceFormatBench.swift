import DriveSimulation
import Foundation
import VoiceGuidance
import VoiceGuidanceTesting

/// §8 of `make bench`: issue 10's braking goal on recorded traces. Realistic drives over the
/// corpus are written as NMEA, GPX and gpsd JSON, replayed by `voiceguide drive ROUTE --trace
/// FILE --json` (real eSpeak lengths), and its prompts judged against where the car really was.
enum TraceFormatBench {
    /// Routes shorter than this are driven (as in `GuidedDriveTests`), with these seeds.
    static let longestRoute = 300_000.0
    static let seeds: [UInt64] = [1, 2, 3]

    /// One row of the table: totals over every route and seed.
    struct Row {
        var truth = GuidedDriveSummary()
        /// What the command itself reports, judged on its matched track.
        var reported = GuidedDriveSummary()
        var seconds = 0.0
    }

    static func run(routeFiles: [URL], scratch: URL) async throws {
        print("\n8. Braking goal on recorded traces: drive --trace FILE --json, per format")
        let cli = try CommandRunner()
        let folder = scratch.appendingPathComponent("traces")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var rows: [String: Row] = [:]
        var drives = 0
        for file in routeFiles {
            let route = try Route.decode(from: Data(contentsOf: file))
            guard route.distance < longestRoute, let line = try? RouteLine(route: route) else { continue }
            for seed in seeds {
                drives += 1
                let motion = RealisticMotion(route: route, line: line, seed: seed)
                let fixes = SimulatedReceiver(motion: motion, seed: seed).fixes
                try drive(
                    cli, ["drive", file.path, "--motion", "realistic", "--seed", "\(seed)", "--json"],
                    route: route, truth: motion, into: &rows["realistic (no file)", default: Row()])
                for format in TraceFormat.allCases {
                    let trace = folder.appendingPathComponent("trace.\(format.rawValue)")
                    try TraceWriter.write(fixes, as: format).write(
                        to: trace, atomically: true, encoding: .utf8)
                    try drive(
                        cli, ["drive", file.path, "--trace", trace.path, "--json"], route: route,
                        truth: motion,
                        into: &rows[format.rawValue, default: Row()])
                }
            }
        }
        print("  \(drives) drives (corpus routes under 300 km × seeds 1–3); judged against the true motion")
        for name in ["realistic (no file)"] + TraceFormat.allCases.map(\.rawValue) {
            guard let row = rows[name] else { continue }
            printRow(name, row)
        }
    }

    /// Runs one drive and adds its prompts, judged against `truth`, to `row`.
    static func drive(
        _ cli: CommandRunner, _ arguments: [String], route: Route, truth: RealisticMotion, into row: inout Row
    ) throws {
        var result: CommandRunner.Result?
        row.seconds += try Statistics.time { result = try cli.run(arguments) }
        guard let result, result.status == 0 else {
            throw CocoaError(
                .executableLoad,
                userInfo: [NSLocalizedDescriptionKey: "\(arguments): \(result?.stderr ?? "")"])
        }
        var prompts: [PromptRecord] = []
        for line in result.stdout.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            else {
                continue
            }
            if let prompt = promptRecord(object) { prompts.append(prompt) }
            if object["event"] as? String == "summary" { row.reported.add(summary(object)) }
        }
        row.truth.add(GuidedDriveSummary.judging(prompts, route: route, truth: truth).summary)
    }

    /// A `{"event":"prompt",…}` line of `drive --json`.
    static func promptRecord(_ object: [String: Any]) -> PromptRecord? {
        guard object["event"] as? String == "prompt", let time = object["time_s"] as? Double,
            let leg = object["leg"] as? Int, let step = object["step"] as? Int,
            let tier = (object["tier"] as? String).flatMap(PromptTier.init(rawValue:)),
            let text = object["text"] as? String, let duration = object["duration_s"] as? Double
        else { return nil }
        return PromptRecord(
            timeS: time, leg: leg, step: step, tier: tier, text: text, distanceM: 0, speedMps: 0,
            durationS: duration, endsBeforeManeuverS: 0, spokenDistanceM: nil)
    }

    /// The `{"event":"summary",…}` line of `drive --json` for a drive from fixes.
    static func summary(_ object: [String: Any]) -> GuidedDriveSummary {
        var summary = GuidedDriveSummary()
        summary.maneuvers = object["maneuvers"] as? Int ?? 0
        summary.judged = object["judged"] as? Int ?? 0
        summary.finalInWindow = object["final_in_window"] as? Int ?? 0
        summary.late = object["late"] as? Int ?? 0
        summary.overlaps = object["overlaps"] as? Int ?? 0
        summary.repeats = object["repeats"] as? Int ?? 0
        return summary
    }

    static func printRow(_ name: String, _ row: Row) {
        let truth = row.truth
        let share = truth.judged > 0 ? 100 * Double(truth.finalInWindow) / Double(truth.judged) : 0
        let met = share >= 90 && truth.late == 0 && truth.overlaps == 0 && truth.repeats == 0
        report(
            "\(name): cases, in 2.5–6 s, late, overlaps, repeats",
            String(
                format: "%d, %d (%.1f %%), %d, %d, %d", truth.judged, truth.finalInWindow, share, truth.late,
                truth.overlaps, truth.repeats),
            goal: "≥ 90 %, 0, 0, 0", met: met)
        let reported = row.reported
        report(
            "  as the command judges it (on its matched track); wall time",
            String(
                format: "%d/%d, %d late, %d overlaps, %d repeats; %.1f s", reported.finalInWindow,
                reported.judged, reported.late, reported.overlaps, reported.repeats, row.seconds))
    }
}
