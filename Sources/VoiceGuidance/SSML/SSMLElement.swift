/// The elements of the SSML subset, and the attributes each one understands.
enum SSMLElement: String, Sendable, CaseIterable {
    case speak, p, s, `break`, prosody, sayAs = "say-as", sub, phoneme, emphasis, lang, voice, mark, w
    case amazonEffect = "amazon:effect"
    /// Long forms some generators write for `p` and `s`.
    case paragraph, sentence

    /// The attributes this element understands (besides `xmlns…`, which every element may carry).
    var attributes: Set<String> {
        switch self {
        case .speak: ["xml:lang", "version", "xml:base", "xsi:schemaLocation"]
        case .p, .s, .paragraph, .sentence: ["xml:lang"]
        case .break: ["time", "strength"]
        case .prosody: ["rate", "pitch", "volume"]
        case .sayAs: ["interpret-as", "format", "detail"]
        case .sub: ["alias"]
        case .phoneme: ["alphabet", "ph"]
        case .emphasis: ["level"]
        case .lang: ["xml:lang"]
        case .voice: ["name", "gender", "xml:lang", "language"]
        case .mark: ["name"]
        case .w: ["role"]
        case .amazonEffect: ["name"]
        }
    }

    /// `interpret-as` spellings, synonyms folded.
    static let interpretAsSynonyms: [String: InterpretAs] = {
        var table: [String: InterpretAs] = [:]
        for value in InterpretAs.allCases { table[value.rawValue] = value }
        table["spell-out"] = .characters
        table["verbatim"] = .characters
        table["number"] = .cardinal
        table["phone"] = .telephone
        table["bleep"] = .expletive
        return table
    }()

    /// Whether a name is a namespace declaration or an `xml:` attribute every element may carry.
    static func isUniversalAttribute(_ name: String) -> Bool {
        name == "xmlns" || name.hasPrefix("xmlns:") || name == "xml:space" || name == "xml:id"
    }
}
