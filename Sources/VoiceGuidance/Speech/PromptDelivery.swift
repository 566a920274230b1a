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

extension PromptDelivery {
    /// The chime's samples at `sampleRate`, as loud as the voice at this speed gain (empty when
    /// there is none).
    public func chimeSamples(sampleRate: Int) -> [Int16] {
        chime.map { Chime.samples($0, sampleRate: sampleRate, loudness: Chime.voiceLoudness + speedGainDB) }
            ?? []
    }

    /// `audio` (rendered with the speed gain) with the chime before it; words and marks moved by
    /// its length.
    public func withChime(_ audio: RenderedAudio) -> RenderedAudio {
        let chime = chimeSamples(sampleRate: audio.sampleRate)
        guard !chime.isEmpty else { return audio }
        var delivered = audio
        delivered.samples = chime + audio.samples
        delivered.words = audio.words.map { WordBoundary(sample: $0.sample + chime.count, text: $0.text) }
        delivered.marks = audio.marks.map { MarkBoundary(name: $0.name, sample: $0.sample + chime.count) }
        return delivered
    }
}
