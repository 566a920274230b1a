/// A sink that keeps every prompt's samples in memory (tests, rendering to a buffer).
///
/// With `pacesToRealTime` it takes as long as the audio lasts, like a sound card with a 40 ms
/// buffer, so interrupting "mid-prompt" means something; otherwise writes return at once.
public final class MemorySink: AudioSink {
    /// One prompt as the sink received it.
    public struct Prompt: Sendable, Equatable {
        public var format: AudioFormat
        public var samples: [Int16]
        /// True when the prompt ended with `interrupt` rather than `finish`.
        public var wasInterrupted: Bool
        /// True once `finish` or `interrupt` ended it.
        public var isComplete: Bool
    }

    private struct State {
        var prompts: [Prompt] = []
        var isOpen = false
        var pacer: RealTimePacer?
        var failure: AudioSinkError?
    }

    /// Whether writes take real time.
    public let pacesToRealTime: Bool
    private let state = Locked(State())

    public init(pacesToRealTime: Bool = false) {
        self.pacesToRealTime = pacesToRealTime
    }

    public var name: String { "memory output" }

    /// Every prompt so far, in order.
    public var prompts: [Prompt] { state.withLock { $0.prompts } }

    /// All samples of all prompts, concatenated.
    public var samples: [Int16] { state.withLock { $0.prompts.flatMap(\.samples) } }

    /// Makes later `begin`/`write` calls fail with `error` (nil: work again), like a lost device.
    public func setFailure(_ error: AudioSinkError?) { state.withLock { $0.failure = error } }

    public func begin(_ format: AudioFormat) throws {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            guard format.sampleRate > 0, format.channels > 0 else {
                throw AudioSinkError(.invalidUse, "memory output: unusable format \(format)")
            }
            state.prompts.append(
                Prompt(format: format, samples: [], wasInterrupted: false, isComplete: false))
            state.isOpen = true
            if pacesToRealTime, state.pacer?.sampleRate != format.sampleRate {
                state.pacer = RealTimePacer(sampleRate: format.sampleRate)
            }
        }
    }

    public func write(_ samples: [Int16]) throws {
        var pacer = try state.withLock { state -> RealTimePacer? in
            if let failure = state.failure { throw failure }
            guard state.isOpen else { throw AudioSinkError(.invalidUse, "memory output: write before begin") }
            state.prompts[state.prompts.count - 1].samples.append(contentsOf: samples)
            return state.pacer
        }
        // Sleep outside the lock so readers are never blocked by pacing.
        guard pacer != nil else { return }
        pacer!.write(frames: samples.count)
        state.withLock { $0.pacer = pacer }
    }

    public func finish() throws {
        var pacer = state.withLock { state -> RealTimePacer? in
            if state.isOpen { state.prompts[state.prompts.count - 1].isComplete = true }
            state.isOpen = false
            return state.pacer
        }
        guard pacer != nil else { return }
        pacer!.drain()
        state.withLock { $0.pacer = pacer }
    }

    public func interrupt() {
        state.withLock { state in
            if state.isOpen {
                state.prompts[state.prompts.count - 1].isComplete = true
                state.prompts[state.prompts.count - 1].wasInterrupted = true
            }
            state.isOpen = false
            state.pacer?.reset()
        }
    }

    public var delay: Double { state.withLock { $0.pacer?.delay ?? 0 } }

    public func close() throws {
        state.withLock { $0.isOpen = false }
    }
}
