import Foundation

/// Makes a sink that does not block (a file, memory) take as long as the audio lasts.
///
/// A writer that gets more than `lead` seconds ahead of the wall clock sleeps; `delay` is how far
/// ahead it is, which is what a real device's queue would hold.
public struct RealTimePacer: Sendable {
    /// Frames per second being paced.
    public let sampleRate: Int
    /// How far ahead of the clock a writer may get before it sleeps (a device's buffer).
    public let lead: Double
    private var start: ContinuousClock.Instant?
    private var frames = 0

    public init(sampleRate: Int, lead: Double = 0.04) {
        self.sampleRate = sampleRate
        self.lead = lead
    }

    /// Seconds of written audio not yet "played".
    public var delay: Double {
        guard let start else { return 0 }
        return max(0, Double(frames) / Double(sampleRate) - seconds(since: start))
    }

    /// Counts `count` frames as written, sleeping first while the writer is too far ahead.
    public mutating func write(frames count: Int) {
        let now = ContinuousClock.now
        if start == nil || delay == 0 {
            // Idle or underrun: playback (re)starts now, after what is still queued.
            start = now - .seconds(Double(frames) / Double(sampleRate))
        }
        let ahead = delay - lead
        if ahead > 0 { sleep(ahead) }
        frames += count
    }

    /// Blocks until everything written has been "played", then resets.
    public mutating func drain() {
        let remaining = delay
        if remaining > 0 { sleep(remaining) }
        reset()
    }

    /// Forgets what was written (an interrupt drops it).
    public mutating func reset() {
        start = nil
        frames = 0
    }

    private func seconds(since instant: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - instant
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    private func sleep(_ seconds: Double) {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            let micros = left.components.seconds * 1_000_000 + left.components.attoseconds / 1_000_000_000_000
            SystemCalls.sleep(microseconds: Int(micros))
        }
    }
}
