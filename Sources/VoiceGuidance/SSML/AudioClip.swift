/// A recorded sound an utterance plays (`<audio src="chime.wav">`): mono 16-bit samples at the
/// file's own rate; the renderer resamples them to the voice's rate.
public struct AudioClip: Sendable, Equatable {
    /// The `src` as written in the SSML.
    public var source: String
    /// Mono samples (a stereo file is mixed down).
    public var samples: [Int16]
    /// The file's sample rate in Hz.
    public var sampleRate: Int

    public init(source: String, samples: [Int16], sampleRate: Int) {
        self.source = source
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// Length in seconds.
    public var duration: Double { sampleRate > 0 ? Double(samples.count) / Double(sampleRate) : 0 }

    /// The samples at `rate` Hz (see ``AudioResampler``).
    public func samples(atRate rate: Int) -> [Int16] {
        AudioResampler.resample(samples, from: sampleRate, to: rate)
    }
}
