import VoiceGuidance

/// Chooses the eSpeak NG voice name for each text segment: the profile's voice, another
/// language's voice for `xml:lang`, or the voice a `<voice>` element asks for.
struct ESpeakVoiceResolver: Sendable {
    /// The installed voices that can be selected (MBROLA ones left out: their synthesizer is absent).
    let voices: [ESpeakVoice]

    init(installed: [ESpeakVoice]) {
        voices = installed.filter { !$0.isMBROLA }
    }

    /// Whether `name` (`mb-de1`, `mb/mb-de1+f3`) names an MBROLA voice, which cannot be used:
    /// the MBROLA synthesizer is not part of eSpeak NG, and selecting one without it fails after
    /// printing to stderr. eSpeak NG names all of them `mb-…` in the folder `mb/`.
    func isMBROLA(_ name: String) -> Bool {
        let base = name.lowercased()
        return base.hasPrefix("mb-") || base.hasPrefix("mb/")
    }

    /// The eSpeak variant a `<voice gender>` asks for, or nil to keep the profile's.
    static func variant(forGender gender: String) -> String? {
        switch gender.lowercased() {
        case "female": "f3"
        case "male": "m3"
        default: nil
        }
    }

    /// The profile's own voice name, with its variant (`en-us+f3`).
    func profileVoiceName(_ profile: VoiceProfile) -> String {
        Self.name(profile.espeakVoice, variant: profile.variant)
    }

    /// The voice name for `segment`, and warnings for requests that could not be met.
    func voiceName(for segment: TextSegment, profile: VoiceProfile) -> (name: String, warnings: [String]) {
        var warnings: [String] = []
        var base = profile.espeakVoice
        var variant = profile.variant
        var chosenByName = false
        if let request = segment.voice {
            if let name = request.name, !name.isEmpty {
                let parts = name.split(separator: "+", maxSplits: 1).map(String.init)
                if let voice = voice(named: parts[0]) {
                    if let refusal = refusal(voice, profile) {
                        warnings.append(refusal)
                    } else {
                        base = voice.identifier
                        chosenByName = true
                        if parts.count > 1 { variant = parts[1] }
                    }
                } else {
                    warnings.append(
                        "<voice name=\"\(name)\"> is not an installed eSpeak NG voice; "
                            + "keeping \(profileVoiceName(profile))")
                }
            }
            if let gender = request.gender, let genderVariant = Self.variant(forGender: gender) {
                variant = genderVariant
            }
        }
        if !chosenByName, let language = segment.language, !language.isEmpty {
            switch match(language: language, profile: profile) {
            case .profile:
                break
            case .voice(let voice):
                if let refusal = refusal(voice, profile) {
                    warnings.append(refusal)
                } else {
                    base = voice.identifier
                }
            case .none:
                warnings.append(
                    "no installed eSpeak NG voice speaks '\(language)'; keeping \(profileVoiceName(profile))")
            }
        }
        return (Self.name(base, variant: variant), warnings)
    }

    /// Why `voice` is not used (it is not among the voices checked for libespeak-ng 1.51's
    /// memory faults: ``ESpeakUnsafeCharacters/isUsable(identifier:)``), or nil when it may be.
    private func refusal(_ voice: ESpeakVoice, _ profile: VoiceProfile) -> String? {
        guard !ESpeakUnsafeCharacters.isUsable(identifier: voice.identifier) else { return nil }
        return "the eSpeak NG voice \(voice.identifier) is not used: it is not among the voices "
            + "checked for libespeak-ng 1.51's memory faults (Tools/espeak-scan); keeping "
            + "\(profileVoiceName(profile))"
    }

    private enum LanguageMatch {
        case profile
        case voice(ESpeakVoice)
        case none
    }

    /// The voice for a BCP 47 tag: the profile's when the language is the profile's (and no
    /// other region is asked for), else an installed voice for the exact tag, then the language.
    private func match(language tag: String, profile: VoiceProfile) -> LanguageMatch {
        let wanted = Self.normalized(tag)
        let primary = String(wanted.prefix { $0 != "-" })
        let hasRegion = wanted.contains("-")
        if wanted == Self.normalized(profile.locale) || wanted == Self.normalized(profile.espeakVoice) {
            return .profile
        }
        if primary == profile.language && !hasRegion { return .profile }
        if let exact = preferredVoice(speaking: wanted) { return .voice(exact) }
        if primary == profile.language { return .profile }
        if let general = preferredVoice(speaking: primary) { return .voice(general) }
        if let related = voices.first(where: {
            $0.languages.contains { Self.normalized($0).hasPrefix(primary + "-") }
        }) {
            return .voice(related)
        }
        return .none
    }

    /// The voice eSpeak prefers for a language (lowest priority number, then list order).
    private func preferredVoice(speaking language: String) -> ESpeakVoice? {
        var best: (voice: ESpeakVoice, priority: Int)?
        for voice in voices {
            guard let priority = voice.priority(of: language) else { continue }
            if best == nil || priority < best!.priority { best = (voice, priority) }
        }
        return best?.voice
    }

    /// An installed voice by display name, identifier, the identifier's last part, or language.
    func voice(named name: String) -> ESpeakVoice? {
        let wanted = Self.normalized(name)
        return voices.first { Self.normalized($0.name) == wanted || Self.normalized($0.identifier) == wanted }
            ?? voices.first {
                Self.normalized(String($0.identifier.split(separator: "/").last ?? "")) == wanted
            }
            ?? preferredVoice(speaking: wanted)
    }

    /// A short list of installed voices for error messages (`de (gmw/de), en-us (gmw/en-US), …`).
    func summary() -> String {
        voices.map { voice in
            let language = voice.languages.first ?? voice.name
            return "\(language) (\(voice.identifier))"
        }
        .sorted()
        .joined(separator: ", ")
    }

    private static func name(_ base: String, variant: String?) -> String {
        guard let variant, !variant.isEmpty else { return base }
        return "\(base)+\(variant)"
    }

    private static func normalized(_ tag: String) -> String {
        tag.lowercased().replacingOccurrences(of: "_", with: "-")
    }
}
