/// Speaks through the first of several synthesizers, handing a prompt to the next one only when
/// the current one fails to synthesize it (`SpeechError.Kind.synthesis`); never when the prompt
/// was cut off (`cancelled`) or the audio device failed (`audioDevice`): another engine would
/// not help there.
///
/// Each `speak` fires one `willSpeak` and one `didSpeak` of its own, however many synthesizers
/// were tried; word, mark and `didInterrupt` events of the prompt are passed through as they
/// come, and a failure handed over to the next synthesizer is reported as an `error` event.
/// Settings (`isMuted`, `volumeDB`, `locale`) are passed to every synthesizer. The `willSpeak`
/// hook is this synthesizer's own; those of the synthesizers inside are not consulted, since
/// an instruction replaced there could not be followed.
public final class FallbackSpeechSynthesizer: SpeechSynthesizing {
    /// The synthesizers, in the order they are tried.
    public let synthesizers: [any SpeechSynthesizing]
    private let hub = SpeechEventHub()
    private let hook = Locked<(@Sendable (SpokenInstruction) -> SpeechOverride)?>(nil)
    private let settings: Locked<(isMuted: Bool, volumeDB: Double, locale: String)>
    /// The latest `speak` request (each waits for the one before it to finish).
    private let order = Locked<FallbackRequest?>(nil)

    /// Tries `synthesizers` in order.
    public init(_ synthesizers: [any SpeechSynthesizing]) {
        self.synthesizers = synthesizers
        let first = synthesizers.first
        settings = Locked((first?.isMuted ?? false, first?.volumeDB ?? 0, first?.locale ?? "en-US"))
    }

    public var isMuted: Bool {
        get { settings.withLock { $0.isMuted } }
        set {
            settings.withLock { $0.isMuted = newValue }
            for synthesizer in synthesizers { synthesizer.isMuted = newValue }
        }
    }

    public var volumeDB: Double {
        get { settings.withLock { $0.volumeDB } }
        set {
            settings.withLock { $0.volumeDB = newValue }
            for synthesizer in synthesizers { synthesizer.volumeDB = newValue }
        }
    }

    public var locale: String {
        get { settings.withLock { $0.locale } }
        set {
            settings.withLock { $0.locale = newValue }
            for synthesizer in synthesizers { synthesizer.locale = newValue }
        }
    }

    public var isSpeaking: Bool { synthesizers.contains { $0.isSpeaking } }

    public var willSpeak: (@Sendable (SpokenInstruction) -> SpeechOverride)? {
        get { hook.withLock { $0 } }
        set { hook.withLock { $0 = newValue } }
    }

    public func events() -> AsyncStream<SpeechEvent> { hub.stream() }

    /// Prepares the first synthesizer (the others render on demand if they are ever needed).
    public func prepare(_ instructions: [SpokenInstruction]) async {
        await synthesizers.first?.prepare(instructions)
    }

    public func duration(of instruction: SpokenInstruction) async throws -> Double {
        var lastError: any Error = SpeechError(.synthesis, "no synthesizer to measure the prompt with")
        for synthesizer in synthesizers {
            do {
                return try await synthesizer.duration(of: instruction)
            } catch let error as SpeechError where error.kind == .synthesis {
                lastError = error
            }
        }
        throw lastError
    }

    nonisolated(nonsending) public func speak(_ instruction: SpokenInstruction) async {
        guard let spoken = SpeechOverride.resolve(instruction, with: willSpeak) else {
            hub.emit(.didSpeak(instruction, error: nil))
            return
        }
        // Prompts never overlap: mark the one before as cut by this one, cut it, and wait until
        // it has sent its didSpeak.
        let request = FallbackRequest(instruction: spoken)
        let previous = order.withLock { order -> FallbackRequest? in
            let previous = order
            order = request
            return previous
        }
        if let previous {
            previous.supersede(by: spoken)
            let synthesizers = self.synthesizers
            for synthesizer in synthesizers { synthesizer.interruptSpeaking() }
            // The one before may hand its prompt to a synthesizer just after that cut: cut again
            // until it is done.
            let watchdog = Task {
                while !previous.finished.isOpen {
                    try? await Task.sleep(for: .milliseconds(20))
                    if Task.isCancelled { return }
                    for synthesizer in synthesizers { synthesizer.interruptSpeaking() }
                }
            }
            await previous.finished.wait()
            watchdog.cancel()
        }
        defer { request.finished.open() }

        hub.emit(.willSpeak(spoken))
        var outcome: SpeechError?
        if synthesizers.isEmpty {
            outcome = SpeechError(.synthesis, "no synthesizer to speak with")
            hub.emit(.error(outcome!))
        }
        for (index, synthesizer) in synthesizers.enumerated() {
            if let newer = request.supersededBy {
                outcome = SpeechCancellation.interrupt(by: newer).error
                break
            }
            outcome = await speak(request, on: synthesizer)
            guard let error = outcome, error.kind == .synthesis, index < synthesizers.count - 1 else { break }
            hub.emit(.error(SpeechError(.synthesis, "\(error.message); trying the next synthesizer")))
        }
        if let newer = request.supersededBy, outcome?.kind == .cancelled {
            hub.emit(.didInterrupt(old: spoken, new: newer))
        }
        hub.emit(.didSpeak(spoken, error: outcome))
    }

    /// Speaks on one synthesizer, passing its events for this prompt through, and returns the
    /// error its `didSpeak` carried.
    private func speak(_ request: FallbackRequest, on synthesizer: any SpeechSynthesizing) async
        -> SpeechError?
    {
        let stream = synthesizer.events()
        let hub = self.hub
        let id = request.instruction.id
        let listener = Task { () -> SpeechError? in
            for await event in stream {
                switch event {
                case .didSpeak(let spoken, let error) where spoken.id == id:
                    return error
                case .didInterrupt(let old, _) where old.id == id:
                    // A cut by a newer prompt is reported by this synthesizer, with that prompt.
                    if request.supersededBy == nil { hub.emit(event) }
                case .word(let spoken, _) where spoken.id == id, .mark(let spoken, _) where spoken.id == id:
                    hub.emit(event)
                case .error(let error) where error.kind == .invalidSSML:
                    hub.emit(event)
                default:
                    continue
                }
            }
            return SpeechError(.cancelled, "the synthesizer's event stream ended")
        }
        await synthesizer.speak(request.instruction)
        return await listener.value
    }

    public func stopSpeaking() {
        for synthesizer in synthesizers { synthesizer.stopSpeaking() }
    }

    public func interruptSpeaking() {
        for synthesizer in synthesizers { synthesizer.interruptSpeaking() }
    }
}

/// One `speak` on a fallback synthesizer: its prompt, whether a newer one cut it, and a gate
/// opened once its didSpeak has been sent.
private final class FallbackRequest: Sendable {
    let instruction: SpokenInstruction
    let finished = Gate()
    private let newer = Locked<SpokenInstruction?>(nil)

    init(instruction: SpokenInstruction) {
        self.instruction = instruction
    }

    /// The prompt that cut this one, if any.
    var supersededBy: SpokenInstruction? { newer.withLock { $0 } }

    func supersede(by instruction: SpokenInstruction) {
        newer.withLock { if $0 == nil { $0 = instruction } }
    }
}

/// A one-shot gate tasks can wait on.
private final class Gate: Sendable {
    private let state = Locked<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    var isOpen: Bool { state.withLock { $0.isOpen } }

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
