public import VoiceGuidance

/// A clock that only moves when a test moves it.
public final class ManualClock: GuidanceClock {
    private let time: Locked<Double>

    public init(now: Double = 0) { time = Locked(now) }

    public var now: Double { time.withLock { $0 } }

    /// Moves the clock forward by `seconds` (never backwards).
    public func advance(by seconds: Double) {
        time.withLock { $0 += max(0, seconds) }
    }

    /// Sets the clock to `seconds`, if that is not before the current time.
    public func set(_ seconds: Double) {
        time.withLock { $0 = max($0, seconds) }
    }
}
