public import VoiceGuidance

/// Fixes as they arrive from a live source (a receiver, gpsd, a trace replayed in real time),
/// handed to a guided drive once each second of the drive has passed on `clock`.
///
/// Sources call `deliver` from their own thread; `end` says the source is exhausted (the drive
/// finishes with what is left), `stop` ends the drive at once (Ctrl-C).
public final class LiveFixFeed: FixFeed {
    private struct State {
        var pending: [Position] = []
        var ended = false
        var stopped = false
    }

    /// How many fixes may wait before the oldest are dropped (a source far faster than 1 Hz).
    public static let pendingLimit = 1_000
    /// How many times faster than the wall clock the drive's seconds pass.
    public let speedup: Double
    private let clock: any GuidanceClock
    private let start: Double
    private let state = Locked(State())

    /// Starts the drive's time now.
    public init(clock: any GuidanceClock = SystemGuidanceClock(), speedup: Double = 1) {
        self.clock = clock
        self.speedup = speedup.isFinite && speedup > 0 ? speedup : 1
        start = clock.now
    }

    /// Seconds of the drive since it started.
    public var elapsed: Double { (clock.now - start) * speedup }

    public var wasStopped: Bool { state.withLock { $0.stopped } }

    /// Adds a fix whose time is already in seconds of the drive.
    public func deliver(_ position: Position) {
        state.withLock { state in
            state.pending.append(position)
            if state.pending.count > Self.pendingLimit { state.pending.removeFirst() }
        }
    }

    /// Adds a fix received now, timed by its arrival (a receiver's own clock may repeat or jump).
    public func deliverNow(_ position: Position) {
        var fix = position
        fix.time = elapsed
        deliver(fix)
    }

    /// The source has no more fixes.
    public func end() { state.withLock { $0.ended = true } }

    /// Ends the drive now.
    public func stop() { state.withLock { $0.stopped = true } }

    public func fixes(through second: Double) async -> [Position]? {
        while !wasStopped, elapsed < second {
            let wait = min(0.05, max(0.001, (second - elapsed) / speedup))
            try? await Task.sleep(for: .milliseconds(Int(wait * 1_000) + 1))
        }
        return state.withLock { state -> [Position]? in
            if state.stopped || (state.ended && state.pending.isEmpty) { return nil }
            let due = state.pending.filter { $0.time <= second }
            state.pending.removeAll { $0.time <= second }
            return due
        }
    }
}
