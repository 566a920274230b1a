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

    /// A route, signal or speed event: `{"event": "off_route", "time_s": …}`; a speed alert adds
    /// `limit_kmh`, `speed_kmh` and the limit as posted (`posted_limit`, `posted_unit`: km/h or mph).
    struct Event: Encodable {
        var name: String
        var timeS: Double
        var speedAlert: SpeedWatch.Alert?

        init(_ record: GuidedDrive.EventRecord) {
            name = record.event.rawValue
            timeS = record.timeS
            speedAlert = record.speedAlert
        }

        enum CodingKeys: String, CodingKey {
            case event
            case timeS = "time_s"
            case limitKmh = "limit_kmh"
            case speedKmh = "speed_kmh"
            case postedLimit = "posted_limit"
            case postedUnit = "posted_unit"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .event)
            try container.encode(timeS, forKey: .timeS)
            guard let alert = speedAlert else { return }
            try container.encode(Self.tenth(alert.limitKmh), forKey: .limitKmh)
            try container.encode(Self.tenth(alert.speedKmh), forKey: .speedKmh)
            if case .posted(let speed, let unit) = alert.limit {
                try container.encode(speed, forKey: .postedLimit)
                try container.encode(unit.rawValue, forKey: .postedUnit)
            }
        }

        /// The line of the plain timeline: `  12.0 s  [speed_alert 63 km/h, limit 50 km/h]`.
        var text: String {
            guard let alert = speedAlert else { return String(format: "%7.1f s  [%@]", timeS, name) }
            return String(
                format: "%7.1f s  [%@ %.0f km/h, limit %.0f km/h]", timeS, name, alert.speedKmh,
                alert.limitKmh)
        }

        private static func tenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }
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
