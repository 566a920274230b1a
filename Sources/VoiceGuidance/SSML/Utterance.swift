/// What a parsed SSML document says: a flat list of segments a renderer plays in order.
///
/// The parser flattens nesting: each text segment carries the prosody, language, voice,
/// say-as, phoneme and effect in force where it stands, so a renderer never walks a tree.
public struct Utterance: Sendable, Equatable {
    /// The segments in speaking order.
    public var segments: [Segment]
    /// The document language (`<speak xml:lang>`), if given.
    public var language: String?
    /// Non-fatal findings: vendor tags kept as text, clamped values, unknown attributes.
    public var warnings: [SSMLDiagnostic]

    public init(segments: [Segment] = [], language: String? = nil, warnings: [SSMLDiagnostic] = []) {
        self.segments = segments
        self.language = language
        self.warnings = warnings
    }

    /// An utterance of plain text in default prosody.
    public init(text: String) {
        self.init(segments: [.text(TextSegment(text: text))])
    }

    /// The text that would be spoken, segments joined by spaces (for logs and fallbacks).
    public var plainText: String {
        segments.compactMap { segment -> String? in
            if case .text(let text) = segment { return text.text }
            return nil
        }
        .joined(separator: " ")
    }
}

/// One piece of an utterance.
public enum Segment: Sendable, Equatable {
    /// Text to speak with its attributes.
    case text(TextSegment)
    /// Silence written by the renderer (`<break>`, or the pause of `<p>` / `<s>`).
    case pause(Pause)
    /// A named position (`<mark name>`); the renderer reports its sample offset.
    case mark(String)
    /// A recorded sound (`<audio src>`), played as it is, resampled to the voice's rate.
    case audio(AudioClip)
}

/// A silence between segments.
public enum Pause: Sendable, Equatable {
    /// An exact length in seconds (`<break time="1.5s"/>`), already clamped by the parser.
    case seconds(Double)
    /// A strength (`<break strength="strong"/>`, or a sentence / paragraph end).
    case strength(BreakStrength)

    /// The pause's length in seconds.
    public var seconds: Double {
        switch self {
        case .seconds(let value): value
        case .strength(let strength): strength.seconds
        }
    }
}

/// SSML break strengths, with the lengths we give them.
public enum BreakStrength: String, Sendable, Equatable, CaseIterable {
    case none, xWeak = "x-weak", weak, medium, strong, xStrong = "x-strong"

    /// Length in seconds (Polly's and most engines' values, rounded).
    public var seconds: Double {
        switch self {
        case .none: 0
        case .xWeak: 0.1
        case .weak: 0.25
        case .medium: 0.4
        case .strong: 0.7
        case .xStrong: 1.0
        }
    }
}

/// A run of text and everything in force over it.
public struct TextSegment: Sendable, Equatable {
    /// The text to speak (for `<sub>`, the alias; for `<phoneme>`, the written fallback).
    public var text: String
    /// Rate, pitch and volume.
    public var prosody: Prosody
    /// The language in force (`xml:lang` of the nearest `lang`, `voice`, `p`, `s` or `speak`).
    public var language: String?
    /// A voice asked for by `<voice name>` or `<voice gender>`.
    public var voice: VoiceRequest?
    /// How to read the text (`<say-as>`).
    public var sayAs: SayAs?
    /// A pronunciation given by `<phoneme>`.
    public var phoneme: PhonemeSpec?
    /// Phonemes in eSpeak's own mnemonics, set by normalisation from `phoneme`; spoken instead of `text`.
    public var espeakPhonemes: String?
    /// `<emphasis level>`.
    public var emphasis: EmphasisLevel?
    /// Inside `<amazon:effect name="drc">`: compress the dynamic range of these samples.
    public var isCompressed: Bool
    /// The word's part of speech from `<w role>` / `<token role>` (`amazon:VBD`), which picks
    /// the reading of a heteronym ("read" as /ɹɛd/).
    public var role: String?
    /// The position in the SSML source where this text starts (1-based), for diagnostics.
    public var location: SourceLocation?

    public init(
        text: String, prosody: Prosody = Prosody(), language: String? = nil,
        voice: VoiceRequest? = nil, sayAs: SayAs? = nil, phoneme: PhonemeSpec? = nil,
        espeakPhonemes: String? = nil, emphasis: EmphasisLevel? = nil, isCompressed: Bool = false,
        role: String? = nil, location: SourceLocation? = nil
    ) {
        self.text = text
        self.prosody = prosody
        self.language = language
        self.voice = voice
        self.sayAs = sayAs
        self.phoneme = phoneme
        self.espeakPhonemes = espeakPhonemes
        self.emphasis = emphasis
        self.isCompressed = isCompressed
        self.role = role
        self.location = location
    }
}

/// Prosody relative to the voice profile's defaults; nested `<prosody>` elements multiply/add.
public struct Prosody: Sendable, Equatable {
    /// Speaking-rate multiplier: 1 is the voice's rate, 1.5 is `rate="150%"`.
    public var rate: Double
    /// Pitch multiplier of the fundamental: 1 is the voice's pitch; `+2st` is 2^(2/12).
    public var pitch: Double
    /// Gain in decibels added to the voice's volume; `-infinity` is `silent`.
    public var volumeDB: Double
    /// How long this text should last when spoken, in seconds (`<prosody duration>`, shared
    /// among the element's text segments by length); the renderer picks the rate that fits.
    public var duration: Double?

    public init(rate: Double = 1, pitch: Double = 1, volumeDB: Double = 0, duration: Double? = nil) {
        self.rate = rate
        self.pitch = pitch
        self.volumeDB = volumeDB
        self.duration = duration
    }
}

/// `<say-as interpret-as format detail>`.
public struct SayAs: Sendable, Equatable {
    public var interpretAs: InterpretAs
    public var format: String?
    public var detail: String?

    public init(interpretAs: InterpretAs, format: String? = nil, detail: String? = nil) {
        self.interpretAs = interpretAs
        self.format = format
        self.detail = detail
    }
}

/// The `interpret-as` values we support (synonyms folded: `spell-out` is `characters`,
/// `number` is `cardinal`).
public enum InterpretAs: String, Sendable, Equatable, CaseIterable {
    case characters, cardinal, ordinal, digits, fraction, unit, date, time, telephone, address,
        expletive, currency
}

/// `<phoneme alphabet ph>`.
public struct PhonemeSpec: Sendable, Equatable {
    public enum Alphabet: String, Sendable, Equatable {
        case ipa, xSampa = "x-sampa"
    }
    public var alphabet: Alphabet
    public var symbols: String

    public init(alphabet: Alphabet, symbols: String) {
        self.alphabet = alphabet
        self.symbols = symbols
    }
}

/// `<voice name gender>`.
public struct VoiceRequest: Sendable, Equatable {
    public var name: String?
    public var gender: String?

    public init(name: String? = nil, gender: String? = nil) {
        self.name = name
        self.gender = gender
    }
}

/// `<emphasis level>`.
public enum EmphasisLevel: String, Sendable, Equatable, CaseIterable {
    case strong, moderate, none, reduced
}

/// A 1-based line and column in SSML source, counted in characters.
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// A warning about SSML that still produced an utterance.
public struct SSMLDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The element it is about (`amazon:breath`), if any.
    public var element: String?
    public var message: String
    public var location: SourceLocation?

    public init(element: String? = nil, message: String, location: SourceLocation? = nil) {
        self.element = element
        self.message = message
        self.location = location
    }

    public var description: String {
        let place = location.map { "\($0): " } ?? ""
        let name = element.map { "<\($0)>: " } ?? ""
        return "\(place)warning: \(name)\(message)"
    }
}

/// SSML that cannot be spoken: malformed markup, a limit exceeded, or bytes that are not UTF-8.
public struct SSMLError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The markup is not well-formed XML, or an element/attribute is invalid.
        case malformed
        /// Input size, nesting depth, segment count or total break time is over its limit.
        case limitExceeded
        /// The input bytes are not valid UTF-8.
        case invalidEncoding
    }
    public var kind: Kind
    public var message: String
    public var location: SourceLocation?

    public init(_ kind: Kind, _ message: String, at location: SourceLocation? = nil) {
        self.kind = kind
        self.message = message
        self.location = location
    }

    public var description: String {
        let place = location.map { "\($0): " } ?? ""
        return "\(place)error: \(message)"
    }
}
