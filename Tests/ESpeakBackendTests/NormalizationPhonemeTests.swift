import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@testable import ESpeakBackend

/// The sound of normalised text: eSpeak's own phonemes (IPA) of what the normaliser hands it,
/// so a test fails when the reading is wrong, not only the spelling. Serialized: eSpeak is one
/// process-wide engine.
@Suite(.serialized)
struct NormalizationPhonemeTests {
    let renderer: ESpeakRenderer

    init() throws {
        renderer = try ESpeakRenderer()
    }

    static let voices = ["en": "en-us", "fr": "fr", "de": "de", "es": "es"]

    func voice(_ language: String) -> VoiceProfile {
        VoiceProfile(id: language, locale: language, espeakVoice: Self.voices[language]!)
    }

    /// The text the normaliser hands eSpeak for a golden input (SSML or plain text).
    func normalizedText(_ golden: NormalizationGoldenCases.Case) throws -> String {
        let utterance = try SSMLParser().parse(golden.input)
        return TextNormalizer(language: golden.language).normalize(utterance).plainText
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test(arguments: NormalizationGoldenCases.all)
    func goldenCaseSoundsAsRecorded(_ golden: NormalizationGoldenCases.Case) throws {
        let expected = try #require(NormalizationPhonemeGoldens.expected(for: golden))
        let ipa = try renderer.phonemes(for: normalizedText(golden), voice: voice(golden.language), ipa: true)
        #expect(ipa == expected)
    }

    /// Readings that must never come back (the bugs eSpeak has on the raw text).
    @Test(arguments: [
        ("en", "Merge onto I-280", "tˈuːhˈʌndɹɪd"), ("en", "Take exit 432", "hˈʌndɹɪd"),
        ("en", "1066 Main St", "θˈaʊzənd"), ("en", "In 1.2 km", "kˌeɪˈɛm"), ("en", "In 0.5 mi", "fˈaɪv mˈaɪ"),
        ("en", "Take the A406", "hˈʌndɹɪd"), ("fr", "Prenez la 1re sortie", "ʁə-"),
        ("de", "an der 3. Ausfahrt", "dɾˈaɪ"), ("es", "Toma la 3.ª salida", "punto"),
        ("es", "C/ Mayor", "βˈara"),
    ])
    func rawMisreadingIsGone(language: String, input: String, wrong: String) throws {
        let raw = try renderer.phonemes(for: input, voice: voice(language), ipa: true)
        #expect(raw.contains(wrong), "eSpeak no longer misreads \(input); drop this case")
        let text = TextNormalizer(language: language).normalize(text: input)
        let fixed = try renderer.phonemes(for: text, voice: voice(language), ipa: true)
        #expect(!fixed.contains(wrong), "\(input) → \(text) → \(fixed)")
    }

    /// eSpeak's phonemes of `[[…]]` input, from the `espeak-ng` command (installed with the
    /// library by `make setup`): `espeak_TextToPhonemes` does not read `[[…]]`, the synthesiser
    /// does, and `-q -x` reports what it spoke.
    static func espeakCLI(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["espeak-ng", "-q", "-x"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "espeak-ng command failed (is it installed?)")
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// IPA compared by sound: stress marks, syllable breaks and spaces dropped; the flap and
    /// r-variants eSpeak uses for /t/ and /r/ folded.
    static func soundKey(_ ipa: String) -> String {
        var key = ""
        for scalar in ipa.unicodeScalars {
            switch scalar {
            case "ˈ", "ˌ", ".", " ", "-": continue
            case "ɾ": key += "t"
            case "ɹ": key += "r"
            default: key.unicodeScalars.append(scalar)
            }
        }
        return key
    }

    @Test(arguments: [
        (PhonemeSpec.Alphabet.ipa, "təˈmɑːtoʊ"), (.xSampa, "t@\"mA:toU"),
    ])
    func phonemeElementSoundsLikeItsIPAAndLastsLikeTheWord(alphabet: PhonemeSpec.Alphabet, symbols: String)
        throws
    {
        let ssml =
            "<speak><phoneme alphabet=\"\(alphabet.rawValue)\" ph='\(symbols)'>tomato</phoneme></speak>"
        let utterance = TextNormalizer(language: "en-US").normalize(try SSMLParser().parse(ssml))
        #expect(utterance.warnings.isEmpty)
        guard case .text(let segment) = try #require(utterance.segments.first) else {
            Issue.record("no text segment")
            return
        }
        let mnemonics = try #require(segment.espeakPhonemes)
        let spoken = try Self.espeakCLI(["-v", "en-us", "--ipa", "[[\(mnemonics)]]"])
        #expect(Self.soundKey(spoken) == Self.soundKey("təˈmɑːtoʊ"), "\(mnemonics) → \(spoken)")

        let withPhonemes = try renderer.render(utterance, voice: .fallback)
        let plain = try renderer.render(Utterance(text: "tomato"), voice: .fallback)
        let ratio = Double(withPhonemes.samples.count) / Double(plain.samples.count)
        #expect(
            ratio > 0.7 && ratio < 1.4,
            "phoneme render \(withPhonemes.samples.count) vs text \(plain.samples.count)")
    }

    @Test func unmappedPhonemeSpeaksTheText() throws {
        let ssml = "<speak><phoneme alphabet=\"ipa\" ph=\"ʘoʊ\">tomato</phoneme></speak>"
        let utterance = TextNormalizer(language: "en-US").normalize(try SSMLParser().parse(ssml))
        #expect(utterance.warnings.count == 1)
        let withFallback = try renderer.render(utterance, voice: .fallback)
        let plain = try renderer.render(Utterance(text: "tomato"), voice: .fallback)
        let ratio = Double(withFallback.samples.count) / Double(plain.samples.count)
        #expect(ratio > 0.9 && ratio < 1.1)
    }

    /// Every mnemonic the IPA tables produce is one eSpeak knows: eSpeak drops the rest of a
    /// word after an unknown phoneme, so each must come back out of `[[…]]` non-empty.
    @Test(arguments: NormalizationLanguage.allCases)
    func everyTableEntryIsAKnownESpeakPhoneme(language: NormalizationLanguage) throws {
        let samples: [NormalizationLanguage: String] = [
            .english:
                "ˈɑː ˈæ ˈɛ ˈɪ ˈiː ˈʊ ˈuː ˈʌ ˈə ˈɚ ˈɜː ˈeɪ ˈaɪ ˈaʊ ˈɔɪ ˈoʊ ˈɪə ˈʊə ˈeə ˈɒ ˈɔː ˈɐ ˈɪɹ ˈɑːɹ ˈɔːɹ θ ð ʃ ʒ tʃ dʒ ŋ ɹ ɾ",
            .french: "ˈa ˈɑ ˈe ˈɛ ˈi ˈo ˈɔ ˈu ˈy ˈø ˈœ ˈə ˈɑ̃ ˈɛ̃ ˈɔ̃ ˈœ̃ ʁ ɲ ɥ ʃ ʒ",
            .german: "ˈa ˈaː ˈɛ ˈɛː ˈeː ˈɪ ˈiː ˈɔ ˈoː ˈʊ ˈuː ˈʏ ˈyː ˈœ ˈøː ˈə ˈaɪ ˈaʊ ˈɔʏ ç x ʁ ts pf ŋ ɐ",
            .spanish: "ˈa ˈe ˈi ˈo ˈu β ð ɣ θ x ɾ r ɲ ʎ ʝ tʃ",
        ]
        let voiceName: [NormalizationLanguage: String] = [
            .english: "en", .french: "fr", .german: "de", .spanish: "es",
        ]
        for ipa in samples[language]!.split(separator: " ") {
            let mnemonics = try IPAConverter.espeakPhonemes(fromIPA: "m" + ipa + "m", language: language)
            let spoken = try Self.espeakCLI(["-v", voiceName[language]!, "[[\(mnemonics)]]"])
            let complete = spoken.hasSuffix("m") && spoken.filter { $0 != "'" && $0 != "," }.count > 2
            #expect(complete, "\(language) \(ipa) → [[\(mnemonics)]] → \(spoken)")
        }
    }
}
