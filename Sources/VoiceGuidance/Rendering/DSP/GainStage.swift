/// A streaming gain in decibels with a peak limiter, so a boost never clips.
///
/// Unity gain copies samples unchanged; a cut scales them; a boost goes through a
/// `PeakLimiter`; `-infinity` writes silence of the same length.
public struct GainStage: Sendable {
    /// The gain in decibels.
    public let gainDB: Double
    private let factor: Float
    private var limiter: PeakLimiter?
    private var scratch: [Float] = []

    /// Creates a stage applying `gainDB` to samples at `sampleRate`.
    public init(gainDB: Double, sampleRate: Int) {
        self.gainDB = gainDB.isNaN ? 0 : gainDB
        factor = Float(Decibels.amplitude(fromDB: self.gainDB))
        limiter = self.gainDB > 0 ? PeakLimiter(sampleRate: sampleRate) : nil
    }

    /// Whether the stage passes samples through unchanged.
    public var isUnity: Bool { gainDB == 0 }

    /// Applies the gain to `samples` and appends what is ready to `output`.
    ///
    /// - Complexity: O(n).
    public mutating func process(_ samples: UnsafeBufferPointer<Int16>, into output: inout [Int16]) {
        if gainDB == 0 {
            output.append(contentsOf: samples)
        } else if limiter != nil {
            scratch.removeAll(keepingCapacity: true)
            for sample in samples { scratch.append(Float(sample) * factor) }
            limiter!.process(scratch, into: &output)
        } else {
            for sample in samples { output.append(Int16((Float(sample) * factor).rounded())) }
        }
    }

    /// Applies the gain to an array of samples and appends what is ready to `output`.
    public mutating func process(_ samples: [Int16], into output: inout [Int16]) {
        samples.withUnsafeBufferPointer { process($0, into: &output) }
    }

    /// Hands out anything the limiter still holds.
    public mutating func flush(into output: inout [Int16]) {
        limiter?.flush(into: &output)
    }

    /// `samples` with `gainDB` applied through a limiter, in one call.
    public static func applying(gainDB: Double, to samples: [Int16], sampleRate: Int) -> [Int16] {
        var stage = GainStage(gainDB: gainDB, sampleRate: sampleRate)
        var output: [Int16] = []
        output.reserveCapacity(samples.count)
        stage.process(samples, into: &output)
        stage.flush(into: &output)
        return output
    }
}
