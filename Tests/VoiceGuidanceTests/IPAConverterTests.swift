import Testing
import VoiceGuidance

@Suite struct IPAConverterTests {
    @Test(arguments: [
        ("təˈmɑːtoʊ", "t@'mA:toU"), ("təˈmeɪtoʊ", "t@'meItoU"), ("ˈθɪŋ", "'TIN"), ("ðə", "D@"),
        ("ʃɪp", "SIp"), ("ˈmɛʒɚ", "'mEZ3"), ("tʃɜːtʃ", "tS3:tS"), ("dʒʌdʒ", "dZVdZ"), ("t͡ʃɪn", "tSIn"),
        ("ˈsɪŋɪŋ", "'sININ"), ("ɹɛd", "rEd"), ("ˈɡoʊ", "'goU"), ("baɪ", "baI"), ("haʊ", "haU"),
        ("bɔɪ", "bOI"),
        ("hæt", "hat"), ("bʊk", "bUk"), ("buːt", "bu:t"), ("biːt", "bi:t"), ("ˈwɔːtɚ", "'wO:t3"),
        ("ˌkæləˈfɔɹnjə", ",kal@'fO@nj@"), ("ˈbʌʔn̩", "'bV?n-"), ("ˈsæn ˈhoʊ.zeɪ", "'san 'hoUzeI"),
        ("ɑːɹ", "A@"), ("nɝs", "n3:s"),
    ])
    func englishIPA(ipa: String, espeak: String) throws {
        #expect(try IPAConverter.espeakPhonemes(fromIPA: ipa, language: .english) == espeak)
    }

    @Test(arguments: [
        (NormalizationLanguage.french, "pʁənˈe lɑ̃ sɔʁti", "pr@n'e lA~ sOrti"),
        (.french, "bʁœ̃ ɥit ɲ", "brW~ yit n^"), (.french, "ʃɑ̃z‿elize", "SA~zelize"),
        (.german, "ˈʃtʁaːsə", "'Stra:s@"), (.german, "ˈkʁɔʏtsʊŋ", "'krOYtsUN"), (.german, "ɪç", "IC"),
        (.german, "ˈhøːə ˈhʏtə", "'hY:@ 'hyt@"), (.german, "pfaːt", "pFa:t"),
        (.spanish, "ˈkaʎe", "'kal^e"), (.spanish, "ˈpero ˈpeɾo", "'peRo 'pe*o"),
        (.spanish, "θeˈβaʝos", "Te'BaJ^os"),
        (.spanish, "ˈaɣwa ˈkaɲa", "'aQwa 'kan^a"),
    ])
    func otherLanguagesIPA(language: NormalizationLanguage, ipa: String, espeak: String) throws {
        #expect(try IPAConverter.espeakPhonemes(fromIPA: ipa, language: language) == espeak)
    }

    @Test(arguments: [
        ("t@\"mA:toU", "təˈmɑːtoʊ"), ("\"TIN", "ˈθɪŋ"), ("r\\Ed", "ɹɛd"), ("\"m{n@dZ", "ˈmænədʒ"),
        ("%kal@\"fOr\\nj@", "ˌkaləˈfɔɹnjə"), ("b3`d", "bɝd"), ("s@`", "sɚ"), ("pA~", "pɑ̃"),
    ])
    func xsampaToIPA(xsampa: String, ipa: String) throws {
        #expect(try IPAConverter.ipa(fromXSAMPA: xsampa) == ipa)
    }

    @Test func xsampaSpecConvertsToTheSameMnemonicsAsIPA() {
        let viaIPA = IPAConverter.convert(
            PhonemeSpec(alphabet: .ipa, symbols: "təˈmɑːtoʊ"), language: .english)
        let viaXSAMPA = IPAConverter.convert(
            PhonemeSpec(alphabet: .xSampa, symbols: "t@\"mA:toU"), language: .english)
        #expect(viaIPA == .success("t@'mA:toU"))
        #expect(viaIPA == viaXSAMPA)
    }

    @Test func unmappedSymbolsAreNamed() {
        #expect(throws: PhonemeConversionError.self) {
            try IPAConverter.espeakPhonemes(fromIPA: "ʘaǀ", language: .english)
        }
        do {
            _ = try IPAConverter.espeakPhonemes(fromIPA: "ʘaǀʘ", language: .english)
        } catch {
            #expect(error.unmappedSymbols == ["ʘ", "ǀ"])
            #expect(error.description.contains("'ʘ' (U+298)"))
        }
        // θ has no eSpeak phoneme in French.
        do {
            _ = try IPAConverter.espeakPhonemes(fromIPA: "θe", language: .french)
            Issue.record("θ should be unmapped in French")
        } catch {
            #expect(error.unmappedSymbols == ["θ"])
        }
        do {
            _ = try IPAConverter.ipa(fromXSAMPA: "ab$")
            Issue.record("$ is not X-SAMPA")
        } catch {
            #expect(error.unmappedSymbols == ["$"])
            #expect(error.alphabet == .xSampa)
        }
        #expect(throws: PhonemeConversionError.self) {
            try IPAConverter.espeakPhonemes(fromIPA: " . ", language: .english)
        }
    }
}
