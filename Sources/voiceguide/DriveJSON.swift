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

    /// A route, signal or speed event: `{"event": "off_route", "time_s": …}`; a speed alert adds
    /// `limit_kmh`, `speed_kmh` and the limit as posted (`posted_limit`, `posted_unit`: km/h or mph);
    /// a reached waypoint adds its number (`waypoint`, from 1) and the leg driven next (`next_leg`).
    struct Event: Encodable {
        var name: String
        var timeS: Double
        var speedAlert: SpeedWatch.Alert?
        var waypoint: Int?

        init(_ record: GuidedDrive.EventRecord) {
            name = record.event.rawValue
            timeS = record.timeS
            speedAlert = record.speedAlert
            waypoint = record.waypoint
        }

        enum CodingKeys: String, CodingKey {
            case event
            case timeS = "time_s"
            case limitKmh = "limit_kmh"
            case speedKmh = "speed_kmh"
            case postedLimit = "posted_limit"
            case postedUnit = "posted_unit"
            case waypoint
            case nextLeg = "next_leg"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .event)
            try container.encode(timeS, forKey: .timeS)
            if let waypoint {
                try container.encode(waypoint, forKey: .waypoint)
                try container.encode(waypoint, forKey: .nextLeg)
            }
            guard let alert = speedAlert else { return }
            try container.encode(Self.tenth(alert.limitKmh), forKey: .limitKmh)
            try container.encode(Self.tenth(alert.speedKmh), forKey: .speedKmh)
            if case .posted(let speed, let unit) = alert.limit {
                try container.encode(speed, forKey: .postedLimit)
                try container.encode(unit.rawValue, forKey: .postedUnit)
            }
        }

        /// The line of the plain timeline: `  12.0 s  [speed_alert 63 km/h, limit 50 km/h]`,
        /// `  80.0 s  [waypoint_reached 1]`.
        var text: String {
            if let waypoint { return String(format: "%7.1f s  [%@ %d]", timeS, name, waypoint) }
            guard let alert = speedAlert else { return String(format: "%7.1f s  [%@]", timeS, name) }
            return String(
                format: "%7.1f s  [%@ %.0f km/h, limit %.0f km/h]", timeS, name, alert.speedKmh,
                alert.limitKmh)
        }

        private static func tenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    }

    /// One line of JSON (sorted keys, slashes as they are).
    static func line(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
