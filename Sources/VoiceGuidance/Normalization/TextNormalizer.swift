import Foundation

/// Rewrites the text of an utterance into what eSpeak NG should read, per language: resolves
/// `say-as`, converts `<phoneme>` to eSpeak mnemonics, and reads road refs, house and exit
/// numbers, distances and abbreviations the way people say them.
///
/// Languages with rules: English, French, German, Spanish (``NormalizationLanguage``). Text in
/// another language passes through unchanged, with a warning. Everything the normaliser does,
/// and where each rule stops, is listed in `Normalization/Normalization.docc/RULES.md`.
///
/// `say-as` kinds: `characters`, `cardinal`, `ordinal` (gender/case from `detail` or the words
/// around it — see ``normalize(_:)``), `digits`, `fraction`, `unit`, `date` (+`format`), `time`,
/// `telephone`, `address`, `expletive` (kept, so the renderer can beep over it).
///
/// The normaliser is a value with precomputed tables; it does no regex compilation and no
/// allocation beyond the output strings, so it is cheap enough to run on every prompt.
public struct TextNormalizer: Sendable {
    /// The language used for segments that name none (and for an utterance without `xml:lang`).
    public let language: String
    /// The rules for `language`, or nil when it has none (pass-through).
    public let normalizationLanguage: NormalizationLanguage?

    /// A normaliser whose default language is `language` (BCP 47 or two-letter: `en-US`, `fr`).
    public init(language: String) {
        self.language = language
        normalizationLanguage = NormalizationLanguage(tag: language)
    }

    /// Whether this normaliser has rules for its default language.
    public var hasRules: Bool { normalizationLanguage != nil }

    /// The utterance with every text segment rewritten for eSpeak.
    ///
    /// Per segment, the language is `segment.language ?? utterance.language ?? language`.
    /// - `say-as` is resolved to plain words and `sayAs` cleared, except `expletive`, which
    ///   stays so the renderer can replace the audio by a beep.
    /// - `<phoneme>` is converted to eSpeak mnemonics in `espeakPhonemes`; a symbol with no
    ///   mapping leaves `espeakPhonemes` nil (the text is spoken) and adds a warning naming it.
    /// - Ordinals take gender and case from `detail` when given (`masculine`/`feminine`/`neuter`,
    ///   `nominative`/`accusative`/`dative`/`genitive`, `plural`, a German ending such as `en`,
    ///   or `before-noun` for Spanish *primer*), else from the article before and the noun after
    ///   (neighbouring segments included): "la" + 3 → *troisième*, *tercera*; "an der" + 3 +
    ///   "Ausfahrt" → *dritten*.
    /// - Complexity: O(n) in the length of the text.
    public func normalize(_ utterance: Utterance) -> Utterance {
        var result = utterance
        var warned: Set<String> = []
        for index in result.segments.indices {
            guard case .text(var segment) = result.segments[index] else { continue }
            let tag = segment.language ?? utterance.language ?? language
            guard let language = NormalizationLanguage(tag: tag) else {
                if !warned.contains(tag) {
                    warned.insert(tag)
                    result.warnings.append(
                        SSMLDiagnostic(
                            message:
                                "no text normalisation rules for language '\(tag)'; text passed to eSpeak as is",
                            location: segment.location))
                }
                continue
            }
            let tables = Self.tables(for: language)
            if let phoneme = segment.phoneme {
                switch IPAConverter.conversion(phoneme, language: language) {
                case .success(let conversion):
                    segment.espeakPhonemes = conversion.mnemonics
                    if let warning = conversion.warning {
                        result.warnings.append(
                            SSMLDiagnostic(element: "phoneme", message: warning, location: segment.location))
                    }
                case .failure(let error):
                    segment.espeakPhonemes = nil
                    result.warnings.append(
                        SSMLDiagnostic(
                            element: "phoneme", message: "\(error.description); the text is spoken instead",
                            location: segment.location))
                }
            }
            if let sayAs = segment.sayAs {
                if sayAs.interpretAs != .expletive {
                    let form = grammaticalForm(
                        detail: sayAs.detail, segments: result.segments, at: index, tables: tables)
                    if let words = tables.sayAs.interpret(segment.text, as: sayAs, form: form) {
                        if sayAs.interpretAs == .address {
                            spellRoutePrefix(
                                before: index, in: &result, tables: tables, address: segment.text)
                        }
                        segment.text = preservingOuterSpace(segment.text, words)
                    } else {
                        result.warnings.append(
                            SSMLDiagnostic(
                                element: "say-as",
                                message:
                                    "cannot read \"\(segment.text)\" as \(sayAs.interpretAs.rawValue)\(sayAs.format.map { " (format \($0))" } ?? ""); text left to eSpeak",
                                location: segment.location))
                        segment.text = tables.rewriter.rewrite(segment.text)
                    }
                    segment.sayAs = nil
                }
            } else if language == .english, segment.phoneme == nil, let role = segment.role,
                let reading = Heteronyms.reading(of: segment.text, role: role)
            {
                segment.espeakPhonemes = reading
            } else {
                segment.text = tables.rewriter.rewrite(segment.text)
            }
            result.segments[index] = .text(segment)
        }
        WeakFormArticles.apply(to: &result.segments) { segment in
            NormalizationLanguage(tag: segment.language ?? utterance.language ?? language) == .english
        }
        return result
    }

    /// Plain text rewritten for eSpeak in this normaliser's language (road refs, numbers,
    /// distances, abbreviations); unchanged when the language has no rules.
    public func normalize(text: String) -> String {
        guard let normalizationLanguage else { return text }
        return Self.tables(for: normalizationLanguage).rewriter.rewrite(text)
    }

    // MARK: - Internals

    /// Precomputed per-language helpers, built once per process.
    struct Tables: Sendable {
        let rewriter: NavigationTextRewriter
        let sayAs: SayAsInterpreter
    }

    private static let allTables: [NormalizationLanguage: Tables] = Dictionary(
        uniqueKeysWithValues: NormalizationLanguage.allCases.map {
            (
                $0,
                Tables(rewriter: NavigationTextRewriter(language: $0), sayAs: SayAsInterpreter(language: $0))
            )
        })

    static func tables(for language: NormalizationLanguage) -> Tables { allTables[language]! }

    /// "US <say-as address>101</say-as>": spells the route prefix that ends the text segment
    /// right before an address starting with a digit ("U S one oh one").
    private func spellRoutePrefix(
        before index: Int, in utterance: inout Utterance, tables: Tables, address: String
    ) {
        guard address.first(where: { !$0.isWhitespace })?.isNumber == true, index > 0,
            case .text(var previous) = utterance.segments[index - 1], previous.sayAs == nil,
            previous.espeakPhonemes == nil,
            let spelled = tables.rewriter.spellingTrailingRoutePrefix(previous.text)
        else { return }
        previous.text = spelled
        utterance.segments[index - 1] = .text(previous)
    }

    /// Keeps the spaces around a say-as element's text (`" 3 "` → `" third "`).
    private func preservingOuterSpace(_ original: String, _ words: String) -> String {
        let leading = original.prefix(while: \.isWhitespace)
        let trailing = String(original.reversed().prefix(while: \.isWhitespace).reversed())
        return leading + words + trailing
    }

    /// The grammatical form for a say-as at `index`: `detail` first, then the last word of the
    /// text before and the first word of the text after.
    private func grammaticalForm(detail: String?, segments: [Segment], at index: Int, tables: Tables)
        -> GrammaticalForm
    {
        var before = ""
        var after = ""
        var k = index - 1
        while k >= 0 {
            if case .text(let text) = segments[k] {
                before = text.text
                break
            }
            if case .pause = segments[k] { break }
            k -= 1
        }
        k = index + 1
        while k < segments.count {
            if case .text(let text) = segments[k] {
                after = text.text
                break
            }
            if case .pause = segments[k] { break }
            k += 1
        }
        let context = before + " 0 " + after
        let tokens = TextToken.tokenize(context)
        let position = TextToken.tokenize(before).count + 1
        var form = tables.rewriter.context(tokens, before: position, after: position + 1)
        guard let detail else { return form }
        for word in detail.lowercased().split(whereSeparator: { " ,;-_".contains($0) }) {
            switch word {
            case "m", "masc", "masculine": form.gender = .masculine
            case "f", "fem", "feminine": form.gender = .feminine
            case "n", "neut", "neuter": form.gender = .neuter
            case "nom", "nominative": form.grammaticalCase = .nominative
            case "acc", "accusative": form.grammaticalCase = .accusative
            case "dat", "dative": form.grammaticalCase = .dative
            case "gen", "genitive": form.grammaticalCase = .genitive
            case "pl", "plural": form.isPlural = true
            case "sg", "singular": form.isPlural = false
            case "before", "noun", "attributive": form.isBeforeNoun = true
            case "definite": form.hasDefiniteArticle = true
            case "indefinite", "strong": form.hasDefiniteArticle = false
            case "e", "en", "er", "es", "em": form.germanEnding = String(word)
            default: continue
            }
        }
        return form
    }
}
