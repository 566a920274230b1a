public import VoiceGuidance

/// The clock of a simulated drive: it stands still until the simulator moves it.
public final class SimulatedClock: GuidanceClock {
    private let time = Locked(0.0)

    public init() {}

    public var now: Double { time.withLock { $0 } }

    /// Moves the clock to `seconds` (never backwards).
    public func set(_ seconds: Double) {
        time.withLock { $0 = max($0, seconds) }
    }
}
