import Foundation
public import VoiceGuidance

/// Measurements tests make on rendered audio: silence lengths, pitch, and similarity.
public enum AudioAnalysis {
    /// Seconds of silence at the start.
    public static func leadingSilence(
        _ samples: [Int16], sampleRate: Int, threshold: Int16 = Silence.defaultThreshold
    ) -> Double {
        Double(Silence.leadingCount(in: samples, threshold: threshold)) / Double(sampleRate)
    }

    /// Seconds of silence at the end.
    public static func trailingSilence(
        _ samples: [Int16], sampleRate: Int, threshold: Int16 = Silence.defaultThreshold
    ) -> Double {
        Double(Silence.trailingCount(in: samples, threshold: threshold)) / Double(sampleRate)
    }

    /// The longest run of silent samples: where it starts and how many samples it has.
    public static func longestSilentRun(
        _ samples: [Int16], threshold: Int16 = Silence.defaultThreshold
    ) -> (start: Int, count: Int) {
        var best = (start: 0, count: 0)
        var runStart = 0
        var runLength = 0
        for (index, sample) in samples.enumerated() {
            if Silence.isSilent(sample, threshold: threshold) {
                if runLength == 0 { runStart = index }
                runLength += 1
                if runLength > best.count { best = (runStart, runLength) }
            } else {
                runLength = 0
            }
        }
        return best
    }

    /// The median fundamental frequency in hertz over voiced frames, by normalized
    /// autocorrelation, or nil when no frame is voiced.
    ///
    /// Frames are 40 ms with a 20 ms hop; a frame is voiced when it is louder than −40 dBFS and
    /// its best normalized autocorrelation within `range` is at least 0.6.
    public static func fundamentalFrequency(
        _ samples: [Int16], sampleRate: Int, range: ClosedRange<Double> = 60...400
    ) -> Double? {
        let signal = samples.map(Double.init)
        let frame = Int(0.04 * Double(sampleRate))
        let hop = Int(0.02 * Double(sampleRate))
        let minLag = max(2, Int(Double(sampleRate) / range.upperBound))
        let maxLag = min(frame - 1, Int(Double(sampleRate) / range.lowerBound))
        var estimates: [Double] = []
        var start = 0
        while start + frame + maxLag < signal.count {
            defer { start += hop }
            var energy = 0.0
            for index in start..<(start + frame) { energy += signal[index] * signal[index] }
            let rms = (energy / Double(frame)).squareRoot() / AudioLevel.fullScale
            guard rms > 0.01 else { continue }
            var bestLag = 0
            var bestValue = 0.0
            var values = [Double](repeating: 0, count: maxLag + 2)
            for lag in minLag...(maxLag + 1) {
                var cross = 0.0
                var shifted = 0.0
                for index in start..<(start + frame) {
                    cross += signal[index] * signal[index + lag]
                    shifted += signal[index + lag] * signal[index + lag]
                }
                let value = cross / max(1e-9, (energy * shifted).squareRoot())
                values[lag] = value
                if lag <= maxLag && value > bestValue {
                    bestValue = value
                    bestLag = lag
                }
            }
            guard bestValue >= 0.6, bestLag > minLag else { continue }
            // Parabolic interpolation around the peak.
            let left = values[bestLag - 1]
            let right = values[bestLag + 1]
            let denominator = left - 2 * bestValue + right
            let shift = denominator == 0 ? 0 : 0.5 * (left - right) / denominator
            estimates.append(Double(sampleRate) / (Double(bestLag) + shift))
        }
        guard !estimates.isEmpty else { return nil }
        estimates.sort()
        return estimates[estimates.count / 2]
    }

    /// The normalized cross-correlation of `a` and `b` at their best alignment within
    /// ±`maxLag` samples (1 means identical shape), and that lag (b shifted right by `lag`).
    ///
    /// - Complexity: O(n log n) through an FFT.
    public static func bestCorrelation(_ a: [Int16], _ b: [Int16], maxLag: Int) -> (
        correlation: Double, lag: Int
    ) {
        guard !a.isEmpty, !b.isEmpty else { return (0, 0) }
        var size = 1
        while size < a.count + b.count { size <<= 1 }
        var aReal = [Double](repeating: 0, count: size)
        var aImag = [Double](repeating: 0, count: size)
        var bReal = [Double](repeating: 0, count: size)
        var bImag = [Double](repeating: 0, count: size)
        var energyA = 0.0
        var energyB = 0.0
        for (index, sample) in a.enumerated() {
            aReal[index] = Double(sample)
            energyA += Double(sample) * Double(sample)
        }
        for (index, sample) in b.enumerated() {
            bReal[index] = Double(sample)
            energyB += Double(sample) * Double(sample)
        }
        guard energyA > 0, energyB > 0 else { return (0, 0) }
        fft(&aReal, &aImag, inverse: false)
        fft(&bReal, &bImag, inverse: false)
        // A · conj(B): its inverse is c[k] = Σ a[i + k] b[i].
        for index in 0..<size {
            let real = aReal[index] * bReal[index] + aImag[index] * bImag[index]
            let imag = aImag[index] * bReal[index] - aReal[index] * bImag[index]
            aReal[index] = real
            aImag[index] = imag
        }
        fft(&aReal, &aImag, inverse: true)
        let norm = (energyA * energyB).squareRoot()
        var best = (correlation: -Double.infinity, lag: 0)
        for lag in -maxLag...maxLag {
            // c[k] with k = -lag: a[i - lag] aligned with b[i], i.e. b shifted right by lag.
            let k = -lag
            let value = aReal[(k % size + size) % size] / Double(size) / norm
            if value > best.correlation { best = (value, lag) }
        }
        return best
    }

    /// How alike two recordings sound, regardless of waveform phase: the Pearson correlation of
    /// their log-magnitude spectrograms (23 ms frames, 5.8 ms hop, 0–5.5 kHz) at the best
    /// alignment within ±`maxLagFrames` frames. Near 1 for the same voice saying the same thing;
    /// clearly lower for another voice or other words.
    ///
    /// eSpeak NG's waveform depends on state left by earlier utterances in the process, so
    /// two renders of the same text correlate poorly sample by sample but have the same spectrogram.
    public static func spectralSimilarity(_ a: [Int16], _ b: [Int16], maxLagFrames: Int = 8) -> Double {
        let first = logSpectrogram(a)
        let second = logSpectrogram(b)
        guard !first.isEmpty, !second.isEmpty else { return 0 }
        var best = -1.0
        for lag in -maxLagFrames...maxLagFrames {
            var x: [Double] = []
            var y: [Double] = []
            for index in 0..<first.count {
                let other = index + lag
                guard other >= 0, other < second.count else { continue }
                x += first[index]
                y += second[other]
            }
            guard x.count > 1 else { continue }
            best = max(best, pearson(x, y))
        }
        return best
    }

    private static func logSpectrogram(_ samples: [Int16]) -> [[Double]] {
        let size = 512
        let hop = 128
        let bins = size / 4  // up to a quarter of the sample rate
        var frames: [[Double]] = []
        var start = 0
        while start + size <= samples.count {
            var real = (0..<size).map { index in
                let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(index) / Double(size))
                return Double(samples[start + index]) * window
            }
            var imag = [Double](repeating: 0, count: size)
            fft(&real, &imag, inverse: false)
            frames.append(
                (0..<bins).map { bin in
                    log10(1 + (real[bin] * real[bin] + imag[bin] * imag[bin]).squareRoot())
                })
            start += hop
        }
        return frames
    }

    private static func pearson(_ x: [Double], _ y: [Double]) -> Double {
        let count = Double(x.count)
        let meanX = x.reduce(0, +) / count
        let meanY = y.reduce(0, +) / count
        var cross = 0.0
        var varianceX = 0.0
        var varianceY = 0.0
        for index in 0..<x.count {
            let dx = x[index] - meanX
            let dy = y[index] - meanY
            cross += dx * dy
            varianceX += dx * dx
            varianceY += dy * dy
        }
        guard varianceX > 0, varianceY > 0 else { return 0 }
        return cross / (varianceX * varianceY).squareRoot()
    }

    /// In-place iterative radix-2 FFT; `real.count` must be a power of two.
    private static func fft(_ real: inout [Double], _ imag: inout [Double], inverse: Bool) {
        let count = real.count
        var j = 0
        for i in 1..<count {
            var bit = count >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                real.swapAt(i, j)
                imag.swapAt(i, j)
            }
        }
        var length = 2
        while length <= count {
            let angle = 2 * Double.pi / Double(length) * (inverse ? 1 : -1)
            let stepReal = cos(angle)
            let stepImag = sin(angle)
            var start = 0
            while start < count {
                var wReal = 1.0
                var wImag = 0.0
                for offset in 0..<(length / 2) {
                    let even = start + offset
                    let odd = even + length / 2
                    let tReal = real[odd] * wReal - imag[odd] * wImag
                    let tImag = real[odd] * wImag + imag[odd] * wReal
                    real[odd] = real[even] - tReal
                    imag[odd] = imag[even] - tImag
                    real[even] += tReal
                    imag[even] += tImag
                    let nextReal = wReal * stepReal - wImag * stepImag
                    wImag = wReal * stepImag + wImag * stepReal
                    wReal = nextReal
                }
                start += length
            }
            length <<= 1
        }
    }

    /// Loudness range: dB between the 10th and 90th percentile of 50 ms RMS windows (windows
    /// below -70 dBFS, silence, are skipped).
    public static func loudnessRange(_ samples: [Int16], sampleRate: Int) -> Double {
        let window = sampleRate / 20
        var levels: [Double] = []
        var start = 0
        while start + window <= samples.count {
            var sum = 0.0
            for sample in samples[start..<(start + window)] {
                let x = Double(sample) / 32768
                sum += x * x
            }
            let level = 10 * log10(sum / Double(window) + 1e-12)
            if level > -70 { levels.append(level) }
            start += window
        }
        levels.sort()
        guard levels.count >= 10 else { return 0 }
        return levels[levels.count * 9 / 10] - levels[levels.count / 10]
    }
}
