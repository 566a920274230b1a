/// The symbol tables behind ``IPAConverter``: IPA → eSpeak mnemonics per language, and
/// X-SAMPA → IPA. Every eSpeak value here was checked with `espeak-ng -v <voice> -x "[[…]]"`
/// (eSpeak NG 1.51): an unknown mnemonic makes eSpeak drop the rest of the word silently.
struct IPATables: Sendable {
    let map: [String: String]
    /// Keys that are vowels (a following `ː` lengthens them).
    let vowels: Set<String>
    let longestKey: Int
    /// The scalars a vowel key starts with.
    let vowelStarts: Set<Unicode.Scalar>

    init(vowels: [String: String], consonants: [String: String]) {
        var map = Self.common
        map.merge(consonants) { _, new in new }
        map.merge(vowels) { _, new in new }
        self.map = map
        self.vowels = Set(vowels.keys)
        longestKey = map.keys.map { $0.unicodeScalars.count }.max() ?? 1
        vowelStarts = Set(vowels.keys.compactMap(\.unicodeScalars.first))
    }

    static func table(for language: NormalizationLanguage) -> IPATables {
        switch language {
        case .english: english
        case .french: french
        case .german: german
        case .spanish: spanish
        }
    }

    /// Scalars dropped without a trace: syllable break, tie bars, linking, prosodic breaks
    /// (structure, not sound).
    static let ignored: Set<Unicode.Scalar> = [".", "\u{0361}", "\u{035C}", "‿", "|", "‖"]

    /// Diacritics and modifier letters eSpeak has no notation for: dropped, and named in a
    /// warning (aspiration, palatalised, labialised, unreleased, dental, voiceless, breathy,
    /// creaky, rhotic hook, extra-short, half-long, non-syllabic and syllabic marks, nasalised
    /// where the language has no nasal vowels, raised/lowered, more/less rounded, centralised).
    static let droppedDiacritics: Set<Unicode.Scalar> = [
        "ʰ", "ʲ", "ʷ", "ˠ", "ˤ", "ⁿ", "ˡ", "ˑ", "\u{031A}", "\u{032A}", "\u{0325}", "\u{030A}", "\u{0324}",
        "\u{0330}", "\u{02DE}", "\u{0306}", "\u{032F}", "\u{0329}", "\u{0303}", "\u{031D}", "\u{031E}",
        "\u{0339}", "\u{031C}", "\u{0308}", "\u{033D}", "\u{0318}", "\u{0319}",
    ]

    /// Symbols every language shares (stress, plain consonants).
    private static let common: [String: String] = [
        "ˈ": "'", "ˌ": ",", "'": "'", ",": ",",
        "p": "p", "b": "b", "t": "t", "d": "d", "k": "k", "g": "g", "ɡ": "g", "f": "f", "v": "v",
        "s": "s", "z": "z", "ʃ": "S", "ʒ": "Z", "h": "h", "m": "m", "n": "n", "ŋ": "N", "l": "l",
        "j": "j", "w": "w", "tʃ": "tS", "dʒ": "dZ", "x": "x", "ʔ": "?",
    ]

    static let english = IPATables(
        vowels: [
            "eɪ": "eI", "aɪ": "aI", "aʊ": "aU", "ɔɪ": "OI", "oʊ": "oU", "əʊ": "oU", "ɪə": "i@", "ʊə": "U@",
            "eə": "e@", "ɛə": "e@", "ɑː": "A:", "ɑ": "A:", "ɒ": "0", "ɔː": "O:", "ɔ": "O:", "æ": "a",
            "a": "a", "ɛ": "E", "e": "E", "ɪ": "I", "iː": "i:", "i": "i", "ʊ": "U", "uː": "u:", "u": "u:",
            "ʌ": "V", "ə": "@", "ɚ": "3", "ɜː": "3:", "ɜ": "3:", "ɝ": "3:", "ɐ": "a#", "ɨ": "I2", "ᵻ": "I2",
            "o": "oU", "oː": "O:", "ɜːɹ": "3:", "ɪɹ": "i@3", "ɛɹ": "e@", "ɑːɹ": "A@", "ɑɹ": "A@",
            "ɔːɹ": "O@", "ɔɹ": "O@", "ʊɹ": "U@",
            // Diphthongs written with plain second vowels or a non-syllabic mark (ei, ei̯, ou̯).
            "ei": "eI", "ai": "aI", "au": "aU", "oi": "OI", "ɔi": "OI", "ou": "oU", "ei̯": "eI", "ai̯": "aI",
            "au̯": "aU", "oi̯": "OI", "ɔi̯": "OI", "ou̯": "oU", "eɪ̯": "eI", "aɪ̯": "aI", "aʊ̯": "aU", "ɔɪ̯": "OI",
            "oʊ̯": "oU", "əʊ̯": "oU",
            // R-coloured vowels written with r, as dictionaries do (ər, ɔːr); only before a
            // consonant or the end (see `IPAConverter`), else the r starts the next syllable.
            "ər": "3", "ɜːr": "3:", "ɜr": "3:", "ɪr": "i@3", "ɛr": "e@", "ɑːr": "A@", "ɑr": "A@", "ɔːr": "O@",
            "ɔr": "O@", "ʊr": "U@", "əɹ": "3",
        ],
        consonants: [
            "θ": "T", "ð": "D", "ɹ": "r", "r": "r", "ɾ": "t#", "ɫ": "l", "ʍ": "w", "n̩": "n-", "l̩": "@L",
            "m̩": "m", "t͡ʃ": "tS", "d͡ʒ": "dZ",
        ])

    static let french = IPATables(
        vowels: [
            "a": "a", "ɑ": "a", "aː": "a:", "e": "e", "ɛ": "E", "ɛː": "E:", "i": "i", "o": "o", "ɔ": "O",
            "u": "u", "y": "y", "ø": "Y", "œ": "W", "ə": "@", "ɑ̃": "A~", "ɛ̃": "E~", "ɔ̃": "O~", "œ̃": "W~",
            "ɐ̃": "A~",
        ],
        consonants: [
            "ʁ": "r", "ʀ": "r", "r": "r", "ɲ": "n^", "ɥ": "y", "ɡ": "g", "t͡ʃ": "tS", "d͡ʒ": "dZ",
        ])

    static let german = IPATables(
        vowels: [
            "a": "a", "aː": "a:", "ɑː": "A:", "ɐ": "3", "ɛ": "E", "ɛː": "E:", "eː": "e:", "e": "e", "ɪ": "I",
            "iː": "i:", "i": "i", "ɔ": "O", "oː": "o:", "o": "o", "ʊ": "U", "uː": "u:", "u": "u", "ʏ": "y",
            "yː": "y:", "y": "y", "œ": "W", "øː": "Y:", "ø": "Y:", "ə": "@", "aɪ": "aI", "aʊ": "aU",
            "ɔʏ": "OY", "ɔø": "OY", "ɐ̯": "3", "aɪ̯": "aI", "aʊ̯": "aU", "ɔʏ̯": "OY", "ɔɪ̯": "OY", "ai": "aI",
            "au": "aU", "ɔy": "OY", "ai̯": "aI", "au̯": "aU",
        ],
        consonants: [
            "ç": "C", "χ": "x", "ʁ": "r", "r": "r", "ʀ": "r", "ɾ": "r", "ts": "ts", "pf": "pF",
            "t͡s": "ts", "p͡f": "pF", "t͡ʃ": "tS",
        ])

    static let spanish = IPATables(
        vowels: [
            "a": "a", "e": "e", "i": "i", "o": "o", "u": "u", "ɛ": "e", "ɔ": "o",
        ],
        consonants: [
            "β": "B", "ð": "D", "ɣ": "Q", "θ": "T", "ɾ": "*", "r": "R", "ɲ": "n^", "ʎ": "l^", "ʝ": "J^",
            "t͡ʃ": "tS",
        ])

    /// X-SAMPA → IPA, the standard table (consonants, vowels, diacritics, suprasegmentals).
    static let xsampa: [String: String] = [
        "a": "a", "b": "b", "c": "c", "d": "d", "e": "e", "f": "f", "g": "ɡ", "h": "h", "i": "i",
        "j": "j", "k": "k", "l": "l", "m": "m", "n": "n", "o": "o", "p": "p", "q": "q", "r": "r",
        "s": "s", "t": "t", "u": "u", "v": "v", "w": "w", "x": "x", "y": "y", "z": "z",
        "A": "ɑ", "B": "β", "C": "ç", "D": "ð", "E": "ɛ", "F": "ɱ", "G": "ɣ", "H": "ɥ", "I": "ɪ",
        "J": "ɲ", "K": "ɬ", "L": "ʎ", "M": "ɯ", "N": "ŋ", "O": "ɔ", "P": "ʋ", "Q": "ɒ", "R": "ʁ",
        "S": "ʃ", "T": "θ", "U": "ʊ", "V": "ʌ", "W": "ʍ", "X": "χ", "Y": "ʏ", "Z": "ʒ",
        "\"": "ˈ", "%": "ˌ", ":": "ː", ":\\": "ˑ", "@": "ə", "{": "æ", "}": "ʉ", "1": "ɨ", "2": "ø",
        "3": "ɜ", "4": "ɾ", "5": "ɫ", "6": "ɐ", "7": "ɤ", "8": "ɵ", "9": "œ", "&": "ɶ", "?": "ʔ",
        "r\\": "ɹ", "3`": "ɝ", "@`": "ɚ", "r`": "ɽ", "r\\`": "ɻ", "R\\": "ʀ", "?\\": "ʕ", "j\\": "ʝ",
        "X\\": "ħ", "h\\": "ɦ", "s\\": "ɕ", "z\\": "ʑ", "l`": "ɭ", "n`": "ɳ", "t`": "ʈ", "d`": "ɖ",
        "s`": "ʂ", "z`": "ʐ", "N\\": "ɴ", "L\\": "ʟ", "G\\": "ɢ", "4\\": "ɺ", "M\\": "ɰ", "B\\": "ʙ",
        "I\\": "ᵻ", "U\\": "ᵿ", "1\\": "ɘ", "@\\": "ɘ", "2\\": "ø",
        "tS": "tʃ", "dZ": "dʒ", "ts": "ts", "dz": "dz", "pf": "pf",
        "~": "\u{0303}", "_~": "\u{0303}", "=": "\u{0329}", "_=": "\u{0329}", "_h": "ʰ", "_j": "ʲ",
        "_^": "\u{032F}", "_0": "\u{0325}", "_d": "\u{032A}", "-": "", ".": ".", "_": "", "'": "ʲ",
    ]
}
