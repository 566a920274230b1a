/// A language the text normaliser has rules for.
///
/// Parsed from a BCP 47 tag or a two-letter code: `en`, `en-US`, `fr-CA`, `de_AT`, `es-MX`.
/// The region is kept only where it changes how something is read (`en-GB` says "oh" the same
/// way, but reads dates day-first by default).
public enum NormalizationLanguage: String, Sendable, Equatable, CaseIterable {
    case english = "en"
    case french = "fr"
    case german = "de"
    case spanish = "es"

    /// The language of a BCP 47 tag (`en-US`, `fr`, `de_CH`), or nil when it has no rules.
    public init?(tag: String) {
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map {
            $0.lowercased()
        }
        guard let primary, let language = NormalizationLanguage(rawValue: primary) else { return nil }
        self = language
    }
}

/// The grammatical gender a number word or ordinal agrees with.
public enum GrammaticalGender: String, Sendable, Equatable {
    case masculine, feminine, neuter
}

/// The grammatical case an ordinal agrees with (German).
public enum GrammaticalCase: String, Sendable, Equatable {
    case nominative, accusative, dative, genitive
}

/// The form an ordinal or a "one" takes where it stands: gender, case, number, and whether it
/// directly precedes its noun (Spanish *primer*/*tercer*) or follows a definite article
/// (German weak endings).
struct GrammaticalForm: Sendable, Equatable {
    var gender: GrammaticalGender?
    var grammaticalCase: GrammaticalCase?
    var isPlural = false
    var isBeforeNoun = false
    var hasDefiniteArticle = true
    /// An explicit German ending (`e`, `en`, `er`, `es`, `em`) from `detail`, which wins.
    var germanEnding: String?
}
