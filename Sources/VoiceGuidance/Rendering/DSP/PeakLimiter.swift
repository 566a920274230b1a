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
///
/// The needed gains' sliding minimum is a monotone queue of the peaks only (a sample under the
/// ceiling needs 1, which never lowers it); once every gain in the window is back to 1 (the
/// release snaps its last 0.001 dB), samples pass through as a plain delay line.
public struct PeakLimiter: Sendable {
    /// The largest absolute output value.
    public var ceiling: Float { cursor.ceiling }
    /// The look-ahead (and attack ramp) length in samples.
    public var lookahead: Int { cursor.lookahead }
    /// Per-sample fraction of the way back to unity gain during release.
    public var releaseCoefficient: Float { cursor.releaseCoefficient }

    private var rings: Rings
    private var cursor: Cursor

    /// Creates a limiter.
    ///
    /// - Parameters:
    ///   - ceilingDB: the output ceiling in dBFS (−0.3 dB by default).
    ///   - lookaheadSeconds: look-ahead and attack time (3 ms by default).
    ///   - releaseSeconds: time constant of the release (30 ms by default).
    ///   - sampleRate: samples per second.
    public init(
        ceilingDB: Double = -0.3, lookaheadSeconds: Double = 0.003, releaseSeconds: Double = 0.03,
        sampleRate: Int
    ) {
        let lookahead = max(1, Int((lookaheadSeconds * Double(sampleRate)).rounded()))
        cursor = Cursor(
            ceiling: Float(32_767 * Decibels.amplitude(fromDB: min(0, ceilingDB))), lookahead: lookahead,
            releaseCoefficient: Float(1 - exp(-1 / max(1, releaseSeconds * Double(sampleRate)))))
        rings = Rings(lookahead: lookahead)
        // Prime with lookahead − 1 silent samples so the first real ones see a full window.
        var discard: [Int16] = []
        process(repeatElement(0, count: lookahead - 1), into: &discard)
    }

    /// Limits `samples` and appends what is ready to `output`.
    ///
    /// - Complexity: O(1) amortized per sample.
    public mutating func process<C: Collection<Float>>(_ samples: C, into output: inout [Int16]) {
        // Every sample in makes at most one out: room for all of them, cut to what was written.
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: samples.count))
        // The state is copied out for the loop so that it lives in registers, and the rings
        // are moved out so that writing through their pointers copies nothing.
        var cursor = self.cursor
        var rings = self.rings
        self.rings = Rings(lookahead: 0)
        var written = 0
        output.withUnsafeMutableBufferPointer { buffer in
            let out = buffer.baseAddress! + start
            rings.withPointers { pointers in
                for sample in samples {
                    guard let value = cursor.push(sample, pointers) else { continue }
                    out[written] = value
                    written += 1
                }
            }
        }
        self.cursor = cursor
        self.rings = rings
        output.removeLast(samples.count - written)
    }

    /// Hands out the samples still held back; the limiter can then be used for a new stream.
    public mutating func flush(into output: inout [Int16]) {
        process(repeatElement(0, count: lookahead - 1), into: &output)
        // The silent samples just pushed prime the window for the next stream; drop their output.
        cursor.toDrop = lookahead - 1
    }

    /// Rounds to Int16 and enforces the ceiling (guards against rounding in the average).
    @inline(__always)
    static func clampedSample(_ value: Float, ceiling: Float) -> Int16 {
        let limited = max(-ceiling, min(ceiling, value))
        // `limited.rounded()` without the libm call or a branch: truncate, then add the
        // truncated double of the fraction (±1 exactly when it is ±0.5 or more: round half away
        // from zero). Exact, since |limited| ≤ 32,767 is far below 2^23.
        let whole = Int32(limited)
        let fraction = limited - Float(whole)
        return Int16(truncatingIfNeeded: whole &+ Int32(fraction * 2))
    }
}

extension PeakLimiter {
    /// The limiter's rings of `lookahead` entries, indexed by sample number modulo `lookahead`.
    private struct Rings: Sendable {
        /// The last input samples.
        var delayed: [Float]
        /// The last released gains.
        var history: [Float]
        /// The peak queue: sample numbers and needed gains (increasing from the head).
        var indices: [Int]
        var gains: [Float]

        init(lookahead: Int) {
            delayed = [Float](repeating: 0, count: lookahead)
            history = [Float](repeating: 1, count: lookahead)
            indices = [Int](repeating: 0, count: lookahead)
            gains = [Float](repeating: 1, count: lookahead)
        }

        /// The rings' storage, for the duration of `body`.
        struct Pointers {
            let delayed: UnsafeMutablePointer<Float>
            let history: UnsafeMutablePointer<Float>
            let indices: UnsafeMutablePointer<Int>
            let gains: UnsafeMutablePointer<Float>
        }

        mutating func withPointers(_ body: (Pointers) -> Void) {
            delayed.withUnsafeMutableBufferPointer { delayed in
                history.withUnsafeMutableBufferPointer { history in
                    indices.withUnsafeMutableBufferPointer { indices in
                        gains.withUnsafeMutableBufferPointer { gains in
                            body(
                                Pointers(
                                    delayed: delayed.baseAddress!, history: history.baseAddress!,
                                    indices: indices.baseAddress!, gains: gains.baseAddress!))
                        }
                    }
                }
            }
        }
    }

    /// The limiter's scalar state and constants: where it is in the rings, and its gains.
    private struct Cursor: Sendable {
        let ceiling: Float
        let lookahead: Int
        let releaseCoefficient: Float
        let inverseLookahead: Double
        /// Samples taken so far.
        var pushed = 0
        /// `pushed` modulo `lookahead`: the ring slot the next sample goes to.
        var slot = 0
        var queueHead = 0
        var queueCount = 0
        var released: Float = 1
        /// The sum of the gains in `history`.
        var historySum: Double
        /// How many outputs in a row had a gain of exactly 1 (at `lookahead`, the limiter is at rest).
        var restingOutputs = 0
        /// Outputs still to drop (those of the silent samples that primed the window).
        var toDrop: Int

        /// A released gain this close to 1 is 1 (0.0009 dB).
        static let restingGain: Float = 0.9999

        init(ceiling: Float, lookahead: Int, releaseCoefficient: Float) {
            self.ceiling = ceiling
            self.lookahead = lookahead
            self.releaseCoefficient = releaseCoefficient
            inverseLookahead = 1 / Double(lookahead)
            historySum = Double(lookahead)
            toDrop = lookahead - 1
        }

        /// Takes one sample; returns the sample `lookahead − 1` before it, limited, once there is one.
        @inline(__always)
        mutating func push(_ sample: Float, _ rings: Rings.Pointers) -> Int16? {
            let index = pushed
            pushed &+= 1
            // Queue entries have increasing indices: at most one leaves the window per sample.
            if queueCount > 0, rings.indices[queueHead] <= index &- lookahead {
                queueHead = wrapped(queueHead &+ 1)
                queueCount &-= 1
            }
            // The ring now holds samples index − lookahead + 1 ... index; the oldest goes out.
            rings.delayed[slot] = sample
            slot = slot &+ 1 == lookahead ? 0 : slot &+ 1
            let magnitude = abs(sample)
            if magnitude <= ceiling, queueCount == 0, restingOutputs >= lookahead, toDrop == 0 {
                return PeakLimiter.clampedSample(rings.delayed[slot], ceiling: ceiling)
            }
            if magnitude > ceiling { enqueue(peak: index, needing: ceiling / magnitude, rings) }
            guard index >= lookahead &- 1 else { return nil }
            return release(rings)
        }

        /// Adds a peak to the queue, dropping the entries behind it that need no less.
        @inline(__always)
        private mutating func enqueue(peak index: Int, needing needed: Float, _ rings: Rings.Pointers) {
            while queueCount > 0, rings.gains[wrapped(queueHead &+ queueCount &- 1)] >= needed {
                queueCount &-= 1
            }
            let tail = wrapped(queueHead &+ queueCount)
            rings.indices[tail] = index
            rings.gains[tail] = needed
            queueCount &+= 1
        }

        /// Moves the release towards the window's minimum and hands out the oldest sample at
        /// the average gain of the last `lookahead` releases (nil while priming).
        @inline(__always)
        private mutating func release(_ rings: Rings.Pointers) -> Int16? {
            let windowMinimum: Float = queueCount > 0 ? rings.gains[queueHead] : 1
            released = min(windowMinimum, released + (1 - released) * releaseCoefficient)
            // The release never reaches 1 in Float arithmetic: snap the last 0.001 dB.
            if released >= Cursor.restingGain { released = 1 }
            historySum += Double(released) - Double(rings.history[slot])
            rings.history[slot] = released
            restingOutputs = released == 1 ? restingOutputs &+ 1 : 0
            // A window of gains that are all 1 sums to exactly its length (no rounding drift).
            if restingOutputs == lookahead { historySum = Double(lookahead) }
            if toDrop > 0 {
                toDrop &-= 1
                return nil
            }
            let value = rings.delayed[slot] * Float(historySum * inverseLookahead)
            return PeakLimiter.clampedSample(value, ceiling: ceiling)
        }

        /// `position` wrapped into the ring (positions are at most twice its size).
        @inline(__always)
        private func wrapped(_ position: Int) -> Int {
            position >= lookahead ? position - lookahead : position
        }
    }
}
