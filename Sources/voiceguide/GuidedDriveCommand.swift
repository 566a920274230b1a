import DriveSimulation
import Foundation
import VoiceGuidance

/// `voiceguide drive --trace FILE` and `--motion realistic`: GPS fixes (recorded, or from a
/// simulated driver and receiver) through route matching and the VoiceController.
enum GuidedDriveCommand {
    /// Where the fixes come from.
    enum Source {
        case trace(path: String)
        case realistic(seed: UInt64)
    }

    /// The alert switches of `drive` (guided) and `navigate`: `--no-alert LIST`, `--alerts-only`.
    struct AlertOptions {
        /// Alerts switched off (their events are still reported).
        var disabled: Set<RouteMatcher.Event> = []
        /// Only alerts and app prompts are spoken, no turn prompts.
        var alertsOnly = false

        static func parse(_ arguments: inout CommandLineArguments) throws -> AlertOptions {
            var options = AlertOptions()
            options.alertsOnly = arguments.flag("--alerts-only")
            if let list = try arguments.option("--no-alert") {
                switch GuidanceAlerts.events(named: list) {
                case .success(let events): options.disabled = events
                case .failure(let unknown): throw UsageError("--no-alert: \(unknown)")
                }
            }
            return options
        }

        var isDefault: Bool { disabled.isEmpty && !alertsOnly }
        var mode: VoiceController.Mode { alertsOnly ? .alertsOnly : .all }
    }

    /// Runs the drive and prints its timeline (or JSON lines).
    static func run(
        route: Route, source: Source, phrases: PhraseBuilder, book: PhraseBook, audio: PromptAudio,
        sound: PromptSound, usesServerInstructions: Bool, json: Bool,
        alertOptions: AlertOptions = AlertOptions()
    ) async throws -> Int32 {
        guard
            route.geometry != nil || route.legs.contains(where: { $0.steps.contains { $0.geometry != nil } })
        else { throw CommandFailure("the route has no geometry to match positions against") }
        let fixes: [Position]
        var truth: RealisticMotion?
        let timing = brakingTiming
        switch source {
        case .trace(let path):
            let trace = try TraceLoading.load(path)
            if trace.statistics.rejected > 0 || trace.statistics.noFix > 0 {
                FileHandle.standardError.write(Data("\(path): \(describe(trace.statistics))\n".utf8))
            }
            fixes = trace.positions
        case .realistic(let seed):
            let line: RouteLine
            do { line = try RouteLine(route: route) } catch { throw CommandFailure("\(error)") }
            let motion = RealisticMotion(route: route, line: line, seed: seed)
            fixes = SimulatedReceiver(motion: motion, seed: seed).fixes
            truth = motion
        }
        var drive = GuidedDrive(
            route: route, phrases: phrases, fixes: fixes, truth: truth, timing: timing,
            alerts: alerts(book, units: phrases.units, disabled: alertOptions.disabled),
            usesServerInstructions: usesServerInstructions, durationOf: { audio.duration(of: $0) })
        drive.mode = alertOptions.mode
        drive.sound = sound
        let result: GuidedDrive.Result
        do { result = try await drive.run() } catch { throw CommandFailure("\(error)") }
        try printResult(result, json: json)
        return ExitStatus.success
    }

    /// The timing of a drive from GPS fixes: the car is expected to brake before turns.
    static var brakingTiming: AnnouncementTiming {
        var timing = AnnouncementTiming()
        timing.expectsBraking = true
        return timing
    }

    /// The alerts of the voice's phrase book (English words when it has none), said in `units`,
    /// all but the `disabled` ones.
    static func alerts(_ book: PhraseBook, units: UnitSystem, disabled: Set<RouteMatcher.Event> = [])
        -> GuidanceAlerts
    {
        GuidanceAlerts(
            words: book.alerts
                ?? PhraseBook.Alerts(
                    offRoute: "Off route", backOnRoute: "Back on route", gpsLost: "GPS lost",
                    gpsRecovered: "GPS recovered", speedLimit: GuidanceAlerts.englishSpeedLimit),
            enabled: Set(RouteMatcher.Event.allCases).subtracting(disabled), units: units)
    }

    static func describe(_ statistics: TraceStatistics) -> String {
        "\(statistics.fixes) fixes read; skipped: \(statistics.badChecksum) bad checksum, "
            + "\(statistics.malformed) malformed, \(statistics.missingTime) without time, "
            + "\(statistics.overlong) too long, \(statistics.noFix) without fix"
    }

    private static func printResult(_ result: GuidedDrive.Result, json: Bool) throws {
        var lines: [(Double, String)] = []
        for prompt in result.prompts {
            let text =
                json
                ? try DriveJSON.line(DriveJSON.Prompt(record: prompt))
                : String(
                    format: "%7.1f s  %@ %@  ends %.1f s before  %+.1f dB%@", prompt.timeS,
                    prompt.tier.rawValue, prompt.text, prompt.endsBeforeManeuverS, prompt.gainDB,
                    prompt.chime.map { "  chime \($0.rawValue)" } ?? "")
            lines.append((prompt.timeS, text))
        }
        for event in result.events {
            let text = json ? try DriveJSON.line(DriveJSON.Event(event)) : DriveJSON.Event(event).text
            lines.append((event.timeS, text))
        }
        for (_, line) in lines.sorted(by: { $0.0 < $1.0 }) { print(line) }
        let summary = result.summary
        if json {
            print(try DriveJSON.line(DriveJSON.Summary(summary: summary)))
        } else {
            print(
                """

                \(summary.maneuvers) maneuvers passed, \(summary.judged) judged (≥ 8 s from the previous, \
                no stop in the 20 s before); final prompt ended 2.5–6 s before: \
                \(summary.finalInWindow)/\(summary.judged)
                late: \(summary.late), overlaps: \(summary.overlaps), repeats: \(summary.repeats)
                """)
        }
    }
}
