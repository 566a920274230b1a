/// Short linear fades that avoid clicks when audio starts or stops abruptly.
public enum Fade {
    /// Ramps the first `length` samples up from silence.
    ///
    /// - Complexity: O(length).
    public static func applyFadeIn(to samples: inout [Int16], length: Int) {
        let count = min(length, samples.count)
        guard count > 0 else { return }
        for index in 0..<count {
            let factor = Double(index) / Double(count)
            samples[index] = Int16((Double(samples[index]) * factor).rounded())
        }
    }

    /// Ramps the last `length` samples down to silence.
    ///
    /// - Complexity: O(length).
    public static func applyFadeOut(to samples: inout [Int16], length: Int) {
        let count = min(length, samples.count)
        guard count > 0 else { return }
        let start = samples.count - count
        for offset in 0..<count {
            let factor = Double(count - 1 - offset) / Double(count)
            samples[start + offset] = Int16((Double(samples[start + offset]) * factor).rounded())
        }
    }

    /// The fade length in samples for `seconds` at `sampleRate` (10 ms is a click-free default).
    public static func length(seconds: Double = 0.01, sampleRate: Int) -> Int {
        max(1, Int(saturating: (seconds * Double(sampleRate)).rounded()))
    }
}
