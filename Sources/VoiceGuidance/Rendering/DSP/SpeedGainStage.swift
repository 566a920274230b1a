/// The speed gain applied to a prompt's stream of samples: the voice's `speedGainDB` made by its
/// `roadLoudness` compressor (compression, make-up, a limiter under the ceiling).
///
/// The compressor starts from the state the prompt's first `primingWindow` of sound warrants (as
/// the `drc` effect does), so the first syllable is not louder than the rest: those samples are
/// held until that much has come, or until `flush`. The output has exactly as many samples as
/// the input.
public struct SpeedGainStage: Sendable {
    /// The compressor in use.
    public let compressor: DynamicRangeCompressor
    private let sampleRate: Int
    private var state = DynamicRangeCompressor.State()
    private var priming: [Int16]? = []

    /// The stage for `voice` at `sampleRate`, or nil when it has no speed gain.
    public init?(voice: VoiceProfile, sampleRate: Int) {
        guard sampleRate > 0, let compressor = voice.roadLoudness.compressor(forGainDB: voice.speedGainDB)
        else { return nil }
        self.compressor = compressor
        self.sampleRate = sampleRate
    }

    /// Processes `chunk`; returns what is ready (nothing while the start is being held).
    public mutating func process(_ chunk: [Int16]) -> [Int16] {
        guard !chunk.isEmpty else { return [] }
        if var held = priming {
            held += chunk
            guard held.count >= compressor.primingSampleCount(sampleRate: sampleRate) else {
                priming = held
                return []
            }
            priming = nil
            return primed(held)
        }
        var samples = chunk
        compressor.process(&samples, sampleRate: sampleRate, state: &state)
        return samples
    }

    /// Hands out what is still held (a prompt shorter than the priming window).
    public mutating func flush() -> [Int16] {
        guard let held = priming else { return [] }
        priming = nil
        return primed(held)
    }

    private mutating func primed(_ held: [Int16]) -> [Int16] {
        guard !held.isEmpty else { return [] }
        state = held.withUnsafeBufferPointer { compressor.primedState(from: $0, sampleRate: sampleRate) }
        var samples = held
        compressor.process(&samples, sampleRate: sampleRate, state: &state)
        return samples
    }

    /// `samples` with `voice`'s speed gain, in one call (unchanged when it has none).
    public static func applying(to samples: [Int16], voice: VoiceProfile, sampleRate: Int) -> [Int16] {
        guard var stage = SpeedGainStage(voice: voice, sampleRate: sampleRate) else { return samples }
        return stage.process(samples) + stage.flush()
    }
}
