public import VoiceGuidance

/// One prompt of a simulated drive: what the controller spoke, when, and how long it was heard.
public struct PromptRecord: Sendable, Equatable {
    /// When the prompt starts being heard, seconds since departure.
    public var timeS: Double
    /// Leg of the step whose maneuver is announced (-1 for an app prompt).
    public var leg: Int
    /// Step whose maneuver (at its start) is announced (-1 for an app prompt).
    public var step: Int
    public var tier: PromptTier
    public var text: String
    /// True distance to the maneuver at `timeS`, meters.
    public var distanceM: Double
    /// True speed at `timeS`, m/s.
    public var speedMps: Double
    /// Length of the speech (cut short if it was interrupted), seconds.
    public var durationS: Double
    /// Seconds from the end of the speech to the maneuver (negative: late).
    public var endsBeforeManeuverS: Double
    /// The distance the prompt says, meters, or nil.
    public var spokenDistanceM: Double?
    /// True distance to the maneuver when the spoken distance is heard.
    public var heardDistanceM: Double?
    /// The SSML spoken, if the prompt has some (server prompts).
    public var ssml: String?
    /// The speed gain it was spoken with, dB (`VoiceController`'s, from the speed when it started).
    public var gainDB = 0.0
    /// The chime played before it, if any (counted in `durationS`).
    public var chime: Chime.Kind?

    public init(
        timeS: Double, leg: Int, step: Int, tier: PromptTier, text: String, distanceM: Double,
        speedMps: Double,
        durationS: Double, endsBeforeManeuverS: Double, spokenDistanceM: Double?,
        heardDistanceM: Double? = nil, ssml: String? = nil
    ) {
        self.timeS = timeS
        self.leg = leg
        self.step = step
        self.tier = tier
        self.text = text
        self.distanceM = distanceM
        self.speedMps = speedMps
        self.durationS = durationS
        self.endsBeforeManeuverS = endsBeforeManeuverS
        self.spokenDistanceM = spokenDistanceM
        self.heardDistanceM = heardDistanceM
        self.ssml = ssml
    }
}

/// The result of a simulated drive.
public struct DriveTimeline: Sendable {
    /// Every prompt, in time order.
    public var prompts: [PromptRecord]
    /// The checks, computed from the prompts and the route alone.
    public var summary: DriveSummary
    /// What the scheduler gave up on.
    public var drops: [DroppedPrompt]
    /// How many progress updates were made.
    public var updates: Int
}
