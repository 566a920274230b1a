import Foundation

/// Simulates a drive over a route and runs the scheduler on it, on a simulated clock.
///
/// The vehicle leaves the origin at time 0 and never stops; progress updates come once a second.
/// GPS noise (`gpsNoise` meters) puts each fix off along the route by a Gaussian error with a
/// standard deviation of half that (so 95% of fixes are within `gpsNoise`), independent per fix,
/// from a seeded generator; the reported speed is the true one and the reported accuracy is
/// `gpsNoise`.
public struct DriveSimulator {
    /// How fast the vehicle drives.
    public enum SpeedProfile: Sendable, Equatable {
        /// Always this speed, m/s.
        case constant(Double)
        /// Each step at its own routed speed (distance / duration).
        case route
    }

    public var route: Route
    public var phrases: PhraseBuilder
    public var speed: SpeedProfile
    public var gpsNoise: Double
    public var seed: UInt64
    public var timing: AnnouncementTiming
    public var usesServerInstructions: Bool
    public var durationOf: AnnouncementScheduler.DurationProvider

    public init(
        route: Route, phrases: PhraseBuilder, speed: SpeedProfile, gpsNoise: Double = 0, seed: UInt64 = 1,
        timing: AnnouncementTiming = AnnouncementTiming(), usesServerInstructions: Bool = true,
        durationOf: @escaping AnnouncementScheduler.DurationProvider
    ) {
        self.route = route
        self.phrases = phrases
        self.speed = speed
        self.gpsNoise = gpsNoise
        self.seed = seed
        self.timing = timing
        self.usesServerInstructions = usesServerInstructions
        self.durationOf = durationOf
    }

    /// Drives the whole route.
    ///
    /// - Complexity: O(drive time in seconds + prompts).
    public func run() -> DriveTimeline {
        let motion = DriveMotion(route: route, speed: speed)
        var scheduler = AnnouncementScheduler(
            route: route, phrases: phrases, timing: timing, usesServerInstructions: usesServerInstructions,
            durationOf: durationOf)
        var random = SplitMix64(seed: seed)
        var prompts: [PromptRecord] = []
        var drops: [DroppedPrompt] = []
        var stepCursor = 0
        let latency = timing.outputLatency
        let end = motion.totalTime
        var time = 0.0
        var updates = 0
        while time < end {
            let truth = motion.position(at: time)
            var fix = truth
            if gpsNoise > 0 { fix += random.nextGaussian() * gpsNoise / 2 }
            fix = min(max(fix, 0), max(motion.length - 0.001, 0))
            stepCursor = motion.step(containing: fix, near: stepCursor)
            let location = motion.steps[stepCursor]
            let progress = RouteProgress(
                time: time, legIndex: location.leg, stepIndex: location.step,
                distanceRemaining: location.start + location.length - fix, speed: motion.speed(at: time),
                horizontalAccuracy: gpsNoise > 0 ? gpsNoise : nil)
            for decision in scheduler.update(progress) {
                switch decision {
                case .drop(let dropped):
                    drops.append(dropped)
                case .speak(let prompt, let interrupted):
                    let start = time + latency
                    if interrupted != nil, var last = prompts.popLast() {
                        last.durationS = max(0, min(last.durationS, start - last.timeS))
                        last.endsBeforeManeuverS =
                            motion.time(at: motion.maneuverPosition(leg: last.leg, step: last.step))
                            - last.timeS - last.durationS
                        prompts.append(last)
                    }
                    let maneuverPosition = motion.maneuverPosition(
                        leg: prompt.legIndex, step: prompt.stepIndex)
                    let maneuverTime = motion.time(at: maneuverPosition)
                    var spoken: Double?
                    var heard: Double?
                    if let value = prompt.spokenDistance {
                        spoken = value
                        let at = time + (prompt.distanceHeardAfter ?? latency)
                        heard = maneuverPosition - motion.position(at: at)
                    }
                    prompts.append(
                        PromptRecord(
                            timeS: start, leg: prompt.legIndex, step: prompt.stepIndex, tier: prompt.tier,
                            text: prompt.instruction.text,
                            distanceM: maneuverPosition - motion.position(at: start),
                            speedMps: motion.speed(at: start), durationS: prompt.duration,
                            endsBeforeManeuverS: maneuverTime - start - prompt.duration,
                            spokenDistanceM: spoken, heardDistanceM: heard, ssml: prompt.instruction.ssml))
                }
            }
            updates += 1
            time = Double(updates)
        }
        let summary = DriveSummary(route: route, speed: speed, prompts: prompts)
        return DriveTimeline(prompts: prompts, summary: summary, drops: drops, updates: updates)
    }
}

/// The ground truth of a simulated drive: where the vehicle is when, from the route alone.
public struct DriveMotion: Sendable {
    struct StepSpan: Sendable {
        var leg: Int
        var step: Int
        var start: Double
        var length: Double
        var startTime: Double
        var speed: Double
    }

    var steps: [StepSpan] = []
    /// Route length in meters.
    public private(set) var length = 0.0
    /// Seconds from the origin to the destination.
    public private(set) var totalTime = 0.0
    private var legStepOffset: [Int] = []

    /// The slowest the vehicle drives, in m/s: slower speeds (asked for, or a step's own) are
    /// raised to this.
    public static let minimumSpeed = 0.1

    /// Lays the route out in time at the given speed profile.
    public init(route: Route, speed: DriveSimulator.SpeedProfile) {
        let fallback = route.duration > 0 && route.distance > 0 ? route.distance / route.duration : 13.9
        var position = 0.0
        var time = 0.0
        for (legIndex, leg) in route.legs.enumerated() {
            legStepOffset.append(steps.count)
            for (stepIndex, step) in leg.steps.enumerated() {
                let length = step.distance.isFinite ? max(0, step.distance) : 0
                let stepSpeed: Double
                switch speed {
                case .constant(let value): stepSpeed = max(value, Self.minimumSpeed)
                case .route: stepSpeed = max(step.routedSpeed ?? fallback, Self.minimumSpeed)
                }
                steps.append(
                    StepSpan(
                        leg: legIndex, step: stepIndex, start: position, length: length, startTime: time,
                        speed: stepSpeed))
                position += length
                time += length / stepSpeed
            }
        }
        length = position
        totalTime = time
    }

    /// Index of the step holding `position` (a step of positive length), searching from `near`.
    func step(containing position: Double, near: Int) -> Int {
        var index = min(max(near, 0), steps.count - 1)
        while index > 0 && (position < steps[index].start || steps[index].length == 0) {
            index -= 1
            if steps[index].length > 0 && position >= steps[index].start { break }
        }
        while index + 1 < steps.count
            && (position >= steps[index].start + steps[index].length || steps[index].length == 0)
        {
            index += 1
        }
        return index
    }

    private func span(atTime time: Double) -> StepSpan? {
        guard !steps.isEmpty else { return nil }
        var low = 0
        var high = steps.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if steps[middle].startTime <= time { low = middle } else { high = middle - 1 }
        }
        return steps[low]
    }

    /// Meters from the origin at `time` seconds.
    public func position(at time: Double) -> Double {
        guard let span = span(atTime: time) else { return 0 }
        return min(span.start + (time - span.startTime) * span.speed, length)
    }

    /// Speed in m/s at `time`.
    public func speed(at time: Double) -> Double {
        var index = steps.count - 1
        var low = 0
        var high = steps.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if steps[middle].startTime <= time { low = middle } else { high = middle - 1 }
        }
        index = low
        while index < steps.count - 1 && steps[index].length == 0 { index += 1 }
        return steps.isEmpty ? 0 : steps[index].speed
    }

    /// Seconds from the origin until the vehicle is at `position`.
    public func time(at position: Double) -> Double {
        for span in steps where span.length > 0 && position < span.start + span.length {
            return span.startTime + max(0, position - span.start) / span.speed
        }
        return totalTime
    }

    /// Meters from the origin to the maneuver at the start of a step.
    public func maneuverPosition(leg: Int, step: Int) -> Double {
        guard leg >= 0, leg < legStepOffset.count else { return length }
        let index = legStepOffset[leg] + step
        return index < steps.count ? steps[index].start : length
    }
}

/// A small seeded generator (SplitMix64) so that noisy drives are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A standard normal sample (Box–Muller).
    mutating func nextGaussian() -> Double {
        let u1 = max(Double(next() >> 11) / Double(1 << 53), 1e-12)
        let u2 = Double(next() >> 11) / Double(1 << 53)
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}
