import Foundation

/// Integrated loudness of mono 16-bit audio in LUFS, as ITU-R BS.1770-4 measures it: K-weighted
/// (a high shelf of +4 dB above ~1.7 kHz, then a high-pass at ~38 Hz, both designed for the
/// sample rate by the bilinear transform), mean square over 400 ms blocks overlapping by 75 %,
/// blocks below −70 LUFS dropped, then blocks more than 10 LU below the loudness of the rest.
public enum IntegratedLoudness {
    /// The loudness in LUFS of `samples` at `sampleRate`; `-infinity` when every block is gated
    /// out (silence, or less than 400 ms of audio).
    ///
    /// - Complexity: O(n).
    public static func lufs<C: Collection<Int16>>(_ samples: C, sampleRate: Int) -> Double {
        lufs(blocks: blockPowers(samples, sampleRate: sampleRate))
    }

    /// The gated loudness of blocks' mean squares (K-weighted, full scale 1).
    public static func lufs(blocks: [Double]) -> Double {
        func loudness(_ powers: [Double]) -> Double {
            guard !powers.isEmpty else { return -.infinity }
            return -0.691 + 10 * log10(powers.reduce(0, +) / Double(powers.count))
        }
        let absolute = blocks.filter { -0.691 + 10 * log10($0) > -70 }
        let threshold = loudness(absolute) - 10
        return loudness(absolute.filter { -0.691 + 10 * log10($0) > threshold })
    }

    /// The K-weighted mean square of every 400 ms block (100 ms hop) of `samples`, for gating
    /// several recordings together (`lufs(blocks:)`).
    public static func blockPowers<C: Collection<Int16>>(_ samples: C, sampleRate: Int) -> [Double] {
        guard sampleRate > 0 else { return [] }
        var shelf = Biquad.highShelf(sampleRate: Double(sampleRate))
        var highPass = Biquad.highPass(sampleRate: Double(sampleRate))
        let hop = max(1, sampleRate / 10)
        var hopSums: [Double] = []
        var sum = 0.0
        var count = 0
        for sample in samples {
            let weighted = highPass.process(shelf.process(Double(sample) / AudioLevel.fullScale))
            sum += weighted * weighted
            count += 1
            if count == hop {
                hopSums.append(sum)
                sum = 0
                count = 0
            }
        }
        guard hopSums.count >= 4 else { return [] }
        return (0...(hopSums.count - 4)).map { start in
            hopSums[start..<(start + 4)].reduce(0, +) / Double(4 * hop)
        }
    }

    /// A second-order IIR section (direct form I).
    struct Biquad {
        var b0, b1, b2, a1, a2: Double
        var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

        mutating func process(_ x: Double) -> Double {
            let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
            (x2, x1, y2, y1) = (x1, x, y1, y)
            return y
        }

        /// BS.1770's stage 1: the head's high shelf (+3.99984 dB, 1681.97 Hz, Q 0.70718).
        static func highShelf(sampleRate: Double) -> Biquad {
            let gain = pow(10, 3.999_843_853_97 / 20)
            let k = tan(Double.pi * 1_681.974_450_955_533 / sampleRate)
            let q = 0.707_175_236_955_419_6
            let vb = pow(gain, 0.499_666_774_154_541_6)
            let a0 = 1 + k / q + k * k
            return Biquad(
                b0: (gain + vb * k / q + k * k) / a0, b1: 2 * (k * k - gain) / a0,
                b2: (gain - vb * k / q + k * k) / a0, a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
        }

        /// BS.1770's stage 2: the RLB high-pass (38.14 Hz, Q 0.50033).
        static func highPass(sampleRate: Double) -> Biquad {
            let k = tan(Double.pi * 38.135_470_876_024_44 / sampleRate)
            let q = 0.500_327_037_323_877_3
            let a0 = 1 + k / q + k * k
            // The numerator stays 1, −2, 1 (libebur128's and the standard's 48 kHz coefficients).
            return Biquad(b0: 1, b1: -2, b2: 1, a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
        }
    }
}
