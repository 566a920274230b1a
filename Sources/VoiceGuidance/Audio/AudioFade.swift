import Foundation

/// Gain and fade arithmetic on 16-bit samples, shared by the writers and sinks.
public enum AudioFade {
    /// The linear factor of a gain in decibels (`-infinity` gives 0).
    public static func linearGain(decibels: Double) -> Double {
        decibels == -.infinity ? 0 : pow(10, decibels / 20)
    }

    /// Multiplies `samples` by `gain`, clamping to the Int16 range.
    ///
    /// - Complexity: O(n).
    public static func apply(gain: Double, to samples: inout [Int16]) {
        guard gain != 1 else { return }
        for index in samples.indices {
            samples[index] = clamp(Double(samples[index]) * gain)
        }
    }

    /// Ramps `samples` linearly from full level to zero over their whole length, so the last
    /// sample is 0 (a fade-out that leaves no click).
    ///
    /// - Complexity: O(n).
    public static func fadeOut(_ samples: inout [Int16]) {
        let count = samples.count
        guard count > 0 else { return }
        for index in 0..<count {
            let factor = Double(count - 1 - index) / Double(count)
            samples[index] = clamp(Double(samples[index]) * factor)
        }
    }

    static func clamp(_ value: Double) -> Int16 {
        Int16(max(Double(Int16.min), min(Double(Int16.max), value.rounded())))
    }
}

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
            out[index] = AudioFade.clamp(Double(samples[index]) * factor)
        }
        position += count
        return out
    }
}
