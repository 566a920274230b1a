/// The elements of the SSML subset, and the attributes each one understands.
enum SSMLElement: String, Sendable, CaseIterable {
    case speak, p, s, `break`, prosody, sayAs = "say-as", sub, phoneme, emphasis, lang, voice, mark, w
    /// SSML 1.1's `token` (read as `w`), recorded sound and its description, and the document
    /// information elements, which are accepted and never spoken.
    case token, audio, desc, meta, metadata, lexicon
    case amazonEffect = "amazon:effect"
    /// Long forms some generators write for `p` and `s`.
    case paragraph, sentence

    /// The attributes this element understands (besides `xmlns…`, which every element may carry).
    var attributes: Set<String> {
        switch self {
        case .speak: ["xml:lang", "version", "xml:base", "xsi:schemaLocation", "onlangfailure"]
        case .p, .s, .paragraph, .sentence: ["xml:lang"]
        case .break: ["time", "strength"]
        case .prosody: ["rate", "pitch", "volume", "duration", "contour"]
        case .sayAs: ["interpret-as", "format", "detail"]
        case .sub: ["alias"]
        case .phoneme: ["alphabet", "ph"]
        case .emphasis: ["level"]
        case .lang: ["xml:lang"]
        case .voice: ["name", "gender", "xml:lang", "language"]
        case .mark: ["name"]
        case .w, .token: ["role"]
        case .audio:
            [
                "src", "fetchtimeout", "fetchhint", "maxage", "maxstale", "clipBegin", "clipEnd",
                "repeatCount",
                "repeatDur", "soundLevel", "speed",
            ]
        case .desc: ["xml:lang"]
        case .meta: ["name", "content", "http-equiv"]
        case .metadata: []
        case .lexicon: ["uri", "type", "fetchtimeout", "fetchhint", "maxage", "maxstale"]
        case .amazonEffect: ["name"]
        }
    }

    /// SSML 1.1 elements (W3C Recommendation, 2010) this parser does not support, with why:
    /// `voiceguide check --strict` names them as standard but unsupported.
    static let unsupportedStandardElements: [String: String] = [
        "lookup": "pronunciations come from eSpeak's dictionaries and <phoneme>, not from <lexicon> files"
    ]

    /// `<audio>` attributes that would change the clip, which is played as recorded (the fetch
    /// attributes mean nothing offline and are accepted silently).
    static let ignoredAudioAttributes = [
        "clipBegin", "clipEnd", "repeatCount", "repeatDur", "soundLevel", "speed",
    ]

    /// The SSML namespace (`xmlns` of `<speak>`).
    static let namespace = "http://www.w3.org/2001/10/synthesis"

    /// `interpret-as` spellings, synonyms folded.
    static let interpretAsSynonyms: [String: InterpretAs] = {
        var table: [String: InterpretAs] = [:]
        for value in InterpretAs.allCases { table[value.rawValue] = value }
        table["spell-out"] = .characters
        table["verbatim"] = .characters
        table["number"] = .cardinal
        table["phone"] = .telephone
        table["bleep"] = .expletive
        table["money"] = .currency
        return table
    }()

    /// Whether a name is a namespace declaration or an `xml:` attribute every element may carry.
    static func isUniversalAttribute(_ name: String) -> Bool {
        name == "xmlns" || name.hasPrefix("xmlns:") || name == "xml:space" || name == "xml:id"
    }
}
