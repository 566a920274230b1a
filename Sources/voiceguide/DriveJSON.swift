import DriveSimulation
import Foundation
import VoiceGuidance

/// The JSON lines of `voiceguide drive --json`: one object per prompt, then the summary.
enum DriveJSON {
    /// A prompt as `{"event": "prompt", "time_s": …}` (`spoken_distance_m` is null when none).
    struct Prompt: Encodable {
        var record: PromptRecord

        enum CodingKeys: String, CodingKey {
            case event, leg, step, tier, text
            case timeS = "time_s"
            case distanceM = "distance_m"
            case speedMps = "speed_mps"
            case durationS = "duration_s"
            case endsBeforeManeuverS = "ends_before_maneuver_s"
            case spokenDistanceM = "spoken_distance_m"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("prompt", forKey: .event)
            try container.encode(record.timeS, forKey: .timeS)
            try container.encode(record.leg, forKey: .leg)
            try container.encode(record.step, forKey: .step)
            try container.encode(record.tier, forKey: .tier)
            try container.encode(record.text, forKey: .text)
            try container.encode(record.distanceM, forKey: .distanceM)
            try container.encode(record.speedMps, forKey: .speedMps)
            try container.encode(record.durationS, forKey: .durationS)
            try container.encode(record.endsBeforeManeuverS, forKey: .endsBeforeManeuverS)
            try container.encode(record.spokenDistanceM, forKey: .spokenDistanceM)
        }
    }

    /// A summary as `{"event": "summary", "maneuvers": …}`: the counts of a simulated drive or
    /// of a drive from fixes, by their snake_case names.
    struct Summary: Encodable {
        var counts: KeyValuePairs<String, Int>

        /// A simulated drive's checks.
        init(summary: DriveSummary) {
            counts = [
                "maneuvers": summary.maneuvers, "feasible": summary.feasible,
                "final_in_window": summary.finalInWindow, "late": summary.late, "overlaps": summary.overlaps,
                "stale": summary.stale, "repeats": summary.repeats,
                "max_prompts_per_maneuver": summary.maxPromptsPerManeuver,
            ]
        }

        /// The checks of a drive from fixes.
        init(summary: GuidedDriveSummary) {
            counts = [
                "maneuvers": summary.maneuvers, "judged": summary.judged,
                "final_in_window": summary.finalInWindow, "late": summary.late, "overlaps": summary.overlaps,
                "repeats": summary.repeats,
            ]
        }

        /// A key named at run time.
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("summary", forKey: Key(stringValue: "event"))
            for (name, count) in counts { try container.encode(count, forKey: Key(stringValue: name)) }
        }
    }

    /// A route or signal event: `{"event": "off_route", "time_s": …}`.
    struct Event: Encodable {
        var name: String
        var timeS: Double

        enum CodingKeys: String, CodingKey {
            case event
            case timeS = "time_s"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .event)
            try container.encode(timeS, forKey: .timeS)
        }
    }

    /// One line of JSON (sorted keys, slashes as they are).
    static func line(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
