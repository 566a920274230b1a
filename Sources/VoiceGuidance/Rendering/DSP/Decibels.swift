import Foundation

/// Conversions between decibels and linear amplitude factors.
public enum Decibels {
    /// The linear amplitude factor for a gain in decibels (`+6 dB` ≈ 1.995); `-infinity` is 0.
    public static func amplitude(fromDB decibels: Double) -> Double {
        decibels == -.infinity ? 0 : pow10(decibels / 20)
    }

    /// The gain in decibels of a linear amplitude factor; 0 is `-infinity`.
    public static func decibels(fromAmplitude amplitude: Double) -> Double {
        amplitude <= 0 ? -.infinity : 20 * log10(amplitude)
    }

    private static func pow10(_ exponent: Double) -> Double {
        exp(exponent * log(10))
    }
}
