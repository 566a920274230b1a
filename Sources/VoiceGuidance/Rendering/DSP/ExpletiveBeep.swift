import Foundation

/// The tone that replaces a word read as `<say-as interpret-as="expletive">`: a sine of the
/// same length as the word, with short fades in and out so it starts and stops without a click.
public struct ExpletiveBeep: Sendable, Equatable {
    /// Tone frequency in hertz (broadcast "bleep": 1 kHz).
    public var frequency: Double
    /// Peak amplitude in dBFS.
    public var levelDB: Double
    /// Length of each fade, in seconds (shortened for very short words).
    public var fade: Double

    public init(frequency: Double = 1000, levelDB: Double = -12, fade: Double = 0.005) {
        self.frequency = frequency
        self.levelDB = levelDB
        self.fade = max(0, fade)
    }

    /// The standard beep: 1 kHz, −12 dBFS, 5 ms fades.
    public static let standard = ExpletiveBeep()

    /// A beep of `count` samples at `sampleRate` Hz.
    public func tone(count: Int, sampleRate: Int) -> [Int16] {
        guard count > 0, sampleRate > 0 else { return [] }
        let amplitude = pow(10, levelDB / 20) * 32767
        let fadeSamples = min(Int(fade * Double(sampleRate)), count / 2)
        let step = 2 * Double.pi * frequency / Double(sampleRate)
        return (0..<count).map { index in
            var envelope = 1.0
            if fadeSamples > 0 {
                if index < fadeSamples {
                    envelope = Double(index) / Double(fadeSamples)
                } else if index >= count - fadeSamples {
                    envelope = Double(count - 1 - index) / Double(fadeSamples)
                }
            }
            return Int16((amplitude * envelope * sin(step * Double(index))).rounded())
        }
    }

    /// Replaces `range` of `samples` (clamped to the buffer) with a beep of the same length.
    public func apply(to samples: inout [Int16], range: Range<Int>, sampleRate: Int) {
        let clamped = range.clamped(to: samples.startIndex..<samples.endIndex)
        guard !clamped.isEmpty else { return }
        samples.replaceSubrange(clamped, with: tone(count: clamped.count, sampleRate: sampleRate))
    }
}
