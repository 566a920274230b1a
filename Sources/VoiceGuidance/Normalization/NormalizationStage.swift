/// What a speech engine takes besides plain words; the normalisation stage lowers the rest.
public struct RendererInput: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// SSML markup: the engine keeps prosody, breaks, marks and languages (it writes or reads
    /// SSML from the utterance's segments).
    public static let ssml = RendererInput(rawValue: 1 << 0)
    /// eSpeak NG phoneme mnemonics (`TextSegment.espeakPhonemes`) for `<phoneme>`; without it
    /// such a segment reaches the engine as its written text.
    public static let espeakPhonemes = RendererInput(rawValue: 1 << 1)
}

/// The normalisation stage of the pipeline, between the SSML parser and any engine: say-as,
/// road references, units and numbers become the words people say (`TextNormalizer`, in the
/// voice's language), and phonemes are kept only for an engine that takes them.
///
/// Every engine receives its utterances through this stage: `ESpeakRenderer` runs it itself
/// (inside its two render halves), any other `SpeechRenderer` — `CommandRenderer`, one of your
/// own — gets it by `NormalizingRenderer`, which `SpeechSynthesizer` and the command line put in
/// front of it. So "I-280" and a say-as date are the same words whatever engine speaks them.
public struct NormalizationStage: Sendable {
    public init() {}

    /// `utterance` normalised in `voice`'s language and lowered to what an engine accepts.
    public func prepare(_ utterance: Utterance, voice: VoiceProfile, for input: RendererInput) -> Utterance {
        var result = TextNormalizer(language: voice.locale).normalize(utterance)
        guard !input.contains(.espeakPhonemes) else { return result }
        for index in result.segments.indices {
            if case .text(var segment) = result.segments[index], segment.espeakPhonemes != nil {
                segment.espeakPhonemes = nil
                result.segments[index] = .text(segment)
            }
        }
        return result
    }
}

/// An engine behind the normalisation stage: every utterance reaches `engine` normalised and
/// lowered to what it accepts.
public struct NormalizingRenderer: SpeechRenderer {
    /// The engine that makes the audio.
    public let engine: any SpeechRenderer

    public init(_ engine: any SpeechRenderer) {
        self.engine = engine
    }

    /// `renderer` itself when it runs the stage on its own (eSpeak), else behind the stage.
    public static func wrap(_ renderer: any SpeechRenderer) -> any SpeechRenderer {
        renderer.normalizesInput ? renderer : NormalizingRenderer(renderer)
    }

    public var sampleRate: Int { engine.sampleRate }
    public var accepts: RendererInput { engine.accepts }
    public var normalizesInput: Bool { true }

    public func render(
        _ utterance: Utterance, voice: VoiceProfile, handler: (RenderEvent) -> RenderControl
    ) throws -> RenderSummary {
        let prepared = NormalizationStage().prepare(utterance, voice: voice, for: engine.accepts)
        return try engine.render(prepared, voice: voice, handler: handler)
    }
}
