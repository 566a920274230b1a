public import VoiceGuidance

/// The checks of `docs/timing.md` over a drive, computed from the prompts and the route geometry
/// (not from the scheduler's own bookkeeping).
public struct DriveSummary: Sendable, Equatable {
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
