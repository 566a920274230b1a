public import VoiceGuidance

/// A `SpeechSynthesizing` that speaks on a simulated clock: a prompt is heard from `outputLatency`
/// after `speak` for its length in simulated seconds, unless something cuts it first.
///
/// `speak` returns (after its `didSpeak`) once the simulator has moved the clock past the prompt's
/// end (`advance(to:)`), or at once when the prompt is cut (`interruptSpeaking`, `stopSpeaking`,
/// muting, or the next `speak`). Every prompt heard, and for how long, is reported to `onHeard`.
public final class SimulatedSpeech: SpeechSynthesizing {
    /// A prompt that was heard: from `start` for `length` seconds of the simulated clock.
    public struct HeardPrompt: Sendable, Equatable {
        public var instruction: SpokenInstruction
        public var start: Double
        public var length: Double
        /// True when it was cut before its end.
        public var wasCut: Bool
    }

    private struct Speaking {
        var instruction: SpokenInstruction
        var start: Double
        var length: Double
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var isMuted = false
        var volumeDB = 0.0
        var locale = "en-US"
        var willSpeak: (@Sendable (SpokenInstruction) -> SpeechOverride)?
        var current: Speaking?
        var speakCalls = 0
        var callWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var listeners: [AsyncStream<SpeechEvent>.Continuation] = []
    }

    private let clock: SimulatedClock
    private let outputLatency: Double
    private let lengthOf: @Sendable (SpokenInstruction) -> Double
    private let onHeard: @Sendable (HeardPrompt) -> Void
    private let state = Locked(State())

    /// Makes a simulated synthesizer.
    ///
    /// - Parameters:
    ///   - clock: the drive's clock.
    ///   - outputLatency: seconds from `speak` to the first sample heard.
    ///   - lengthOf: the length of a prompt's speech in seconds.
    ///   - onHeard: called (on the caller of whatever ended it) with every prompt once it ended.
    public init(
        clock: SimulatedClock, outputLatency: Double,
        lengthOf: @escaping @Sendable (SpokenInstruction) -> Double,
        onHeard: @escaping @Sendable (HeardPrompt) -> Void
    ) {
        self.clock = clock
        self.outputLatency = outputLatency
        self.lengthOf = lengthOf
        self.onHeard = onHeard
    }

    // MARK: Settings

    public var isMuted: Bool {
        get { state.withLock { $0.isMuted } }
        set {
            state.withLock { $0.isMuted = newValue }
            if newValue { cut(by: nil) }
        }
    }

    public var volumeDB: Double {
        get { state.withLock { $0.volumeDB } }
        set { state.withLock { $0.volumeDB = newValue } }
    }

    public var locale: String {
        get { state.withLock { $0.locale } }
        set { state.withLock { $0.locale = newValue } }
    }

    public var isSpeaking: Bool { state.withLock { $0.current != nil } }

    public var willSpeak: (@Sendable (SpokenInstruction) -> SpeechOverride)? {
        get { state.withLock { $0.willSpeak } }
        set { state.withLock { $0.willSpeak = newValue } }
    }

    public func events() -> AsyncStream<SpeechEvent> {
        let (stream, continuation) = AsyncStream<SpeechEvent>.makeStream()
        state.withLock { $0.listeners.append(continuation) }
        return stream
    }

    // MARK: Speaking

    public func prepare(_ instructions: [SpokenInstruction]) async {
        for instruction in instructions { _ = lengthOf(instruction) }
    }

    public func duration(of instruction: SpokenInstruction) async throws -> Double {
        lengthOf(instruction)
    }

    nonisolated(nonsending) public func speak(_ instruction: SpokenInstruction) async {
        cut(by: instruction)
        let (hook, isMuted) = state.withLock { ($0.willSpeak, $0.isMuted) }
        guard !isMuted, let spoken = SpeechOverride.resolve(instruction, with: hook) else {
            emit(.didSpeak(instruction, error: nil))
            countCall()
            return
        }
        let length = lengthOf(spoken)
        await withCheckedContinuation { continuation in
            let start = clock.now + outputLatency
            state.withLock {
                $0.current = Speaking(
                    instruction: spoken, start: start, length: length, continuation: continuation)
            }
            emit(.willSpeak(spoken))
            countCall()
        }
    }

    public func stopSpeaking() { cut(by: nil) }

    public func interruptSpeaking() { cut(by: nil) }

    // MARK: Driving the simulation

    /// Ends the prompt being said if it has been heard in full by `time`.
    public func advance(to time: Double) {
        let ended = state.withLock { state -> Speaking? in
            guard let current = state.current, current.start + current.length <= time else { return nil }
            state.current = nil
            return current
        }
        guard let ended else { return }
        onHeard(
            HeardPrompt(
                instruction: ended.instruction, start: ended.start, length: ended.length, wasCut: false))
        emit(.didSpeak(ended.instruction, error: nil))
        ended.continuation.resume()
    }

    /// The time the prompt being said ends, if one is.
    public var currentEnd: Double? {
        state.withLock { state in state.current.map { $0.start + $0.length } }
    }

    /// Returns once `count` prompts have reached `speak`, or one is being said.
    ///
    /// A prompt the controller queues behind one still being said reaches `speak` only when that
    /// one ends (`advance(to:)` or a cut): waiting for it before then would wait for ever. Two
    /// prompts decided in one update (an alert and a turn) are such a pair.
    public func waitUntilHandedOver(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let isDone = state.withLock { state -> Bool in
                if state.speakCalls >= count || state.current != nil { return true }
                state.callWaiters.append((count, continuation))
                return false
            }
            if isDone { continuation.resume() }
        }
    }

    /// Counts a prompt the controller handed over but did not say (cut while it waited,
    /// `VoiceController.SuppressionReason.interrupted`) as handed over.
    public func countUnsaid() { countCall() }

    /// Lets every prompt of the `count` decided so far end, those queued included: each heard
    /// to its end (the clock moved there) or, with `cutting`, cut at once.
    public func playOut(_ count: Int, cutting: Bool = false) async {
        while true {
            await waitUntilHandedOver(count)
            guard let end = currentEnd else { return }
            if cutting {
                stopSpeaking()
            } else {
                clock.set(end)
                advance(to: end)
            }
        }
    }

    // MARK: Private

    /// Cuts the prompt being said now (what was heard of it counts), for `new` or for nothing.
    private func cut(by new: SpokenInstruction?) {
        let now = clock.now + outputLatency
        let ended = state.withLock { state -> Speaking? in
            defer { state.current = nil }
            return state.current
        }
        guard let ended else { return }
        let heard = max(0, min(ended.length, now - ended.start))
        onHeard(HeardPrompt(instruction: ended.instruction, start: ended.start, length: heard, wasCut: true))
        emit(.didInterrupt(old: ended.instruction, new: new))
        emit(.didSpeak(ended.instruction, error: SpeechError(.cancelled, "cut off")))
        ended.continuation.resume()
    }

    private func countCall() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.speakCalls += 1
            let calls = state.speakCalls
            let isSpeaking = state.current != nil
            let ready = state.callWaiters.filter { isSpeaking || $0.count <= calls }.map(\.continuation)
            state.callWaiters.removeAll { isSpeaking || $0.count <= calls }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    private func emit(_ event: SpeechEvent) {
        let listeners = state.withLock { $0.listeners }
        for listener in listeners { listener.yield(event) }
    }
}
