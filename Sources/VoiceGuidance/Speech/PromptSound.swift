/// How `VoiceController` delivers prompts on top of their words: louder with the car's speed
/// (along a `SpeedLoudness` curve) and with a chime by tier and after a reroute (`PromptChimes`).
public struct PromptSound: Sendable, Equatable {
    /// The speed curve; nil: no speed gain.
    public var speedLoudness: SpeedLoudness?
    /// Which prompts get a chime.
    public var chimes: PromptChimes

    public init(speedLoudness: SpeedLoudness? = nil, chimes: PromptChimes = .none) {
        self.speedLoudness = speedLoudness
        self.chimes = chimes
    }

    /// No speed gain, no chime: every prompt as the voice says it.
    public static let plain = PromptSound()

    /// What the voice profile asks for: its speed curve and its chimes (`chimes` instead, when
    /// given, as the CLI's `--chime` does).
    public init(voice: VoiceProfile, chimes: PromptChimes? = nil) {
        self.init(speedLoudness: voice.roadLoudness, chimes: chimes ?? voice.chime ?? .none)
    }

    /// The delivery of a prompt of `tier` said at `metersPerSecond` (nil: unknown, no gain), the
    /// first after a reroute when `afterReroute`.
    public func delivery(tier: PromptTier, metersPerSecond: Double?, afterReroute: Bool) -> PromptDelivery {
        let gain = metersPerSecond.map { speedLoudness?.gainDB(atSpeed: $0) ?? 0 } ?? 0
        return PromptDelivery(speedGainDB: gain, chime: chimes.sound(for: tier, afterReroute: afterReroute))
    }

    /// `timing` with the length of the chime before each tier that has one (the timing counts
    /// it in the prompt's length).
    public func timing(_ timing: AnnouncementTiming) -> AnnouncementTiming {
        var timing = timing
        for tier in chimes.tiers { timing.chimeLengths[tier] = Chime.duration(.prompt) }
        return timing
    }
}
