public import VoiceGuidance

/// The checks of `docs/timing.md` for drives that brake and stop, judged on the car's track
/// (the true one of a simulated drive, or the matched one of a recorded trace).
///
/// A maneuver counts when the car reaches it at least 8 s after the previous one and did not
/// stand still in the 20 s before it; for those, the last prompt should end 2.5–6 s before the
/// car passes the maneuver.
public struct GuidedDriveSummary: Sendable, Equatable {
    /// Maneuvers the car passed.
    public var maneuvers = 0
    /// Maneuvers that count (≥ 8 s after the previous, no stop in the 20 s before).
    public var judged = 0
    /// Judged maneuvers whose last prompt ended 2.5–6 s before them.
    public var finalInWindow = 0
    /// Prompts (not alerts) that ended after their maneuver.
    public var late = 0
    /// Prompts that started before the previous one ended.
    public var overlaps = 0
    /// The same text said twice for one maneuver.
    public var repeats = 0

    public init() {}

    /// Judges the prompts of a drive made from a recorded trace (`drive --trace --json`, say)
    /// against where the car really was: each prompt's distance, speed and margin recomputed from
    /// `truth`, whose time 0 is the trace's first fix.
    public static func judging(_ prompts: [PromptRecord], route: Route, truth: RealisticMotion) -> (
        prompts: [PromptRecord], summary: GuidedDriveSummary
    ) {
        let seconds = Int(truth.duration.rounded(.up))
        let track = (0...max(seconds, 0)).map { second in
            let time = Double(second)
            return TrackPoint(time: time, along: truth.place(at: time), speed: truth.speed(at: time))
        }
        let judge = Judge(route: route, line: truth.line, track: track)
        let judged = prompts.map { judge.rejudge($0) }
        return (judged, judge.summary(judged))
    }

    /// Adds another drive's counts to these.
    public mutating func add(_ other: GuidedDriveSummary) {
        maneuvers += other.maneuvers
        judged += other.judged
        finalInWindow += other.finalInWindow
        late += other.late
        overlaps += other.overlaps
        repeats += other.repeats
    }

    /// One second of the car's track.
    struct TrackPoint: Sendable {
        var time: Double
        var along: Double
        var speed: Double
    }

    /// Places prompts on the track.
    struct Judge {
        let route: Route
        let line: RouteLine
        let track: [TrackPoint]
        /// When the car passed each maneuver, by (leg, step); and when it last stood before.
        private var passes: [Key: (time: Double, lastStop: Double, along: Double)] = [:]

        struct Key: Hashable {
            var leg: Int
            var step: Int
        }

        init(route: Route, line: RouteLine, track: [TrackPoint]) {
            self.route = route
            self.line = line
            self.track = track
            var cursor = 0
            var lastStop = -Double.infinity
            for span in line.maneuverSpans {
                while cursor < track.count, track[cursor].along < span.along - 1 {
                    if track[cursor].speed < 0.5 && track[cursor].along > 1 { lastStop = track[cursor].time }
                    cursor += 1
                }
                // A maneuver the track never reaches is not judged (its prompts get no timing).
                guard cursor < track.count else { break }
                passes[Key(leg: span.legIndex, step: span.stepIndex)] = (
                    track[cursor].time, lastStop, span.along
                )
            }
        }

        func record(_ prompt: ScheduledPrompt, at time: Double, heardFor length: Double) -> PromptRecord {
            var record = PromptRecord(
                timeS: time, leg: prompt.legIndex, step: prompt.stepIndex, tier: prompt.tier,
                text: prompt.instruction.text, distanceM: 0, speedMps: 0, durationS: length,
                endsBeforeManeuverS: 0, spokenDistanceM: prompt.spokenDistance, ssml: prompt.instruction.ssml)
            record.gainDB = prompt.instruction.delivery.speedGainDB
            record.chime = prompt.instruction.delivery.chime
            return rejudge(record)
        }

        /// The prompt with its distance, speed and margin taken from this track.
        func rejudge(_ prompt: PromptRecord) -> PromptRecord {
            var prompt = prompt
            let pass = passes[Key(leg: prompt.leg, step: prompt.step)]
            let here = place(at: prompt.timeS)
            prompt.distanceM = pass.map { $0.along - here.along } ?? 0
            prompt.speedMps = here.speed
            prompt.endsBeforeManeuverS = pass.map { $0.time - prompt.timeS - prompt.durationS } ?? 0
            return prompt
        }

        private func place(at time: Double) -> TrackPoint {
            let index = min(max(Int(time.rounded(.down)), 0), max(track.count - 1, 0))
            return track.isEmpty ? TrackPoint(time: time, along: 0, speed: 0) : track[index]
        }

        func summary(_ prompts: [PromptRecord]) -> GuidedDriveSummary {
            var summary = GuidedDriveSummary()
            var byManeuver: [Key: [PromptRecord]] = [:]
            for prompt in prompts where prompt.tier != .custom {
                byManeuver[Key(leg: prompt.leg, step: prompt.step), default: []].append(prompt)
                if prompt.endsBeforeManeuverS < 0 { summary.late += 1 }
            }
            var previous = 0.0
            for span in line.maneuverSpans {
                guard let pass = passes[Key(leg: span.legIndex, step: span.stepIndex)] else { break }
                summary.maneuvers += 1
                defer { previous = pass.time }
                guard pass.time - previous >= 8, pass.lastStop < pass.time - 20 else { continue }
                summary.judged += 1
                let list = byManeuver[Key(leg: span.legIndex, step: span.stepIndex)] ?? []
                if let final = list.max(by: { $0.timeS < $1.timeS }),
                    final.endsBeforeManeuverS >= 2.5, final.endsBeforeManeuverS <= 6
                {
                    summary.finalInWindow += 1
                }
            }
            for list in byManeuver.values { summary.repeats += list.count - Set(list.map(\.text)).count }
            let ordered = prompts.sorted { $0.timeS < $1.timeS }
            for (earlier, later) in zip(ordered, ordered.dropFirst())
            where later.timeS < earlier.timeS + earlier.durationS - 1e-9 {
                summary.overlaps += 1
            }
            return summary
        }
    }
}
