public import VoiceGuidance

/// What eSpeak NG will be handed for one segment of an utterance, and what it makes of it.
public struct SegmentExplanation: Sendable, Equatable {
    /// What the segment is.
    public enum Kind: String, Sendable, Equatable {
        /// Text read by eSpeak.
        case text
        /// eSpeak phoneme mnemonics (`[[…]]`), from `<phoneme>`.
        case phonemes
        /// Text rendered, then replaced by a beep of the same length (`say-as expletive`).
        case beep
        /// Silence written by us.
        case pause
        /// A `<mark>`.
        case mark
        /// A recorded sound from `<audio src>` (`written` is the `src`, `seconds` its length).
        case audio
    }

    public var kind: Kind
    /// The text as written in the SSML (before normalisation), or the mark's name.
    public var written: String
    /// Exactly what eSpeak reads (normalised text, or `[[phonemes]]`); empty for pauses and marks.
    public var input: String
    /// The eSpeak voice selected for it (`en-us`, `gmw/de+f3`).
    public var voice: String?
    /// Words per minute, base pitch (0…99) and gain in dB given to eSpeak and to our gain stage.
    public var rate: Int?
    public var pitch: Int?
    public var gainDB: Double?
    /// Whether dynamic range compression applies.
    public var isCompressed: Bool
    /// The phonemes eSpeak makes of `input`, in IPA (for phoneme input, the IPA asked for).
    public var phonemesIPA: String?
    /// A pause's length in seconds.
    public var seconds: Double?
}

/// Every segment of an utterance as the renderer will lower it, with all warnings.
public struct Explanation: Sendable, Equatable {
    public var segments: [SegmentExplanation]
    public var warnings: [String]
    /// The text of each call to eSpeak, in order: neighbouring segments spoken alike (same
    /// voice, rate, pitch, gain and effect) are read in one call, as one phrase.
    public var calls: [String]
}

extension ESpeakRenderer {
    /// The warnings `render` would add to the parser's own for `utterance` in `voice`, without
    /// rendering: normalisation (a number too long to read), voices that are not installed,
    /// rate and pitch clamped to eSpeak NG's range; each as `line:col: warning: message` where
    /// the source position is known.
    ///
    /// - Throws: `RenderError` when `render` would refuse the utterance (too much pause) or the
    ///   voice cannot be used.
    public func warnings(for utterance: Utterance, voice: VoiceProfile) throws -> [String] {
        try plan(utterance, voice: voice).warnings
    }

    /// Shows what `render` would hand to eSpeak NG for `utterance` in `voice`, without rendering:
    /// each segment's normalised text or phonemes, its voice and parameters, and eSpeak's IPA.
    ///
    /// - Throws: `RenderError` when the voice cannot be used.
    public func explain(_ utterance: Utterance, voice: VoiceProfile) throws -> Explanation {
        let prepared = prepared(utterance, voice: voice)
        let originals = utterance.segments.count == prepared.segments.count ? utterance.segments : nil
        var warnings = prepared.warnings.map(\.description)
        let resolver = try voiceResolver(for: voice)
        var segments: [SegmentExplanation] = []
        for (index, segment) in prepared.segments.enumerated() {
            switch segment {
            case .pause(let pause):
                segments.append(
                    SegmentExplanation(
                        kind: .pause, written: "", input: "", isCompressed: false, seconds: pause.seconds))
            case .mark(let name):
                segments.append(
                    SegmentExplanation(kind: .mark, written: name, input: "", isCompressed: false))
            case .audio(let clip):
                segments.append(
                    SegmentExplanation(
                        kind: .audio, written: clip.source, input: "", isCompressed: false,
                        seconds: clip.duration))
            case .text(let text):
                let settings = Self.settings(for: text, voice: voice, resolver: resolver, warnings: &warnings)
                var written = text.text
                if let originals, case .text(let original) = originals[index] { written = original.text }
                let kind: SegmentExplanation.Kind =
                    text.sayAs?.interpretAs == .expletive
                    ? .beep : settings.isPhonemeInput ? .phonemes : .text
                let ipa: String?
                if settings.isPhonemeInput, let spec = text.phoneme {
                    ipa =
                        spec.alphabet == .ipa ? spec.symbols : try? IPAConverter.ipa(fromXSAMPA: spec.symbols)
                } else {
                    ipa = try phonemes(of: settings.input, voiceName: settings.voiceName)
                }
                segments.append(
                    SegmentExplanation(
                        kind: kind, written: written, input: settings.input, voice: settings.voiceName,
                        rate: settings.rate, pitch: settings.pitch, gainDB: settings.gainDB,
                        isCompressed: text.isCompressed, phonemesIPA: ipa))
            }
        }
        return Explanation(
            segments: segments, warnings: warnings, calls: try plan(utterance, voice: voice).calls)
    }
}
