/// Walks the tokens of one SSML document with an explicit stack (no recursion, so nesting depth
/// costs heap, not call stack) and turns elements into segment attributes.
struct SSMLDocumentReader {
    private enum Mode { case undecided, document, fragment }

    /// An open element and what is in force inside it.
    private struct Frame {
        var name: String
        var element: SSMLElement?
        var location: SourceLocation
        var attributes: TextAttributes
        /// Inside `<sub>`: the alias was spoken, the written text is not.
        var suppressesText: Bool
        /// How many segments existed when the element opened.
        var segmentCount = 0
        /// Inside `<meta>`, `<metadata>` or `<lexicon>`: nothing in it is read or spoken.
        var ignoresContent = false
        /// `<prosody duration>`: seconds the element's content should last.
        var duration: Double?
    }

    private let limits: SSMLParser.Limits
    private let isStrict: Bool
    private var tokenizer: SSMLTokenizer
    private var builder: SegmentBuilder
    private var warnings: [SSMLDiagnostic] = []
    private var stack: [Frame] = []
    private var mode = Mode.undecided
    private var isRootClosed = false
    private var documentLanguage: String?
    private let audioLoader: AudioSourceLoader
    private var audioSeconds = 0.0
    private var hasWarnedContour = false

    init(
        _ text: String, limits: SSMLParser.Limits, isStrict: Bool, audioLoader: AudioSourceLoader = .init()
    ) {
        self.limits = limits
        self.isStrict = isStrict
        self.audioLoader = audioLoader
        tokenizer = SSMLTokenizer(text)
        builder = SegmentBuilder(limits: limits)
    }

    /// What is in force at the current position.
    private var current: TextAttributes { stack.last?.attributes ?? TextAttributes() }

    /// Reads the whole document.
    mutating func read() throws(SSMLError) -> Utterance {
        while let token = try tokenizer.next() {
            switch token {
            case .text(let text, let firstVisible):
                try handleText(text, firstVisible: firstVisible)
            case .startTag(let name, let attributes, let isEmpty, let location):
                try handleStart(name, attributes: attributes, at: location)
                if isEmpty { try handleEnd(name, at: location) }
            case .endTag(let name, let location):
                try handleEnd(name, at: location)
            }
        }
        if let open = stack.last {
            throw SSMLError(
                .malformed, "<\(open.name)> opened at \(open.location) is never closed", at: open.location)
        }
        let segments = try builder.finish()
        let allWarnings = warnings.enumerated().sorted { left, right in
            let (a, b) = (left.element.location, right.element.location)
            if let a, let b, a != b { return (a.line, a.column) < (b.line, b.column) }
            return left.offset < right.offset
        }
        return Utterance(segments: segments, language: documentLanguage, warnings: allWarnings.map(\.element))
    }

    // MARK: - Tokens

    private mutating func handleText(_ text: String, firstVisible: SourceLocation?) throws(SSMLError) {
        warnings += tokenizer.takeWarnings(element: stack.last?.name)
        if stack.last?.ignoresContent == true { return }
        if let firstVisible {
            if isRootClosed {
                throw SSMLError(
                    .malformed, "text after </speak>: the root element is already closed", at: firstVisible)
            }
            if mode == .undecided { mode = .fragment }
        }
        if stack.last?.suppressesText == true { return }
        try builder.appendText(text, attributes: current, firstVisible: firstVisible)
    }

    private mutating func handleEnd(_ name: String, at location: SourceLocation) throws(SSMLError) {
        guard let top = stack.last else {
            throw SSMLError(.malformed, "</\(name)> closes nothing: no element is open here", at: location)
        }
        guard top.name == name else {
            throw SSMLError(
                .malformed, "</\(name)> does not match <\(top.name)> opened at \(top.location)", at: location)
        }
        stack.removeLast()
        if top.ignoresContent { return }
        switch top.element {
        case .p, .paragraph: try builder.appendSoftPause(.strong, at: location)
        case .s, .sentence: try builder.appendSoftPause(.medium, at: location)
        case .sayAs: try builder.flush()
        case .prosody:
            if let duration = top.duration { try fitDuration(duration, since: top) }
        case .phoneme:
            try builder.flush()
            if builder.segments.count == top.segmentCount, top.attributes.phoneme != nil {
                // <phoneme ph="…"/> with no written text: the pronunciation alone is the segment.
                try builder.appendEmptyText(attributes: top.attributes, at: top.location)
            }
        default: break
        }
        if stack.isEmpty, mode == .document { isRootClosed = true }
    }

    private mutating func handleStart(
        _ name: String, attributes: [SSMLAttribute], at location: SourceLocation
    ) throws(SSMLError) {
        if isRootClosed {
            throw SSMLError(
                .malformed, "<\(name)> after </speak>: the root element is already closed", at: location)
        }
        if mode == .undecided { mode = name == "speak" ? .document : .fragment }
        guard stack.count < limits.maxDepth else {
            throw SSMLError(
                .limitExceeded, "elements are nested more than \(limits.maxDepth) deep", at: location)
        }
        var frame = Frame(
            name: name, element: SSMLElement(rawValue: name), location: location, attributes: current,
            suppressesText: stack.last?.suppressesText ?? false)
        if stack.last?.ignoresContent == true {
            frame.ignoresContent = true
            stack.append(frame)
            return
        }
        guard let element = frame.element else {
            let message =
                if let reason = SSMLElement.unsupportedStandardElements[name] {
                    "standard SSML 1.1 element that is not supported (\(reason)); its text is kept"
                } else if name.contains(":") {
                    "vendor element is not supported; its text is kept"
                } else {
                    "unknown element; its text is kept"
                }
            try warnOrThrow(name, message, at: location)
            stack.append(frame)
            return
        }
        var values: [String: SSMLAttribute] = [:]
        for attribute in attributes {
            if SSMLElement.isUniversalAttribute(attribute.name) { continue }
            if element.attributes.contains(attribute.name) {
                values[attribute.name] = attribute
            } else {
                try warnOrThrow(
                    name, "unknown attribute '\(attribute.name)' is ignored", at: attribute.location)
            }
        }
        if element == .speak, let namespace = attributes.first(where: { $0.name == "xmlns" }),
            namespace.value.trimmingSSMLWhitespace() != SSMLElement.namespace
        {
            warnings.append(
                SSMLDiagnostic(
                    element: name,
                    message: "xmlns '\(namespace.value)' is not the SSML namespace \(SSMLElement.namespace)",
                    location: namespace.location))
        }
        try apply(element, name: name, values, to: &frame, at: location)
        frame.segmentCount = builder.segments.count
        stack.append(frame)
    }

    // MARK: - Elements

    private mutating func apply(
        _ element: SSMLElement, name: String, _ values: [String: SSMLAttribute], to frame: inout Frame,
        at location: SourceLocation
    ) throws(SSMLError) {
        if let lang = values["xml:lang"] ?? values["language"], let tag = language(lang, in: name) {
            frame.attributes.language = tag
        }
        switch element {
        case .speak:
            if stack.isEmpty, mode == .document {
                documentLanguage = frame.attributes.language
            } else {
                warnings.append(
                    SSMLDiagnostic(
                        element: name, message: "<speak> inside other content is read as a group",
                        location: location))
            }
        case .p, .paragraph:
            try builder.appendSoftPause(.strong, at: location)
        case .s, .sentence:
            try builder.appendSoftPause(.medium, at: location)
        case .break:
            try builder.appendBreak(breakPause(values, at: location), at: location)
        case .prosody:
            try applyProsody(values, to: &frame.attributes.prosody, at: location)
            if let duration = values["duration"] {
                frame.duration = try durationSeconds(duration)
                try builder.flush()
            }
            if let contour = values["contour"], !hasWarnedContour {
                hasWarnedContour = true
                warnings.append(
                    SSMLDiagnostic(
                        element: name,
                        message: "contour is not supported; the voice's own intonation is used",
                        location: contour.location))
            }
        case .sayAs:
            try builder.flush()
            let interpretAs = try required("interpret-as", of: name, in: values, at: location)
            if let kind = SSMLElement.interpretAsSynonyms[
                interpretAs.value.trimmingSSMLWhitespace().lowercased()]
            {
                frame.attributes.sayAs = SayAs(
                    interpretAs: kind, format: values["format"]?.value, detail: values["detail"]?.value)
            } else {
                frame.attributes.sayAs = nil
                try warnOrThrow(
                    name, "interpret-as '\(interpretAs.value)' is not supported; the text is read as written",
                    at: interpretAs.location)
            }
        case .sub:
            let alias = try required("alias", of: name, in: values, at: location)
            let visible = alias.value.contains { $0 != " " } ? alias.location : nil
            try builder.appendText(alias.value, attributes: frame.attributes, firstVisible: visible)
            frame.suppressesText = true
        case .phoneme:
            try builder.flush()
            let symbols = try required("ph", of: name, in: values, at: location)
            let alphabetName = values["alphabet"]?.value.trimmingSSMLWhitespace().lowercased() ?? "ipa"
            if let alphabet = PhonemeSpec.Alphabet(
                rawValue: alphabetName == "xsampa" ? "x-sampa" : alphabetName)
            {
                frame.attributes.phoneme = PhonemeSpec(
                    alphabet: alphabet, symbols: String(symbols.value.trimmingSSMLWhitespace()))
            } else {
                frame.attributes.phoneme = nil
                try warnOrThrow(
                    name,
                    "alphabet '\(alphabetName)' is not supported (use ipa or x-sampa); the text is spoken",
                    at: values["alphabet"]?.location ?? location)
            }
        case .emphasis:
            let level = values["level"]?.value.trimmingSSMLWhitespace().lowercased() ?? "moderate"
            guard let emphasis = EmphasisLevel(rawValue: level) else {
                throw SSMLError(
                    .malformed,
                    "invalid level '\(level)' in <emphasis> (expected strong, moderate, none or reduced)",
                    at: values["level"]?.location ?? location)
            }
            frame.attributes.emphasis = emphasis
        case .lang:
            _ = try required("xml:lang", of: name, in: values, at: location)
        case .voice:
            try applyVoice(values, to: &frame.attributes, in: name, at: location)
        case .mark:
            let markName = try required("name", of: name, in: values, at: location)
            try builder.appendMark(markName.value, at: location)
        case .w, .token:
            frame.attributes.role = values["role"].map { String($0.value.trimmingSSMLWhitespace()) }
        case .audio:
            try startAudio(values, in: &frame, at: location)
        case .desc:
            frame.suppressesText = true
        case .meta, .metadata, .lexicon:
            frame.suppressesText = true
            frame.ignoresContent = true
        case .amazonEffect:
            let effect = values["name"]?.value.trimmingSSMLWhitespace().lowercased()
            if effect == "drc" {
                frame.attributes.isCompressed = true
            } else {
                let what = effect.map { "effect '\($0)' is not supported" } ?? "no effect name given"
                try warnOrThrow(name, "\(what); its text is kept", at: values["name"]?.location ?? location)
            }
        }
    }

    private mutating func breakPause(_ values: [String: SSMLAttribute], at location: SourceLocation)
        throws(SSMLError) -> Pause
    {
        if let time = values["time"] {
            guard let seconds = BreakValues.time(time.value) else {
                throw SSMLError(
                    .malformed, "invalid time '\(time.value)' in <break> (expected e.g. 500ms, 1s or 1.5s)",
                    at: time.location)
            }
            guard seconds <= limits.maxBreakSeconds else {
                warnings.append(
                    SSMLDiagnostic(
                        element: "break",
                        message:
                            "time '\(time.value)' is clamped to \(SegmentBuilder.format(limits.maxBreakSeconds)) s",
                        location: time.location))
                return .seconds(limits.maxBreakSeconds)
            }
            return .seconds(seconds)
        }
        if let strength = values["strength"] {
            guard let value = BreakValues.strength(strength.value) else {
                throw SSMLError(
                    .malformed,
                    "invalid strength '\(strength.value)' in <break> (expected none, x-weak, weak, medium, "
                        + "strong or x-strong)", at: strength.location)
            }
            return .strength(value)
        }
        return .strength(.medium)
    }

    private mutating func applyProsody(
        _ values: [String: SSMLAttribute], to prosody: inout Prosody, at location: SourceLocation
    ) throws(SSMLError) {
        if let rate = values["rate"] {
            guard let change = ProsodyValues.rate(rate.value) else {
                throw invalid(
                    rate, "a keyword x-slow … x-fast, a percentage like 150% or a multiplier like 1.08")
            }
            prosody.rate = clamped(change.applied(to: prosody.rate), rate)
        }
        if let pitch = values["pitch"] {
            guard let change = ProsodyValues.pitch(pitch.value) else {
                throw invalid(pitch, "a keyword x-low … x-high, or +10%, -2st, +20Hz, 180Hz")
            }
            prosody.pitch = clamped(change.applied(to: prosody.pitch), pitch)
        }
        if let volume = values["volume"] {
            guard let change = ProsodyValues.volume(volume.value) else {
                throw invalid(volume, "a keyword silent, x-soft … x-loud, or +6dB, -3dB")
            }
            var gain = change.applied(to: prosody.volumeDB)
            if gain > ProsodyValues.maxVolumeDB {
                gain = ProsodyValues.maxVolumeDB
                warnings.append(
                    SSMLDiagnostic(
                        element: "prosody",
                        message:
                            "volume '\(volume.value)' is clamped to +\(Int(ProsodyValues.maxVolumeDB))dB",
                        location: volume.location))
            }
            prosody.volumeDB = gain
        }
    }

    private func invalid(_ attribute: SSMLAttribute, _ expected: String) -> SSMLError {
        SSMLError(
            .malformed, "invalid \(attribute.name) '\(attribute.value)' in <prosody> (expected \(expected))",
            at: attribute.location)
    }

    private mutating func clamped(_ value: Double, _ attribute: SSMLAttribute) -> Double {
        let range = ProsodyValues.multiplierRange
        guard !range.contains(value) else { return value }
        let result = min(max(value, range.lowerBound), range.upperBound)
        warnings.append(
            SSMLDiagnostic(
                element: "prosody",
                message: "\(attribute.name) '\(attribute.value)' gives \(value)×, clamped to \(result)×",
                location: attribute.location))
        return result
    }

    private mutating func applyVoice(
        _ values: [String: SSMLAttribute], to attributes: inout TextAttributes, in name: String,
        at location: SourceLocation
    ) throws(SSMLError) {
        let voiceName = values["name"].map { String($0.value.trimmingSSMLWhitespace()) }
        var gender = values["gender"].map { $0.value.trimmingSSMLWhitespace().lowercased() }
        if let given = gender, !["male", "female", "neutral"].contains(given) {
            warnings.append(
                SSMLDiagnostic(
                    element: name, message: "gender '\(given)' is ignored (expected male, female or neutral)",
                    location: values["gender"]?.location))
            gender = nil
        }
        if voiceName?.isEmpty == false || gender != nil {
            attributes.voice = VoiceRequest(
                name: voiceName?.isEmpty == false ? voiceName : nil, gender: gender)
        } else if values["xml:lang"] != nil || values["language"] != nil {
            attributes.voice = nil  // a voice for that language, whichever it is
        } else {
            try warnOrThrow(name, "names no voice (expected name, gender or xml:lang)", at: location)
        }
    }

    /// `<audio src>`: the clip, with the content not spoken; or, when the file cannot be
    /// played, a warning and the content spoken instead.
    private mutating func startAudio(
        _ values: [String: SSMLAttribute], in frame: inout Frame, at location: SourceLocation
    ) throws(SSMLError) {
        let source = try required("src", of: "audio", in: values, at: location)
        for name in SSMLElement.ignoredAudioAttributes {
            guard let attribute = values[name] else { continue }
            warnings.append(
                SSMLDiagnostic(
                    element: "audio", message: "\(name) is not supported; the clip is played as recorded",
                    location: attribute.location))
        }
        var problem: String
        switch audioLoader.load(source.value, maxBytes: limits.maxAudioBytes) {
        case .success(let clip):
            guard audioSeconds + clip.duration <= limits.maxAudioSeconds else {
                problem =
                    "'\(source.value)' would make more than \(SegmentBuilder.format(limits.maxAudioSeconds)) s "
                    + "of recorded sound"
                break
            }
            audioSeconds += clip.duration
            try builder.appendAudio(clip, at: location)
            frame.suppressesText = true
            return
        case .failure(let failure):
            problem = failure.message
        }
        warnings.append(
            SSMLDiagnostic(
                element: "audio", message: "not played: \(problem); its content is spoken instead",
                location: source.location))
    }

    /// `<prosody duration>` in seconds, within ``ProsodyValues/durationRange`` (clamped, warned).
    private mutating func durationSeconds(_ attribute: SSMLAttribute) throws(SSMLError) -> Double {
        guard let seconds = BreakValues.time(attribute.value) else {
            throw invalid(attribute, "a time like 2s or 1500ms")
        }
        let range = ProsodyValues.durationRange
        guard !range.contains(seconds) else { return seconds }
        let result = min(max(seconds, range.lowerBound), range.upperBound)
        warnings.append(
            SSMLDiagnostic(
                element: "prosody",
                message: "duration '\(attribute.value)' is clamped to \(SegmentBuilder.format(result)) s",
                location: attribute.location))
        return result
    }

    /// Shares a `<prosody duration>` among the text the element holds, by length, after its
    /// pauses; warns when the pauses alone take the time.
    private mutating func fitDuration(_ duration: Double, since frame: Frame) throws(SSMLError) {
        try builder.flush()
        if !builder.distribute(duration: duration, from: frame.segmentCount) {
            warnings.append(
                SSMLDiagnostic(
                    element: "prosody",
                    message: "duration leaves no time for the text after its breaks; ignored",
                    location: frame.location))
        }
    }

    // MARK: - Helpers

    private func required(
        _ attribute: String, of element: String, in values: [String: SSMLAttribute],
        at location: SourceLocation
    ) throws(SSMLError) -> SSMLAttribute {
        guard let value = values[attribute], !value.value.trimmingSSMLWhitespace().isEmpty else {
            throw SSMLError(
                .malformed, "<\(element)> needs a non-empty '\(attribute)' attribute", at: location)
        }
        return value
    }

    /// A language tag (`en-US`, `de`, `zh-Hans-CN`); an invalid one is ignored with a warning.
    private mutating func language(_ attribute: SSMLAttribute, in element: String) -> String? {
        let tag = String(attribute.value.trimmingSSMLWhitespace())
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        let isValid =
            !parts.isEmpty
            && parts.allSatisfy { part in
                (1...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            } && parts[0].allSatisfy(\.isLetter)
        guard isValid else {
            warnings.append(
                SSMLDiagnostic(
                    element: element,
                    message: "'\(attribute.value)' is not a language tag like en-US; ignored",
                    location: attribute.location))
            return nil
        }
        return tag
    }

    /// A warning in lenient mode, an error in strict mode.
    private mutating func warnOrThrow(
        _ element: String, _ message: String, at location: SourceLocation
    ) throws(SSMLError) {
        if isStrict { throw SSMLError(.malformed, "<\(element)>: \(message) (strict mode)", at: location) }
        warnings.append(SSMLDiagnostic(element: element, message: message, location: location))
    }
}
