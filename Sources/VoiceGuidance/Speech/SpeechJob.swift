/// Why a prompt is being cut short.
enum SpeechCancellation: Sendable, Equatable {
    /// `stopSpeaking`: finish the word, then fade.
    case stop
    /// `interruptSpeaking` or a newer `speak` (`by`), or the speaking task was cancelled.
    case interrupt(by: SpokenInstruction?)
    /// `isMuted` was set.
    case mute

    /// Whether this cut is quicker than `other`, and so replaces it.
    func overrides(_ other: SpeechCancellation?) -> Bool {
        guard let other else { return true }
        return other == .stop && self != .stop
    }

    /// The error `didSpeak` carries for a prompt ended this way.
    var error: SpeechError {
        switch self {
        case .stop: SpeechError(.cancelled, "stopped")
        case .interrupt(let new):
            SpeechError(.cancelled, new == nil ? "interrupted" : "interrupted by a newer prompt")
        case .mute: SpeechError(.cancelled, "muted")
        }
    }
}

/// One `speak` call on its way through the playback thread.
final class SpeechJob: Sendable {
    let instruction: SpokenInstruction
    let requested: ContinuousClock.Instant
    private let cancellationState = Locked<SpeechCancellation?>(nil)
    private let continuation = Locked<CheckedContinuation<Void, Never>?>(nil)

    init(instruction: SpokenInstruction, requested: ContinuousClock.Instant) {
        self.instruction = instruction
        self.requested = requested
    }

    /// The cut asked for so far, if any.
    var cancellation: SpeechCancellation? { cancellationState.withLock { $0 } }

    /// Asks for the prompt to be cut; a quicker cut replaces a graceful one, never the reverse.
    func cancel(_ reason: SpeechCancellation) {
        cancellationState.withLock { current in
            if reason.overrides(current) { current = reason }
        }
    }

    /// Stores the continuation of the waiting `speak` call.
    func setContinuation(_ value: CheckedContinuation<Void, Never>) {
        continuation.withLock { $0 = value }
    }

    /// Lets the waiting `speak` call return (once).
    func resume() {
        continuation.withLock { value -> CheckedContinuation<Void, Never>? in
            defer { value = nil }
            return value
        }?.resume()
    }
}
