import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// Parses `input` (SSML or plain text) and normalises it in `language`; returns the text handed
/// to eSpeak with whitespace collapsed, and the warnings.
private func normalized(_ input: String, language: String) throws -> (
    text: String, warnings: [SSMLDiagnostic]
) {
    let utterance = try SSMLParser().parse(input)
    let result = TextNormalizer(language: language).normalize(utterance)
    let text = result.plainText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return (text, result.warnings)
}

@Suite struct TextNormalizerTests {
    @Test(arguments: NormalizationGoldenCases.english)
    func english(_ golden: NormalizationGoldenCases.Case) throws { try check(golden) }

    @Test(arguments: NormalizationGoldenCases.french)
    func french(_ golden: NormalizationGoldenCases.Case) throws { try check(golden) }

    @Test(arguments: NormalizationGoldenCases.german)
    func german(_ golden: NormalizationGoldenCases.Case) throws { try check(golden) }

    @Test(arguments: NormalizationGoldenCases.spanish)
    func spanish(_ golden: NormalizationGoldenCases.Case) throws { try check(golden) }

    private func check(_ golden: NormalizationGoldenCases.Case) throws {
        let (text, warnings) = try normalized(golden.input, language: golden.language)
        #expect(text == golden.expected)
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test func everyLanguageHasAtLeastFortyCasesCoveringEverySayAsKind() {
        for cases in [
            NormalizationGoldenCases.english, NormalizationGoldenCases.french,
            NormalizationGoldenCases.german, NormalizationGoldenCases.spanish,
        ] {
            #expect(cases.count >= 40)
            for kind in InterpretAs.allCases where kind != .expletive {
                let spellings = kind == .characters ? ["characters", "spell-out"] : [kind.rawValue]
                let covered = cases.contains { golden in
                    spellings.contains { golden.input.contains("interpret-as=\"\($0)\"") }
                        || (kind == .cardinal && golden.input.contains("interpret-as=\"number\""))
                }
                #expect(covered, "\(cases.first!.language) lacks say-as \(kind)")
            }
        }
    }

    @Test(arguments: ["en", "fr", "de", "es"])
    func expletiveKeepsItsTextAndMarkForTheBeep(language: String) throws {
        let utterance = try SSMLParser().parse(
            "<speak>Oh <say-as interpret-as=\"expletive\">damn</say-as> it</speak>")
        let result = TextNormalizer(language: language).normalize(utterance)
        let expletives = result.segments.compactMap { segment -> TextSegment? in
            if case .text(let text) = segment, text.sayAs?.interpretAs == .expletive { return text }
            return nil
        }
        #expect(expletives.count == 1)
        #expect(expletives.first?.text == "damn")
        #expect(result.warnings.isEmpty)
    }

    @Test func sayAsIsClearedAfterNormalisation() throws {
        let utterance = try SSMLParser().parse("<say-as interpret-as=\"ordinal\">2</say-as>")
        let result = TextNormalizer(language: "en-US").normalize(utterance)
        for segment in result.segments {
            if case .text(let text) = segment { #expect(text.sayAs == nil) }
        }
        #expect(result.plainText.trimmingCharacters(in: .whitespaces) == "second")
    }

    @Test func unreadableSayAsKeepsTheTextAndWarns() throws {
        let utterance = try SSMLParser().parse(
            "<speak>at <say-as interpret-as=\"date\" format=\"mdy\">13/45/2020</say-as></speak>")
        let result = TextNormalizer(language: "en").normalize(utterance)
        #expect(result.plainText.contains("13/45/2020"))
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.element == "say-as")
        #expect(result.warnings.first?.message.contains("date") == true)
    }

    @Test func segmentLanguageWinsOverUtteranceAndNormaliser() throws {
        let utterance = try SSMLParser().parse(
            "<speak xml:lang=\"en-US\">Take the <lang xml:lang=\"fr-FR\"><say-as interpret-as=\"ordinal\">2</say-as></lang> exit</speak>"
        )
        let result = TextNormalizer(language: "de").normalize(utterance)
        #expect(result.plainText.contains("deuxième"))
        let plain = Utterance(text: "Take exit 432")
        #expect(TextNormalizer(language: "de").normalize(plain).plainText == "Take exit 432")
        var english = plain
        english.language = "en-GB"
        #expect(TextNormalizer(language: "de").normalize(english).plainText == "Take exit four thirty-two")
    }

    @Test func unknownLanguagePassesThroughWithOneWarning() throws {
        let normalizer = TextNormalizer(language: "ja-JP")
        #expect(!normalizer.hasRules)
        #expect(normalizer.normalize(text: "I-280 exit 432") == "I-280 exit 432")
        let utterance = Utterance(segments: [.text(TextSegment(text: "A9")), .text(TextSegment(text: "B7"))])
        let result = normalizer.normalize(utterance)
        #expect(result.plainText == "A9 B7")
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.message.contains("ja-JP") == true)
    }

    @Test func plainTextThatNeedsNothingIsReturnedUnchanged() {
        let normalizer = TextNormalizer(language: "en")
        for text in ["turn left", "In 2 miles, turn right", "Head north on Market Street", "", "日本語のテキスト"] {
            #expect(normalizer.normalize(text: text) == text)
        }
    }

    @Test func phonemeBecomesESpeakMnemonicsAndUnmappedSymbolsWarn() throws {
        let utterance = try SSMLParser().parse(
            "<speak><phoneme alphabet=\"ipa\" ph=\"təˈmɑːtoʊ\">tomato</phoneme> and <phoneme alphabet=\"ipa\" ph=\"ʘa\">click</phoneme></speak>"
        )
        let result = TextNormalizer(language: "en").normalize(utterance)
        let texts = result.segments.compactMap { segment -> TextSegment? in
            if case .text(let text) = segment, text.phoneme != nil { return text }
            return nil
        }
        #expect(texts.count == 2)
        #expect(texts.first?.espeakPhonemes == "t@'mA:toU")
        #expect(texts.last?.espeakPhonemes == nil)
        #expect(texts.last?.text == "click")
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.element == "phoneme")
        #expect(result.warnings.first?.message.contains("'ʘ'") == true)
    }

    /// Odd input never crashes or hangs: random mixes of digits, letters, separators and
    /// symbols, as plain text and under every say-as kind, in every language.
    @Test(arguments: ["en", "fr", "de", "es"])
    func arbitraryInputNeverCrashes(language: String) {
        var state: UInt64 = 0x1234_5678
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let alphabet = Array("0123456789 -/.,:+()°%ªºAIUSEMNBkmhift ÉéßñçStDrAveC/No-9223372036854775808")
        let normalizer = TextNormalizer(language: language)
        for round in 0..<400 {
            let length = Int(next() % 40)
            let text = String((0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
            _ = normalizer.normalize(text: text)
            let kind = InterpretAs.allCases[round % InterpretAs.allCases.count]
            let formats: [String?] = [nil, "mdy", "dmy", "ymd", "y", "hms12", "xyz"]
            let sayAs = SayAs(
                interpretAs: kind, format: formats[round % formats.count], detail: "feminine dative")
            let utterance = Utterance(segments: [.text(TextSegment(text: text, sayAs: sayAs))])
            let result = normalizer.normalize(utterance)
            #expect(result.segments.count == 1)
        }
        for extreme in [
            "-9223372036854775808", "99999999999999999999", "1/0", "0/0", "99:99", "00/00/0000", "",
        ] {
            for kind in InterpretAs.allCases {
                let utterance = Utterance(segments: [
                    .text(TextSegment(text: extreme, sayAs: SayAs(interpretAs: kind)))
                ])
                _ = normalizer.normalize(utterance)
            }
        }
    }

    @Test func bcp47TagsAreRecognised() {
        #expect(NormalizationLanguage(tag: "en-US") == .english)
        #expect(NormalizationLanguage(tag: "fr_CA") == .french)
        #expect(NormalizationLanguage(tag: "DE") == .german)
        #expect(NormalizationLanguage(tag: "es-419") == .spanish)
        #expect(NormalizationLanguage(tag: "pt-BR") == nil)
        #expect(NormalizationLanguage(tag: "") == nil)
    }
}
