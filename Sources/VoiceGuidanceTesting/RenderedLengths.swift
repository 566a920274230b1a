public import VoiceGuidance

/// Prompt lengths from a real renderer, each distinct prompt rendered once (for simulated drives
/// in tests and benchmarks). Only the lengths are kept, not the audio.
public final class RenderedLengths: Sendable {
    private let renderer: any SpeechRenderer
    private let voice: VoiceProfile
    private let timing: AnnouncementTiming
    private let known = Locked<[PromptKey: Double]>([:])

    public init(
        renderer: any SpeechRenderer, voice: VoiceProfile = .fallback, timing: AnnouncementTiming = .init()
    ) {
        self.renderer = renderer
        self.voice = voice
        self.timing = timing
    }

    /// How many prompts were rendered.
    public var count: Int { known.withLock { $0.count } }

    /// The prompt's length in seconds (the timing model's estimate if it cannot be rendered).
    public func duration(of instruction: SpokenInstruction) -> Double {
        let key = PromptKey(instruction)
        if let length = known.withLock({ $0[key] }) { return length }
        let length =
            (try? renderer.render(instruction.utterance().utterance, voice: voice).duration)
            ?? timing.estimatedDuration(of: instruction)
        known.withLock { $0[key] = length }
        return length
    }
}
