/// Loudness measures of 16-bit samples, relative to full scale.
public enum AudioLevel {
    /// Full scale of a signed 16-bit sample.
    public static let fullScale = 32_768.0

    /// The root-mean-square level in dB relative to full scale (dBFS); `-infinity` for silence.
    ///
    /// - Complexity: O(n).
    public static func rmsDB<C: Collection<Int16>>(_ samples: C) -> Double {
        guard !samples.isEmpty else { return -.infinity }
        var sum = 0.0
        for sample in samples {
            let value = Double(sample)
            sum += value * value
        }
        let rms = (sum / Double(samples.count)).squareRoot()
        return Decibels.decibels(fromAmplitude: rms / fullScale)
    }

    /// The largest absolute sample value (0…32768).
    ///
    /// - Complexity: O(n).
    public static func peak<C: Collection<Int16>>(_ samples: C) -> Int {
        var peak = 0
        for sample in samples {
            peak = max(peak, abs(Int(sample)))
        }
        return peak
    }

    /// The peak level in dBFS; `-infinity` for silence.
    public static func peakDB<C: Collection<Int16>>(_ samples: C) -> Double {
        Decibels.decibels(fromAmplitude: Double(peak(samples)) / fullScale)
    }
}
