public import VoiceGuidance

/// Renders utterances with eSpeak NG (libespeak-ng, linked in the process).
///
/// Each text segment is spoken with its own voice, rate and pitch; pauses are silence written
/// here, volume is a gain in decibels applied here with a limiter (eSpeak's own volume stays at
/// 100, so nothing clips), and marks are placed between segments at exact sample offsets. The
/// silence eSpeak puts before the speech is trimmed, so a prompt starts at once; it ends with
/// a short natural tail (`Silence.promptTail`, 200 ms).
///
/// All instances share the one eSpeak NG engine of the process; renders from several threads
/// take turns segment by segment. The handler runs while the engine is held, so it must not
/// call back into any `ESpeakRenderer`.
public final class ESpeakRenderer: SpeechRenderer {
    private let engine: ESpeakEngine
    /// Whether utterances go through `TextNormalizer` first (say-as, road refs, phonemes).
    /// Off only to measure what normalisation costs.
    public let normalizesText: Bool

    /// The longest total of pauses one utterance may ask for, in seconds.
    public static let maximumPauseSeconds = 600.0
    /// The longest speech one utterance may make, in seconds, estimated from its normalised
    /// text before anything is spoken (a navigation prompt is a few seconds); eSpeak is stopped
    /// if it makes more than twice this.
    public static let maximumSpeechSeconds = 180.0

    /// Starts (or joins) the process's eSpeak NG engine.
    ///
    /// - Parameters:
    ///   - dataPath: the folder holding eSpeak NG's data, or nil for the default
    ///     (`ESPEAK_DATA_PATH`, then the system folder).
    /// - Throws: `RenderError.Kind.engineUnavailable` when the library cannot start.
    ///   - normalizesText: run `TextNormalizer` in the voice's language before rendering
    ///     (default); false hands the text to eSpeak as it is.
    public init(dataPath: String? = nil, normalizesText: Bool = true) throws {
        self.normalizesText = normalizesText
        do {
            engine = try ESpeakEngine.shared(dataPath: dataPath)
        } catch {
            throw RenderError(.engineUnavailable, error.message, cause: error.cause)
        }
    }

    /// The sample rate eSpeak NG makes (22,050 Hz).
    public var sampleRate: Int { engine.sampleRate }

    /// eSpeak reads the utterance's structure (prosody, breaks, marks, languages) and its own
    /// phoneme mnemonics.
    public var accepts: RendererInput { [.ssml, .espeakPhonemes] }

    /// eSpeak runs the normalisation stage itself, inside its two render halves.
    public var normalizesInput: Bool { normalizesText }

    /// The voices installed with eSpeak NG (its own; MBROLA voices, which need the separate
    /// mbrola program, are not listed).
    ///
    /// - Throws: `RenderError.Kind.engineUnavailable` when the library cannot start.
    public static func installedVoices() throws -> [ESpeakVoice] {
        try ESpeakRenderer().locked { session in session.installedVoices() }
    }

    /// The phonemes eSpeak NG would speak for `text` in `voice`, clauses separated by spaces.
    ///
    /// - Parameters:
    ///   - text: plain text.
    ///   - voice: the profile whose eSpeak voice and variant are used.
    ///   - ipa: IPA when true, eSpeak's ASCII phoneme mnemonics when false.
    /// - Throws: `RenderError.Kind.voiceNotFound` when the profile's voice is not installed.
    public func phonemes(for text: String, voice: VoiceProfile, ipa: Bool = true) throws -> String {
        try locked { session in
            let resolver = session.voiceResolver()
            try select(resolver.profileVoiceName(voice), in: &session, resolver: resolver)
            return session.phonemes(for: text, ipa: ipa).joined(separator: " ")
        }
    }

    public func render(
        _ utterance: Utterance, voice: VoiceProfile, handler: (RenderEvent) -> RenderControl
    ) throws -> RenderSummary {
        try renderTraced(utterance, voice: voice, handler: handler).summary
    }

    /// What was chosen for one text segment (for tests and debugging).
    struct SegmentTrace: Sendable, Equatable {
        var text: String
        var settings: ESpeakSegmentSettings
    }

    /// Renders like `render`, and also returns the settings used for each text segment and the
    /// text of each eSpeak call (neighbouring segments spoken alike share one call).
    func renderTraced(
        _ written: Utterance, voice: VoiceProfile, handler: (RenderEvent) -> RenderControl
    ) throws -> (summary: RenderSummary, trace: [SegmentTrace], calls: [String]) {
        let plan = try plan(written, voice: voice)
        var warnings = plan.warnings
        let gain = plan.speedGain
        let summary = try perform(plan.steps, warnings: &warnings, speedGain: gain, handler: handler) {
            _, speech, output in
            try synthesize(speech, profileVoice: plan.profileVoice) { chunk, events in
                output.receive(chunk, events: events)
            }
        }
        return (summary, plan.trace, plan.calls)
    }

    /// What `render` does before it speaks: the utterance normalised, checked, and cut into
    /// steps, with the settings of each eSpeak call.
    struct Plan {
        var steps: [Step]
        var warnings: [String]
        var trace: [SegmentTrace]
        var profileVoice: String
        /// The voice's speed gain over the whole prompt, if it has one.
        var speedGain: SpeedGainStage?
        var calls: [String] {
            steps.compactMap { step -> String? in
                if case .speech(let speech) = step { speech.settings.input } else { nil }
            }
        }
    }

    func plan(_ written: Utterance, voice: VoiceProfile) throws -> Plan {
        let utterance = prepared(written, voice: voice)
        let totalPause = utterance.segments.reduce(0.0) { total, segment in
            if case .pause(let pause) = segment, pause.seconds.isFinite, pause.seconds > 0 {
                return total + pause.seconds
            }
            return total
        }
        guard totalPause <= Self.maximumPauseSeconds else {
            throw RenderError(
                .invalidInput,
                "the utterance asks for \(totalPause) s of pauses; the limit is \(Self.maximumPauseSeconds) s"
            )
        }
        let resolver = try locked { session in
            let resolver = session.voiceResolver()
            try select(resolver.profileVoiceName(voice), in: &session, resolver: resolver)
            return resolver
        }
        var warnings = utterance.warnings.dropFirst(written.warnings.count).map(\.description)
        var trace: [SegmentTrace] = []
        var steps: [Step] = []
        for segment in utterance.segments {
            switch segment {
            case .pause(let pause):
                steps.append(.pause(Silence.sampleCount(seconds: pause.seconds, sampleRate: sampleRate)))
            case .mark(let name):
                steps.append(.mark(name))
            case .audio(let clip):
                steps.append(.audio(clip.samples(atRate: sampleRate)))
            case .text(let written):
                let (text, padding) = try fittingDuration(
                    written, voice: voice, resolver: resolver, warnings: &warnings)
                let settings = Self.settings(for: text, voice: voice, resolver: resolver, warnings: &warnings)
                trace.append(SegmentTrace(text: text.text, settings: settings))
                let effect: RenderOutput.Effect =
                    text.sayAs?.interpretAs == .expletive ? .beep : text.isCompressed ? .compressed : .none
                steps.append(.speech(Speech(settings: settings, written: text.text, effect: effect)))
                if padding > 0 { steps.append(.pause(padding)) }
            }
        }
        let bounded = try Self.bounded(Self.joiningSpeech(steps), warnings: &warnings)
        return Plan(
            steps: bounded, warnings: warnings, trace: trace, profileVoice: resolver.profileVoiceName(voice),
            speedGain: SpeedGainStage(voice: voice, sampleRate: sampleRate))
    }

    /// The steps with each eSpeak call cut to what eSpeak can take (see ``ESpeakLimits``).
    ///
    /// - Throws: `RenderError.Kind.invalidInput` when the speech would be longer than
    ///   ``maximumSpeechSeconds``.
    private static func bounded(_ steps: [Step], warnings: inout [String]) throws -> [Step] {
        var seconds = 0.0
        let bounded = steps.map { step -> Step in
            guard case .speech(var speech) = step else { return step }
            let (input, warning) = ESpeakLimits.bounded(
                speech.settings.input, isPhonemeInput: speech.settings.isPhonemeInput)
            if let warning, !warnings.contains(warning) { warnings.append(warning) }
            speech.settings.input = input
            seconds += ESpeakLimits.estimatedSeconds(of: input, rate: speech.settings.rate)
            return .speech(speech)
        }
        guard seconds <= maximumSpeechSeconds else {
            throw RenderError(
                .invalidInput,
                "the utterance would be about \(Int(seconds.rounded())) s of speech; the limit is "
                    + "\(Int(maximumSpeechSeconds)) s (a navigation prompt is a few seconds)")
        }
        return bounded
    }

    /// The eSpeak settings of a text segment; their warnings are added to `warnings` once each,
    /// at the segment's place in the SSML source.
    static func settings(
        for text: TextSegment, voice: VoiceProfile, resolver: ESpeakVoiceResolver, warnings: inout [String]
    ) -> ESpeakSegmentSettings {
        let (voiceName, voiceWarnings) = resolver.voiceName(for: text, profile: voice)
        let settings = ESpeakSegmentSettings(
            segment: text, profile: voice, voiceName: voiceName, voiceWarnings: voiceWarnings)
        for warning in settings.warnings {
            // Located where the segment's text starts: "2:5: warning: pitch -25 is outside …".
            let located = SSMLDiagnostic(message: warning, location: text.location).description
            if !warnings.contains(located) { warnings.append(located) }
        }
        return settings
    }

    /// Runs the steps through one `RenderOutput` to `handler`: pauses and marks here, each speech
    /// step's samples and events from `speak` (which returns a warning to report, if any); the
    /// speed gain, if any, over everything.
    func perform(
        _ steps: [Step], warnings: inout [String], speedGain: SpeedGainStage? = nil,
        handler: (RenderEvent) -> RenderControl, speak: (_ index: Int, Speech, RenderOutput) throws -> String?
    ) rethrows -> RenderSummary {
        let rate = sampleRate
        return try withoutActuallyEscaping(handler) { handler in
            let gained = SpeedGainHandler(stage: speedGain, handler: handler)
            defer { gained.finish() }
            let output = RenderOutput(sampleRate: rate, handler: gained.take)
            for (index, step) in steps.enumerated() {
                if output.isStopped { break }
                switch step {
                case .pause(let samples):
                    output.writeSilence(samples)
                case .mark(let name):
                    output.mark(name)
                case .audio(let samples):
                    output.writeClip(samples)
                case .speech(let speech):
                    output.beginSpeech(
                        input: speech.settings.input,
                        writtenText: speech.settings.isPhonemeInput ? speech.written : nil,
                        gainDB: speech.settings.gainDB, effect: speech.effect)
                    if let warning = try speak(index, speech, output), !warnings.contains(warning) {
                        warnings.append(warning)
                    }
                    output.endSpeech(keepTail: Self.nextIsSpeech(steps, after: index))
                }
            }
            output.finish()
            // The output holds the handler: it must not outlive this block.
            return RenderSummary(
                sampleRate: rate, sampleCount: output.emitted, marks: output.marks, words: output.words,
                warnings: warnings, wasStopped: output.isStopped)
        }
    }

    /// Speaks one eSpeak call, handing its chunks to `receive` (false stops it), in the call's
    /// voice or, when that cannot be selected, the profile's; returns the warning saying so.
    ///
    /// - Throws: `RenderError.Kind.synthesisFailed` when eSpeak NG fails.
    func synthesize(
        _ speech: Speech, profileVoice: String, receive: (UnsafeBufferPointer<Int16>, [ESpeakEvent]) -> Bool
    ) throws -> String? {
        let settings = speech.settings
        return try locked { session in
            var warning: String?
            do {
                try session.selectVoice(settings.voiceName)
            } catch {
                warning = "\(error); speaking in \(profileVoice)"
                try session.selectVoice(profileVoice)
            }
            try session.setProsody(rate: settings.rate, pitch: settings.pitch)
            // A safety net under the estimate in `plan`: eSpeak is stopped past twice the limit.
            var budget = Int(2 * Self.maximumSpeechSeconds) * sampleRate
            let finished = try session.synthesize(
                settings.input, phonemeInput: settings.isPhonemeInput
            ) { chunk, events in
                budget -= chunk.count
                return budget >= 0 && receive(chunk, events)
            }
            if !finished, budget < 0 {
                throw RenderError(
                    .invalidInput,
                    "eSpeak NG made more than \(Int(2 * Self.maximumSpeechSeconds)) s of speech for one call; stopped"
                )
            }
            return warning
        }
    }

    /// A voice resolver for the installed voices, with the profile's voice checked and selected.
    func voiceResolver(for voice: VoiceProfile) throws -> ESpeakVoiceResolver {
        try locked { session in
            let resolver = session.voiceResolver()
            try select(resolver.profileVoiceName(voice), in: &session, resolver: resolver)
            return resolver
        }
    }

    /// eSpeak's IPA for `text` in the eSpeak voice `voiceName`.
    func phonemes(of text: String, voiceName: String) throws -> String {
        try locked { session in
            try session.selectVoice(voiceName)
            return session.phonemes(for: text, ipa: true).joined(separator: " ")
        }
    }

    /// The utterance as it will be lowered: through the normalisation stage unless turned off.
    func prepared(_ utterance: Utterance, voice: VoiceProfile) -> Utterance {
        normalizesText ? NormalizationStage().prepare(utterance, voice: voice, for: accepts) : utterance
    }

    /// Runs `body` with the engine held; eSpeak failures become `RenderError.Kind.synthesisFailed`.
    private func locked<Result: Sendable>(_ body: (inout ESpeakSession) throws -> Result) throws -> Result {
        do {
            return try engine.perform(body)
        } catch let error as ESpeakError {
            throw RenderError(.synthesisFailed, error.message, cause: error.cause)
        }
    }

    /// Selects the profile's voice, turning a failure into `RenderError.voiceNotFound`.
    private func select(_ name: String, in session: inout ESpeakSession, resolver: ESpeakVoiceResolver) throws
    {
        if resolver.isMBROLA(name) {
            throw RenderError(
                .voiceNotFound,
                "eSpeak NG voice '\(name)' is an MBROLA voice, which needs the separate mbrola program; "
                    + "installed voices: \(resolver.summary())")
        }
        do {
            try session.selectVoice(name)
        } catch {
            throw RenderError(
                .voiceNotFound,
                "eSpeak NG voice '\(name)' cannot be used (\(error.message)); installed voices: \(resolver.summary())",
                cause: error.cause)
        }
    }

    /// Whether the next segment that makes sound is text (marks make none).
    /// One thing the renderer does, in order.
    enum Step {
        /// Silence, in samples.
        case pause(Int)
        case mark(String)
        case speech(Speech)
        /// A recorded sound, already at the output rate.
        case audio([Int16])
    }

    /// Text handed to eSpeak in one call.
    struct Speech {
        var settings: ESpeakSegmentSettings
        var written: String
        var effect: RenderOutput.Effect
    }

    /// Joins neighbouring text that eSpeak would speak the same way (same voice, rate, pitch,
    /// gain and effect; not phonemes, not a beep) into one call.
    ///
    /// The parser cuts "Take exit <say-as>53</say-as> towards Washington" into three segments;
    /// spoken as three calls, each ends as a sentence (falling tone and a clause pause) and
    /// eSpeak pays its per-call cost three times. Joined, it is one phrase, spoken as written,
    /// and about 7% cheaper. Marks and pauses still separate calls: they need exact offsets.
    private static func joiningSpeech(_ steps: [Step]) -> [Step] {
        var joined: [Step] = []
        for step in steps {
            guard case .speech(let next) = step, case .speech(var previous)? = joined.last,
                canJoin(previous, next)
            else {
                joined.append(step)
                continue
            }
            let separator =
                previous.settings.input.last?.isWhitespace == true
                    || next.settings.input.first?.isWhitespace == true
                ? "" : " "
            previous.settings.input += separator + next.settings.input
            previous.written += separator + next.written
            previous.settings.warnings += next.settings.warnings
            joined[joined.count - 1] = .speech(previous)
        }
        return joined
    }

    private static func canJoin(_ first: Speech, _ second: Speech) -> Bool {
        first.effect == second.effect && first.effect != .beep
            && !first.settings.isPhonemeInput && !second.settings.isPhonemeInput
            && first.settings.voiceName == second.settings.voiceName
            && first.settings.rate == second.settings.rate
            && first.settings.pitch == second.settings.pitch
            && first.settings.gainDB == second.settings.gainDB
    }

    /// Whether speech follows step `index` with no pause between (its tail is then kept as the gap).
    private static func nextIsSpeech(_ steps: [Step], after index: Int) -> Bool {
        for step in steps[(index + 1)...] {
            switch step {
            case .mark: continue
            case .speech: return true
            case .audio: return false
            case .pause(let samples): if samples > 0 { return false }
            }
        }
        return false
    }
}
