/// The numbers of the timing model (see `docs/timing.md`), for a car. All times in seconds,
/// distances in meters, speeds in m/s.
public struct AnnouncementTiming: Sendable, Equatable {
    /// Final prompt: its speech ends this long before the maneuver.
    public var finalLead: Double = 4.2
    /// The latest a final prompt may end and still be said (short wording).
    public var finalMinimumLead: Double = 1.0
    /// The long wording of a final is used only if it ends at least this long before the maneuver.
    public var finalLongMinimumLead: Double = 2.5
    /// Arrival prompt: speech ends this long before the destination.
    public var arrivalLead: Double = 3.5
    /// Approach prompt: speech ends about this long before the maneuver…
    public var approachLead: Double = 12
    /// …said at a distance between these two.
    public var approachDistance: ClosedRange<Double> = 150...1_200
    /// Prepare prompt: speech ends about this long before the maneuver…
    public var prepareLead: Double = 45
    /// …said at a distance between these two…
    public var prepareDistance: ClosedRange<Double> = 800...3_000
    /// …and only at least this fast (fast roads).
    public var prepareMinimumSpeed: Double = 70 / 3.6
    /// A continue prompt is given after a maneuver when the next one is at least this far in time.
    public var continueMinimumTime: Double = 40
    /// …and only within this long after the maneuver.
    public var continueWindow: Double = 8
    /// Seconds of silence between two prompts.
    public var minimumGap: Double = 1.5
    /// Output latency: from `speak` to the first sample heard.
    public var outputLatency: Double = 0.15
    /// Seconds of sound played before a prompt of a tier (a chime, `PromptChimes`), counted in
    /// the prompt's length so that its words still end in their window; absent: none.
    public var chimeLengths: [PromptTier: Double] = [:]
    /// Extra lead per meter of GPS accuracy, divided by speed (`eps / v` of the model).
    public var gpsMarginFactor: Double = 0.1
    /// Lowest speed estimate used, m/s (a stopped car is not about to turn).
    public var speedFloor: Double = 1
    /// How fast the speed estimate may fall, m/s²; it rises at once.
    public var speedDecay: Double = 1.5
    /// Two maneuvers are combined ("…, then …") when the second's final prompt would not fit
    /// after the first maneuver with this much time to react.
    public var combineReaction: Double = 1.5
    /// A maneuver said as the "then" of the previous final still gets its own final when it
    /// turns out at least this many seconds after the previous one (the speed fell since).
    public var separateFinalMinimumGap: Double = 8
    /// Largest rounding error of a spoken distance accepted at once; above it, the scheduler
    /// waits up to `roundingWait` seconds for a rounder number.
    public var roundingTolerance: Double = 0.06
    /// See `roundingTolerance`.
    public var roundingWait: Double = 6
    /// A prompt with a distance may also start up to this long before its nominal time when its
    /// distance is a round number then.
    public var roundingEarly: Double = 3
    /// An app prompt not said within this long is dropped.
    public var customMaximumDelay: Double = 15
    /// Weight of a fix against the prediction when the fix's accuracy is known and above 3 m.
    public var fixWeight: Double = 0.3
    /// A fix further than this from the prediction (plus 3 × accuracy) is taken as it is.
    public var jumpThreshold: Double = 25

    /// A fix whose accuracy is this good (meters) or better is taken as it is.
    public var exactFixAccuracy: Double = 3
    /// A fix is taken as it is when it is further from the prediction than `jumpThreshold` plus
    /// this many times its accuracy.
    public var jumpAccuracyFactor: Double = 3
    /// The final prompt is looked at (its texts built and measured) this many seconds before it
    /// is due; a repeat says a distance only with this much room before the final.
    public var finalLookahead: Double = 3
    /// A maneuver less than this many seconds after the previous one gets at most two prompts
    /// (approach and final, or continue and final).
    public var closeManeuverTime: Double = 30
    /// First guess of when the distance is heard in a distance prompt, seconds after its start.
    public var distanceHeardGuess: Double = 0.6
    /// …and in a continue prompt ("Continue for 5 kilometers" says it at the end).
    public var continueDistanceHeardGuess: Double = 2
    /// An approach prompt is expected to take this many seconds more than the final.
    public var approachExtraLength: Double = 1.2
    /// An approach ends at least this long (beyond `minimumGap`) before the final starts.
    public var approachExtraGap: Double = 0.5
    /// A continue prompt is given no later than this many seconds…
    public var continueLatestTime: Double = 20
    /// …or meters after the maneuver, whichever is further…
    public var continueLatestDistance: Double = 200
    /// …and, unless it is waiting for a rounder number, no further than `continueWindow` seconds
    /// or this many meters.
    public var continueWindowDistance: Double = 60
    /// A repeated prompt's distance is the one heard this many seconds after the output latency.
    public var repeatHeardDelay: Double = 0.5
    /// A distance down to this share of a tier's lower bound still counts as in the tier.
    public var distanceBoundSlack: Double = 0.9
    /// After a reroute, a maneuver of the same kind within this many meters is the same one.
    public var sameManeuverRadius: Double = 30
    /// Seconds between fixes assumed for the first fix of a drive (or after a reroute)…
    public var firstFixInterval: Double = 1
    /// …and the longest interval between two fixes the estimate moves over (a longer gap, an
    /// outage, counts as this long).
    public var longestFixInterval: Double = 2
    /// A prompt with a distance is looked at (its text built and measured) this many seconds
    /// before its nominal time, beyond `roundingEarly`.
    public var distancePromptLookahead: Double = 1
    /// Where the distance is heard in a prompt is computed again until it moves less than this
    /// many seconds (prepare and approach prompts)…
    public var distanceHeardTolerance: Double = 0.15
    /// …and this many for a continue prompt.
    public var continueHeardTolerance: Double = 0.3
    /// The server's only instruction of the first step serves as the depart prompt when it is
    /// said at least this share of the step's length before its end (at its start).
    public var serverDepartMinimumShare: Double = 0.9
    /// The angle of a turn whose bearings are unknown, by its modifier, in degrees: a U-turn…
    public var uTurnAngle: Double = 180
    /// …a sharp turn…
    public var sharpTurnAngle: Double = 135
    /// …a turn…
    public var turnAngle: Double = 90
    /// …and a slight turn (anything else goes straight on, 0).
    public var slightTurnAngle: Double = 35

    /// Estimated length of a prompt not rendered yet: this many seconds…
    public var estimatedPromptBase: Double = 0.15
    /// …plus this many per character of its text (eSpeak NG at its default rate).
    public var estimatedSecondsPerCharacter: Double = 0.065

    /// Plan with the braking a driver does before a maneuver (a real car, or `drive --motion
    /// realistic`): the time to a maneuver is then the time to brake from the current speed to
    /// the maneuver's expected speed, not distance / speed. Off for the idealised vehicle of
    /// `drive --motion constant`, which never brakes.
    public var expectsBraking = false
    /// Final prompt's lead when braking is expected (measured on realistic drives: the braking
    /// prediction leaves prompts ending on average later in the 2.5–6 s window than at constant speed).
    public var brakingFinalLead = 3.8
    /// Braking expected before a maneuver, m/s².
    public var brakingDeceleration = 2.0
    /// Speed expected through a maneuver by its angle: up to each angle (degrees), this speed (m/s).
    public var turnSpeeds: [TurnSpeed] = [
        TurnSpeed(angle: 20, speed: 40), TurnSpeed(angle: 45, speed: 14), TurnSpeed(angle: 100, speed: 7),
        TurnSpeed(angle: 150, speed: 5), TurnSpeed(angle: 180, speed: 3.5),
    ]
    /// Speed expected through a roundabout or rotary, m/s.
    public var roundaboutSpeed = 6.0

    /// One entry of `turnSpeeds`.
    public struct TurnSpeed: Sendable, Equatable {
        public var angle: Double
        public var speed: Double
        public init(angle: Double, speed: Double) {
            self.angle = angle
            self.speed = speed
        }
    }

    public init() {}

    /// The speed expected through a turn of `angle` degrees.
    public func turnSpeed(angle: Double) -> Double {
        for entry in turnSpeeds where angle <= entry.angle { return entry.speed }
        return turnSpeeds.last?.speed ?? 3.5
    }

    /// Seconds to drive `distance` meters from `speed`, braking at `brakingDeceleration` to
    /// `turnSpeed` in time (a car already slower keeps its speed).
    public func brakingTime(distance: Double, speed: Double, turnSpeed: Double) -> Double {
        let v = max(speed, speedFloor)
        let target = min(max(turnSpeed, 0), v)
        let brakingDistance = (v * v - target * target) / (2 * brakingDeceleration)
        if distance >= brakingDistance {
            return (distance - brakingDistance) / v + (v - target) / brakingDeceleration
        }
        return 2 * distance / (v + target)
    }

    /// The one estimate of a prompt's length, in seconds, for when its audio is not known.
    public func estimatedDuration(of instruction: SpokenInstruction) -> Double {
        estimatedPromptBase + estimatedSecondsPerCharacter * Double(instruction.text.count)
    }

    /// The sound played before a prompt of `tier`, in seconds (see `chimeLengths`).
    public func chimeLength(before tier: PromptTier) -> Double {
        max(0, chimeLengths[tier] ?? 0)
    }
}
