import Foundation
public import VoiceGuidance

/// A synthesizer for tests: records every call, speaks nothing, and returns at once.
///
/// Lengths come from a `RecordingRenderer` (characters × seconds per character), so they are
/// deterministic. Events follow the protocol: willSpeak, then exactly one didSpeak per `speak`.
public final class RecordingSynthesizer: SpeechSynthesizing {
    /// One call made on the synthesizer.
    public enum Call: Sendable, Equatable {
        case prepare([String])
        case duration(String)
        case speak(String)
        case stop
        case interrupt
    }

    private struct State {
        var calls: [Call] = []
        var spoken: [SpokenInstruction] = []
        var isMuted = false
        var volumeDB = 0.0
        var locale = "en-US"
        var willSpeak: (@Sendable (SpokenInstruction) -> SpeechOverride)?
        var continuations: [UUID: AsyncStream<SpeechEvent>.Continuation] = [:]
    }

    private let state = Locked(State())
    /// Gives the lengths.
    public let renderer: RecordingRenderer

    public init(renderer: RecordingRenderer = RecordingRenderer(secondsPerCharacter: 0.065)) {
        self.renderer = renderer
    }

    /// Every call so far, in order.
    public var calls: [Call] { state.withLock { $0.calls } }
    /// The prompts spoken (after any override), with their delivery, in order.
    public var spokenInstructions: [SpokenInstruction] { state.withLock { $0.spoken } }
    /// The texts passed to `speak`, in order.
    public var spokenTexts: [String] {
        calls.compactMap { if case .speak(let text) = $0 { text } else { nil } }
    }

    public var isMuted: Bool {
        get { state.withLock { $0.isMuted } }
        set { state.withLock { $0.isMuted = newValue } }
    }
    public var volumeDB: Double {
        get { state.withLock { $0.volumeDB } }
        set { state.withLock { $0.volumeDB = newValue } }
    }
    public var locale: String {
        get { state.withLock { $0.locale } }
        set { state.withLock { $0.locale = newValue } }
    }
    public var isSpeaking: Bool { false }
    public var willSpeak: (@Sendable (SpokenInstruction) -> SpeechOverride)? {
        get { state.withLock { $0.willSpeak } }
        set { state.withLock { $0.willSpeak = newValue } }
    }

    public func events() -> AsyncStream<SpeechEvent> {
        let (stream, continuation) = AsyncStream<SpeechEvent>.makeStream()
        state.withLock { $0.continuations[UUID()] = continuation }
        return stream
    }

    public func prepare(_ instructions: [SpokenInstruction]) async {
        state.withLock { $0.calls.append(.prepare(instructions.map(\.text))) }
    }

    public func duration(of instruction: SpokenInstruction) async throws -> Double {
        state.withLock { $0.calls.append(.duration(instruction.text)) }
        return renderer.duration(of: Utterance(text: instruction.text))
    }

    nonisolated(nonsending) public func speak(_ instruction: SpokenInstruction) async {
        let (hook, continuations) = state.withLock { ($0.willSpeak, Array($0.continuations.values)) }
        var spoken = instruction
        switch hook?(instruction) ?? .keep {
        case .keep: break
        case .replace(let replacement): spoken = replacement
        case .suppress:
            for continuation in continuations { continuation.yield(.didSpeak(instruction, error: nil)) }
            return
        }
        state.withLock {
            $0.calls.append(.speak(spoken.text))
            $0.spoken.append(spoken)
        }
        for continuation in continuations {
            continuation.yield(.willSpeak(spoken))
            continuation.yield(.didSpeak(spoken, error: nil))
        }
    }

    public func stopSpeaking() { state.withLock { $0.calls.append(.stop) } }

    public func interruptSpeaking() { state.withLock { $0.calls.append(.interrupt) } }
}
