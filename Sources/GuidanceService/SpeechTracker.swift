import Foundation
import Synchronization
import VoiceGuidance

/// What the voice controller said last and what became of recent app prompts, for `status` and
/// `announce` replies (filled from the controller's events).
final class SpeechTracker: Sendable {
    private struct State {
        var lastSpoken: ScheduledPrompt?
        var outcomes: [(UUID, String)] = []
    }

    /// App prompts whose outcome is remembered.
    private static let remembered = 16
    private let state = Mutex(State())

    /// Records one controller event.
    func note(_ event: VoiceController.Event) {
        switch event {
        case .spoke(let prompt):
            state.withLock { state in
                state.lastSpoken = prompt
                Self.record(prompt, "spoken", in: &state)
            }
        case .suppressed(let prompt, let reason):
            state.withLock { Self.record(prompt, "suppressed_" + reason.rawValue, in: &$0) }
        default: break
        }
    }

    private static func record(_ prompt: ScheduledPrompt, _ outcome: String, in state: inout State) {
        guard prompt.tier == .custom else { return }
        state.outcomes.append((prompt.instruction.id, outcome))
        if state.outcomes.count > remembered { state.outcomes.removeFirst() }
    }

    /// What happened to the app prompt with this id: `spoken`, `suppressed_muted`…, or nil (waiting).
    func outcome(of id: UUID) -> String? {
        state.withLock { state in state.outcomes.last { $0.0 == id }?.1 }
    }

    /// The prompt said last.
    var lastSpoken: ScheduledPrompt? { state.withLock { $0.lastSpoken } }

    /// The prompt said last, if it may still be heard at `time` (its expected end is later).
    func speaking(at time: Double) -> ScheduledPrompt? {
        state.withLock { state in
            guard let prompt = state.lastSpoken, prompt.time + prompt.duration > time else { return nil }
            return prompt
        }
    }

    func reset() { state.withLock { $0 = State() } }
}
