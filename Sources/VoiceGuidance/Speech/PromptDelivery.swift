/// How a prompt is delivered on top of its words: the gain for the car's speed and the sound
/// played before it. `VoiceController` sets it on each prompt it speaks (from its
/// `PromptSound`); a synthesizer renders the prompt with `VoiceProfile.withSpeedGain` and plays
/// the chime first.
public struct PromptDelivery: Sendable, Hashable {
    /// Speed-dependent gain in decibels (0: the voice as it is).
    public var speedGainDB: Double
    /// The chime before the prompt, if any.
    public var chime: Chime.Kind?

    public init(speedGainDB: Double = 0, chime: Chime.Kind? = nil) {
        self.speedGainDB = speedGainDB.isFinite ? speedGainDB : 0
        self.chime = chime
    }

    /// Nothing added: the voice's own loudness, no chime.
    public static let plain = PromptDelivery()
}
