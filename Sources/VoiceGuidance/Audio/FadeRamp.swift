/// A fade-out in progress across chunk boundaries: the gain falls linearly from 1 to 0 over a
/// fixed number of frames, however the audio is cut into pieces.
public struct FadeRamp: Sendable, Equatable {
    /// Frames the whole fade lasts.
    public let length: Int
    /// Frames already faded.
    public private(set) var position: Int = 0

    public init(length: Int) {
        self.length = max(1, length)
    }

    /// True once the gain has reached zero.
    public var isComplete: Bool { position >= length }

    /// Applies the next part of the ramp to `samples` and returns the prefix that is still
    /// audible (everything after the ramp's end is dropped). The returned piece ends at 0.
    public mutating func apply(to samples: [Int16]) -> [Int16] {
        let count = min(samples.count, length - position)
        guard count > 0 else { return [] }
        var out = [Int16](repeating: 0, count: count)
        for index in 0..<count {
            let factor = Double(length - 1 - (position + index)) / Double(length)
            out[index] = PlaybackGain.clamp(Double(samples[index]) * factor)
        }
        position += count
        return out
    }
}
