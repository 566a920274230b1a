import Foundation
import VoiceGuidance

/// What a sound server's monitor recorded while a music tone played and a prompt was spoken:
/// where the prompt is in the recording, how well it matches the prompt rendered, and the
/// music's level before, during and after it.
///
/// The music is a pure tone above the prompt's band (15 kHz, where a 22,050 Hz prompt has
/// nothing once the server has resampled it), so its level is measured by a Goertzel filter even
/// while the prompt plays. The prompt is found in the recording (low-passed and halved in rate)
/// by correlating loudness envelopes, and compared by spectrogram: eSpeak's waveform changes a
/// little from one render to the next, its spectrogram does not.
public struct DuckingMeasurement: Sendable, CustomStringConvertible {
    /// The music tone's frequency, in hertz.
    public static let musicFrequency = 15_000.0
    /// Length of a level window, in seconds (a whole number of the tone's cycles).
    public static let window = 0.05

    /// Spectral similarity of the recording where the prompt is with the rendered prompt
    /// (`AudioAnalysis.spectralSimilarity`: near 1 for the same words in the same voice).
    public var promptSimilarity: Double
    public var envelopeCorrelation: Double
    /// Where the prompt starts and ends in the recording, in seconds.
    public var promptStart: Double
    public var promptEnd: Double
    /// The music's level (dBFS) over the half second before the prompt.
    public var musicBefore: Double
    /// The music's loudest window while the prompt plays (its first and last 0.1 s left out).
    public var musicDuringMax: Double
    /// The music's level per window from the prompt's end on: (seconds after the end, dBFS).
    public var musicFollowing: [(seconds: Double, level: Double)]

    /// Measures `recording` (mono, `sampleRate`, twice the prompt's rate) against `prompt`.
    public init(recording: [Int16], sampleRate: Int, prompt: [Int16]) {
        let halved = Self.halfRate(recording)
        let hop = 110
        let (envelopeCorrelation, lagHops) = AudioAnalysis.bestCorrelation(
            Self.envelope(prompt, hop: hop), Self.envelope(halved, hop: hop), maxLag: halved.count / hop)
        let lag = lagHops * hop
        let heard = halved.dropFirst(max(0, lag)).prefix(prompt.count)
        promptSimilarity = AudioAnalysis.spectralSimilarity(prompt, Array(heard))
        self.envelopeCorrelation = envelopeCorrelation
        let promptRate = Double(sampleRate) / 2
        promptStart = Double(lag) / promptRate
        promptEnd = promptStart + Double(prompt.count) / promptRate
        let levels = Self.toneLevels(recording, sampleRate: sampleRate, frequency: Self.musicFrequency)
        func windows(_ range: ClosedRange<Double>) -> [Double] {
            levels.enumerated().filter { range.contains(Double($0.offset) * Self.window) }.map(\.element)
        }
        let before = windows((promptStart - 0.7)...(promptStart - 0.2 - Self.window))
        musicBefore = before.isEmpty ? -.infinity : before.sorted()[before.count / 2]
        musicDuringMax = windows((promptStart + 0.1)...(promptEnd - 0.1 - Self.window)).max() ?? -.infinity
        let end = promptEnd
        musicFollowing = levels.enumerated().compactMap { index, level in
            let start = Double(index) * Self.window
            return start >= end ? (start - end, level) : nil
        }
    }

    /// The music's level in the first window starting at least `seconds` after the prompt.
    public func musicLevel(after seconds: Double) -> Double {
        musicFollowing.first { $0.seconds >= seconds }?.level ?? -.infinity
    }

    public var description: String {
        let after = musicFollowing.prefix(30).map { String(format: "%.2fs:%.1f", $0.seconds, $0.level) }
        return String(
            format:
                "prompt %.2f–%.2f s (similarity %.3f, envelope %.3f); music before %.1f dBFS, during max %.1f dBFS; after: ",
            promptStart, promptEnd, promptSimilarity, envelopeCorrelation, musicBefore, musicDuringMax)
            + after.joined(separator: " ")
    }

    /// A tone of `frequency` hertz at `level` dBFS for `seconds`, with 20 ms fades (the "music").
    public static func tone(
        frequency: Double = musicFrequency, seconds: Double, sampleRate: Int, level: Double = -12
    ) -> [Int16] {
        let count = Int(seconds * Double(sampleRate))
        let amplitude = Decibels.amplitude(fromDB: level) * 32_767
        let fade = Double(sampleRate) * 0.02
        return (0..<count).map { index in
            let ramp = min(1, Double(index) / fade, Double(count - 1 - index) / fade)
            let phase = 2 * Double.pi * frequency * Double(index) / Double(sampleRate)
            return Int16((amplitude * ramp * sin(phase)).rounded())
        }
    }

    /// The level (dBFS, of a sine at that amplitude) of `frequency` in each `window` of
    /// `samples`, by the Goertzel algorithm.
    public static func toneLevels(_ samples: [Int16], sampleRate: Int, frequency: Double) -> [Double] {
        let size = Int(window * Double(sampleRate))
        let coefficient = 2 * cos(2 * Double.pi * frequency / Double(sampleRate))
        return stride(from: 0, to: samples.count - size + 1, by: size).map { start in
            var previous = 0.0
            var beforePrevious = 0.0
            for index in start..<(start + size) {
                let value = Double(samples[index]) + coefficient * previous - beforePrevious
                beforePrevious = previous
                previous = value
            }
            let power =
                previous * previous + beforePrevious * beforePrevious - coefficient * previous
                * beforePrevious
            let amplitude = 2 * power.squareRoot() / Double(size) / AudioLevel.fullScale
            return Decibels.decibels(fromAmplitude: amplitude)
        }
    }

    /// The RMS level of every `hop` samples, as sample values.
    static func envelope(_ samples: [Int16], hop: Int) -> [Int16] {
        stride(from: 0, to: samples.count, by: hop).map { start in
            let window = samples[start..<min(samples.count, start + hop)]
            let power = window.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(window.count)
            return Int16(clamping: Int(power.squareRoot().rounded()))
        }
    }

    /// `samples` low-passed at 0.4 of their rate (a 127-tap Blackman-windowed sinc, over 70 dB
    /// down above half the new rate) and decimated by two.
    public static func halfRate(_ samples: [Int16]) -> [Int16] {
        let taps = 127
        let middle = taps / 2
        let cutoff = 0.2  // of the input rate: 0.4 of the output's
        var kernel = (0..<taps).map { index -> Double in
            let x = Double(index - middle)
            let sinc = x == 0 ? 2 * cutoff : sin(2 * Double.pi * cutoff * x) / (Double.pi * x)
            let phase = 2 * Double.pi * Double(index) / Double(taps - 1)
            return sinc * (0.42 - 0.5 * cos(phase) + 0.08 * cos(2 * phase))
        }
        let sum = kernel.reduce(0, +)
        kernel = kernel.map { $0 / sum }
        return stride(from: 0, to: samples.count, by: 2).map { center in
            var value = 0.0
            for tap in 0..<taps {
                let index = center + tap - middle
                guard index >= 0, index < samples.count else { continue }
                value += kernel[tap] * Double(samples[index])
            }
            return Int16(clamping: Int(value.rounded()))
        }
    }
}
