import Foundation

/// Gain arithmetic on 16-bit samples for the playback path (no limiter: it would hold samples
/// back and move the fade positions; cuts are exact and boosts clamp).
public enum PlaybackGain {
    /// Multiplies `samples` by `gain`, clamping to the Int16 range.
    ///
    /// - Complexity: O(n).
    public static func apply(gain: Double, to samples: inout [Int16]) {
        guard gain != 1 else { return }
        for index in samples.indices {
            samples[index] = clamp(Double(samples[index]) * gain)
        }
    }

    static func clamp(_ value: Double) -> Int16 {
        Int16(max(Double(Int16.min), min(Double(Int16.max), value.rounded())))
    }
}
