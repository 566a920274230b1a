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
            case gainDB = "gain_db"
            case chime
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
            try container.encode((record.gainDB * 100).rounded() / 100, forKey: .gainDB)
            try container.encode(record.chime?.rawValue, forKey: .chime)
        }
    }

    /// The summary as `{"event": "summary", "maneuvers": …}`.
    struct Summary: Encodable {
        var summary: DriveSummary

        enum CodingKeys: String, CodingKey {
            case event, maneuvers, feasible, late, overlaps, stale, repeats
            case finalInWindow = "final_in_window"
            case maxPromptsPerManeuver = "max_prompts_per_maneuver"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("summary", forKey: .event)
            try container.encode(summary.maneuvers, forKey: .maneuvers)
            try container.encode(summary.feasible, forKey: .feasible)
            try container.encode(summary.finalInWindow, forKey: .finalInWindow)
            try container.encode(summary.late, forKey: .late)
            try container.encode(summary.overlaps, forKey: .overlaps)
            try container.encode(summary.stale, forKey: .stale)
            try container.encode(summary.repeats, forKey: .repeats)
            try container.encode(summary.maxPromptsPerManeuver, forKey: .maxPromptsPerManeuver)
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

    /// The summary of a drive from fixes: `{"event": "summary", "judged": …}`.
    struct GuidedSummary: Encodable {
        var summary: GuidedDriveSummary

        enum CodingKeys: String, CodingKey {
            case event, maneuvers, judged, late, overlaps, repeats
            case finalInWindow = "final_in_window"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("summary", forKey: .event)
            try container.encode(summary.maneuvers, forKey: .maneuvers)
            try container.encode(summary.judged, forKey: .judged)
            try container.encode(summary.finalInWindow, forKey: .finalInWindow)
            try container.encode(summary.late, forKey: .late)
            try container.encode(summary.overlaps, forKey: .overlaps)
            try container.encode(summary.repeats, forKey: .repeats)
        }
    }

    /// One line of JSON (sorted keys, slashes as they are).
    static func line(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
