/// Which prompts a chime comes before: the tiers that get `Chime.Kind.prompt`, and whether the
/// first prompt after a reroute gets `Chime.Kind.reroute` instead.
///
/// In a voice profile: `"chime": {"tiers": ["final"], "reroute": true}` (absent: no chime).
public struct PromptChimes: Sendable, Equatable, Codable {
    /// Tiers whose prompts start with the prompt chime.
    public var tiers: Set<PromptTier>
    /// True when the first prompt after a reroute starts with the reroute sound.
    public var reroute: Bool

    public init(tiers: Set<PromptTier> = [], reroute: Bool = false) {
        self.tiers = tiers
        self.reroute = reroute
    }

    /// No chime at all.
    public static let none = PromptChimes()

    /// A chime before final prompts (and arrivals) only, and the reroute sound.
    public static let finals = PromptChimes(tiers: [.final, .arrival], reroute: true)

    /// A chime before every prompt, and the reroute sound.
    public static let all = PromptChimes(tiers: Set(PromptTier.allCases), reroute: true)

    /// The sound before a prompt of `tier`, the first after a reroute when `afterReroute`.
    public func sound(for tier: PromptTier, afterReroute: Bool) -> Chime.Kind? {
        if afterReroute && reroute { return .reroute }
        return tiers.contains(tier) ? .prompt : nil
    }

    /// `final` (finals and arrivals), `all` or `none`, as the CLI and the service take them.
    public init?(choice: String, reroute: Bool) {
        switch choice {
        case "final": self.init(tiers: Self.finals.tiers, reroute: reroute)
        case "all": self.init(tiers: Self.all.tiers, reroute: reroute)
        case "none": self.init(tiers: [], reroute: reroute)
        default: return nil
        }
    }
}
