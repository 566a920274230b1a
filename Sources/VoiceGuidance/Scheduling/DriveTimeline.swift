/// One prompt of a simulated drive, as `voiceguide drive --json` prints it.
public struct PromptRecord: Sendable, Equatable, Codable {
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
    /// True distance to the maneuver when the spoken distance is heard (not printed).
    public var heardDistanceM: Double?
    /// The SSML spoken, if the prompt has some (server prompts; not printed).
    public var ssml: String?

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

    enum CodingKeys: String, CodingKey {
        case event, leg, step, tier, text
        case timeS = "time_s"
        case distanceM = "distance_m"
        case speedMps = "speed_mps"
        case durationS = "duration_s"
        case endsBeforeManeuverS = "ends_before_maneuver_s"
        case spokenDistanceM = "spoken_distance_m"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        timeS = try container.decode(Double.self, forKey: .timeS)
        leg = try container.decode(Int.self, forKey: .leg)
        step = try container.decode(Int.self, forKey: .step)
        tier = try container.decode(PromptTier.self, forKey: .tier)
        text = try container.decode(String.self, forKey: .text)
        distanceM = try container.decode(Double.self, forKey: .distanceM)
        speedMps = try container.decode(Double.self, forKey: .speedMps)
        durationS = try container.decode(Double.self, forKey: .durationS)
        endsBeforeManeuverS = try container.decode(Double.self, forKey: .endsBeforeManeuverS)
        spokenDistanceM = try container.decodeIfPresent(Double.self, forKey: .spokenDistanceM)
        heardDistanceM = nil
        ssml = nil
    }

    /// Encodes with `"event": "prompt"` first in meaning, and `spoken_distance_m` as null when none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("prompt", forKey: .event)
        try container.encode(timeS, forKey: .timeS)
        try container.encode(leg, forKey: .leg)
        try container.encode(step, forKey: .step)
        try container.encode(tier, forKey: .tier)
        try container.encode(text, forKey: .text)
        try container.encode(distanceM, forKey: .distanceM)
        try container.encode(speedMps, forKey: .speedMps)
        try container.encode(durationS, forKey: .durationS)
        try container.encode(endsBeforeManeuverS, forKey: .endsBeforeManeuverS)
        if let spokenDistanceM {
            try container.encode(spokenDistanceM, forKey: .spokenDistanceM)
        } else {
            try container.encodeNil(forKey: .spokenDistanceM)
        }
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

/// The checks of `docs/timing.md` over a drive, computed from the prompts and the route geometry
/// (not from the scheduler's own bookkeeping).
public struct DriveSummary: Sendable, Equatable, Codable {
    /// Maneuvers to announce (every step but each leg's depart).
    public var maneuvers: Int
    /// Maneuvers reached at least 8 s after the previous one (or the leg's start).
    public var feasible: Int
    /// Feasible maneuvers whose last prompt ends 2.5–6 s before them.
    public var finalInWindow: Int
    /// Prompts that end after their maneuver.
    public var late: Int
    /// Prompts that start before the previous one ended.
    public var overlaps: Int
    /// Prompts out of their window: said after the maneuver started, or a lower tier said after a
    /// higher one for the same maneuver, or an early tier ending inside the final window (< 2.5 s).
    public var stale: Int
    /// Prompts said twice for one maneuver (same tier or same text).
    public var repeats: Int
    /// The most prompts any maneuver got.
    public var maxPromptsPerManeuver: Int
    /// The most prompts any maneuver less than 30 s after the previous one got (not printed).
    public var maxPromptsPerCloseManeuver: Int = 0

    enum CodingKeys: String, CodingKey {
        case event, maneuvers, feasible, late, overlaps, stale, repeats
        case finalInWindow = "final_in_window"
        case maxPromptsPerManeuver = "max_prompts_per_maneuver"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maneuvers = try container.decode(Int.self, forKey: .maneuvers)
        feasible = try container.decode(Int.self, forKey: .feasible)
        finalInWindow = try container.decode(Int.self, forKey: .finalInWindow)
        late = try container.decode(Int.self, forKey: .late)
        overlaps = try container.decode(Int.self, forKey: .overlaps)
        stale = try container.decode(Int.self, forKey: .stale)
        repeats = try container.decode(Int.self, forKey: .repeats)
        maxPromptsPerManeuver = try container.decode(Int.self, forKey: .maxPromptsPerManeuver)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("summary", forKey: .event)
        try container.encode(maneuvers, forKey: .maneuvers)
        try container.encode(feasible, forKey: .feasible)
        try container.encode(finalInWindow, forKey: .finalInWindow)
        try container.encode(late, forKey: .late)
        try container.encode(overlaps, forKey: .overlaps)
        try container.encode(stale, forKey: .stale)
        try container.encode(repeats, forKey: .repeats)
        try container.encode(maxPromptsPerManeuver, forKey: .maxPromptsPerManeuver)
    }

    /// Computes the checks for prompts of a drive over `route` at `speed`.
    public init(route: Route, speed: DriveSimulator.SpeedProfile, prompts: [PromptRecord]) {
        let motion = DriveMotion(route: route, speed: speed)
        struct Key: Hashable {
            var leg: Int
            var step: Int
        }
        // Every prompt's end relative to its maneuver, recomputed from the route (not trusted).
        let prompts = prompts.map { prompt -> PromptRecord in
            var checked = prompt
            if prompt.tier != .custom {
                let maneuverTime = motion.time(
                    at: motion.maneuverPosition(leg: prompt.leg, step: prompt.step))
                checked.endsBeforeManeuverS = maneuverTime - prompt.timeS - prompt.durationS
            }
            return checked
        }
        var byManeuver: [Key: [PromptRecord]] = [:]
        for prompt in prompts where prompt.tier != .custom {
            byManeuver[Key(leg: prompt.leg, step: prompt.step), default: []].append(prompt)
        }
        var maneuvers = 0
        var feasible = 0
        var inWindow = 0
        var maxPrompts = 0
        var maxClose = 0
        for (legIndex, leg) in route.legs.enumerated() {
            var previousTime = motion.time(at: motion.maneuverPosition(leg: legIndex, step: 0))
            if legIndex == 0 { previousTime = 0 }
            for stepIndex in leg.steps.indices where stepIndex > 0 {
                maneuvers += 1
                let time = motion.time(at: motion.maneuverPosition(leg: legIndex, step: stepIndex))
                let list = byManeuver[Key(leg: legIndex, step: stepIndex)] ?? []
                maxPrompts = max(maxPrompts, list.count)
                if time - previousTime < 30 { maxClose = max(maxClose, list.count) }
                if time - previousTime >= 8 {
                    feasible += 1
                    if let last = list.max(by: { $0.timeS < $1.timeS }),
                        last.endsBeforeManeuverS >= 2.5, last.endsBeforeManeuverS <= 6
                    {
                        inWindow += 1
                    }
                }
                previousTime = time
            }
        }
        let ordered = prompts.sorted { $0.timeS < $1.timeS }
        var overlaps = 0
        for (earlier, later) in zip(ordered, ordered.dropFirst())
        where later.timeS < earlier.timeS + earlier.durationS - 1e-9 {
            overlaps += 1
        }
        func rank(_ tier: PromptTier) -> Int {
            switch tier {
            case .continue, .prepare: 0
            case .approach: 1
            case .final, .arrival: 2
            case .custom: -1
            }
        }
        var stale = 0
        var repeats = 0
        for list in byManeuver.values {
            let sorted = list.sorted { $0.timeS < $1.timeS }
            var highest = -1
            var tiers: Set<PromptTier> = []
            var texts: Set<String> = []
            for prompt in sorted {
                let maneuverTime = prompt.timeS + prompt.durationS + prompt.endsBeforeManeuverS
                if prompt.timeS >= maneuverTime || rank(prompt.tier) < highest
                    || (rank(prompt.tier) < 2 && prompt.endsBeforeManeuverS < 2.5)
                {
                    stale += 1
                }
                highest = max(highest, rank(prompt.tier))
                if !tiers.insert(prompt.tier).inserted || !texts.insert(prompt.text).inserted { repeats += 1 }
            }
        }
        self.maneuvers = maneuvers
        self.feasible = feasible
        self.finalInWindow = inWindow
        self.late = prompts.filter { $0.tier != .custom && $0.endsBeforeManeuverS < 0 }.count
        self.overlaps = overlaps
        self.stale = stale
        self.repeats = repeats
        self.maxPromptsPerManeuver = maxPrompts
        self.maxPromptsPerCloseManeuver = maxClose
    }
}
