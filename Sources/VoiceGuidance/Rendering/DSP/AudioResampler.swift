import Foundation

/// Changes the sample rate of mono 16-bit audio (an `<audio>` clip to the voice's rate).
///
/// Band-limited interpolation: each output sample is a windowed-sinc (Hann, 16 taps a side)
/// sum of the input around its position, with the cut-off at the lower of the two Nyquist
/// frequencies, so a 44.1 kHz chime played at 22.05 kHz does not alias.
public enum AudioResampler {
    /// Taps on each side of an output sample's position.
    static let halfWidth = 16

    /// `samples` at `from` Hz, resampled to `to` Hz; unchanged when the rates match or either
    /// is not positive.
    ///
    /// - Complexity: O(n · 32).
    public static func resample(_ samples: [Int16], from: Int, to: Int) -> [Int16] {
        guard from > 0, to > 0, from != to, !samples.isEmpty else { return samples }
        let ratio = Double(from) / Double(to)
        let count = Int((Double(samples.count) / ratio).rounded(.down))
        let cutoff = min(1, 1 / ratio)
        var output = [Int16](repeating: 0, count: count)
        for index in 0..<count {
            let position = Double(index) * ratio
            let center = Int(position.rounded(.down))
            var sum = 0.0
            var weights = 0.0
            for tap in (center - halfWidth + 1)...(center + halfWidth) where tap >= 0 && tap < samples.count {
                let distance = position - Double(tap)
                let weight = kernel(distance, cutoff: cutoff)
                sum += weight * Double(samples[tap])
                weights += weight
            }
            let value = weights > 0 ? sum / weights : 0
            output[index] = Int16(max(-32_768, min(32_767, value.rounded())))
        }
        return output
    }

    /// The windowed-sinc weight of an input sample `distance` input samples away.
    private static func kernel(_ distance: Double, cutoff: Double) -> Double {
        let span = Double(halfWidth)
        guard abs(distance) < span else { return 0 }
        let window = 0.5 + 0.5 * cos(Double.pi * distance / span)
        let x = Double.pi * distance * cutoff
        let sinc = abs(x) < 1e-9 ? 1 : sin(x) / x
        return window * sinc * cutoff
    }
}
