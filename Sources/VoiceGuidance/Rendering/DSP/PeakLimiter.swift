import Foundation

/// A streaming look-ahead peak limiter: no sample leaves above the ceiling, and the gain
/// changes smoothly (a ramp over the look-ahead window, then an exponential release).
///
/// Input is in sample units (Int16 scale, any size after gain); output is Int16. The limiter
/// delays the signal by `lookahead - 1` samples internally; `flush` hands out the rest, so the
/// output has exactly as many samples as the input.
///
/// How it works: for every sample the gain that would bring it to the ceiling is computed;
/// a sliding minimum over the next `lookahead` samples, held with a smooth release, is then
/// averaged over `lookahead` samples. Every window averaged contains the peak's own sample, so
/// the averaged gain is never above what the peak needs.
public struct PeakLimiter: Sendable {
    /// The largest absolute output value.
    public let ceiling: Float
    /// The look-ahead (and attack ramp) length in samples.
    public let lookahead: Int
    /// Per-sample fraction of the way back to unity gain during release.
    public let releaseCoefficient: Float

    private var delayed: [Float]
    private var history: [Float]
    private var historySum: Double
    private var minimumQueue: [(index: Int, gain: Float)] = []
    private var queueStart = 0
    private var released: Float = 1
    private var pushed = 0
    private var toDrop: Int

    /// Creates a limiter.
    ///
    /// - Parameters:
    ///   - ceilingDB: the output ceiling in dBFS (−0.3 dB by default).
    ///   - lookaheadSeconds: look-ahead and attack time (3 ms by default).
    ///   - releaseSeconds: time constant of the release (60 ms by default).
    ///   - sampleRate: samples per second.
    public init(
        ceilingDB: Double = -0.3, lookaheadSeconds: Double = 0.003, releaseSeconds: Double = 0.06,
        sampleRate: Int
    ) {
        ceiling = Float(32_767 * Decibels.amplitude(fromDB: min(0, ceilingDB)))
        let lookahead = max(1, Int((lookaheadSeconds * Double(sampleRate)).rounded()))
        self.lookahead = lookahead
        releaseCoefficient = Float(1 - exp(-1 / max(1, releaseSeconds * Double(sampleRate))))
        delayed = [Float](repeating: 0, count: lookahead)
        history = [Float](repeating: 1, count: lookahead)
        historySum = Double(lookahead)
        toDrop = lookahead - 1
        // Prime with lookahead − 1 silent samples so the first real ones see a full window.
        var discard: [Int16] = []
        for _ in 0..<(lookahead - 1) { push(0, into: &discard) }
    }

    /// Limits `samples` and appends what is ready to `output`.
    ///
    /// - Complexity: amortized O(1) per sample.
    public mutating func process<C: Collection<Float>>(_ samples: C, into output: inout [Int16]) {
        for sample in samples { push(sample, into: &output) }
    }

    /// Hands out the samples still held back; the limiter can then be used for a new stream.
    public mutating func flush(into output: inout [Int16]) {
        for _ in 0..<(lookahead - 1) { push(0, into: &output) }
        // The silent samples just pushed prime the window for the next stream; drop their output.
        toDrop = lookahead - 1
    }

    private mutating func push(_ sample: Float, into output: inout [Int16]) {
        let index = pushed
        pushed += 1
        let magnitude = abs(sample)
        let needed: Float = magnitude > ceiling ? ceiling / magnitude : 1
        // Sliding minimum over the last `lookahead` requirements (a monotone queue).
        while minimumQueue.count > queueStart, minimumQueue[minimumQueue.count - 1].gain >= needed {
            minimumQueue.removeLast()
        }
        minimumQueue.append((index, needed))
        while minimumQueue[queueStart].index <= index - lookahead { queueStart += 1 }
        if queueStart > 256 {
            minimumQueue.removeFirst(queueStart)
            queueStart = 0
        }
        delayed[index % lookahead] = sample
        let outIndex = index - lookahead + 1
        guard outIndex >= 0 else { return }
        // Minimum needed over [outIndex, outIndex + lookahead), with a smooth release.
        let windowMinimum = minimumQueue[queueStart].gain
        released = min(windowMinimum, released + (1 - released) * releaseCoefficient)
        let slot = outIndex % lookahead
        historySum += Double(released) - Double(history[slot])
        history[slot] = released
        let gain = Float(historySum / Double(lookahead))
        let value = delayed[outIndex % lookahead] * gain
        if toDrop > 0 {
            toDrop -= 1
            return
        }
        output.append(PeakLimiter.clampedSample(value, ceiling: ceiling))
    }

    /// Rounds to Int16 and enforces the ceiling (guards against rounding in the average).
    @inline(__always)
    static func clampedSample(_ value: Float, ceiling: Float) -> Int16 {
        let limited = max(-ceiling, min(ceiling, value))
        return Int16(limited.rounded())
    }
}
