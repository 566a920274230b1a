/// English words spelled alike and read differently by part of speech, and the reading
/// `<w role>` (Amazon Polly's roles) picks for each, in eSpeak NG mnemonics.
///
/// Only words eSpeak NG itself reads both ways are listed, and each reading is eSpeak's own:
/// tests check every entry against `espeak_TextToPhonemes` of a sentence where eSpeak picks that
/// reading ("I have read it" → `r'Ed`), or, where eSpeak knows one reading only, of a word that
/// sounds the same ("led"). A role the word has no entry for leaves eSpeak's own choice.
public enum Heteronyms {
    /// A part of speech `<w role>` names.
    public enum Role: String, Sendable, CaseIterable {
        /// Verb, present (`amazon:VB`).
        case verb = "VB"
        /// Verb, past tense or past participle (`amazon:VBD`).
        case pastVerb = "VBD"
        /// Noun (`amazon:NN`).
        case noun = "NN"
        /// Adjective (`amazon:JJ`).
        case adjective = "JJ"
        /// The word's other sense (`amazon:SENSE_1`).
        case otherSense = "SENSE_1"

        /// The role a `role` attribute names (`amazon:VBD`, `VBD`, `vbd`), if it is one of these.
        public init?(attribute: String) {
            var name = Substring(attribute.trimmingSSMLWhitespace())
            if let colon = name.firstIndex(of: ":") { name = name[name.index(after: colon)...] }
            self.init(rawValue: name.uppercased())
        }
    }

    /// Word → role → eSpeak mnemonics.
    public static let readings: [String: [Role: String]] = [
        "read": [.verb: "r'i:d", .noun: "r'i:d", .pastVerb: "r'Ed"],
        "live": [.verb: "l'Iv", .adjective: "l'aIv"],
        "lead": [.verb: "l'i:d", .adjective: "l'i:d", .noun: "l'Ed", .otherSense: "l'Ed"],
        "wind": [.noun: "w'Ind", .verb: "w'aInd"],
        "close": [.verb: "kl'oUz", .noun: "kl'oUz", .adjective: "kl'oUs", .otherSense: "kl'oUs"],
    ]

    /// The eSpeak mnemonics for `text` (one word, any case) in `role`, or nil.
    public static func reading(of text: String, role: String) -> String? {
        guard let role = Role(attribute: role) else { return nil }
        let word = text.trimmingSSMLWhitespace().lowercased()
        return readings[word]?[role]
    }
}
