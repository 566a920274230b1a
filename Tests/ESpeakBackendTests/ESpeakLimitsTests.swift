import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@testable import ESpeakBackend

/// eSpeak NG's clause and phoneme-word limits, and the speech limit of one utterance.
@Suite(.serialized)
struct ESpeakLimitsTests {
    let renderer: ESpeakRenderer
    let english = VoiceProfile.fallback

    init() throws {
        renderer = try ESpeakRenderer()
    }

    /// Inputs that crashed libespeak-ng 1.51 (or overran its buffers under AddressSanitizer)
    /// when handed over whole: issue 13, item 1.
    static let crashingShapes: [(name: String, ssml: String)] = [
        ("400 x-sampa phonemes in one word", xsampa(String(repeating: "t", count: 400))),
        ("400 IPA phonemes with stress", ipa(String(repeating: "ˈta", count: 200))),
        ("a dotted abbreviation of 200 letters", String(repeating: "a.", count: 200)),
        ("letters and digits, 600 bytes", String(repeating: "a1", count: 300)),
        ("a 1,000-letter word", String(repeating: "a", count: 1000)),
        ("200 digits", String(repeating: "7", count: 200)),
        // Found with libespeak-ng built with AddressSanitizer (Fuzz/espeak-asan.sh): the
        // suffixes' phonemes overflow `end_phonemes[200]` (a stack write; Debian's library aborts).
        ("`s'` stacked 75 times in one word", String(repeating: "s'", count: 75)),
        (
            "dotted letters between commas",
            Array(repeating: String(repeating: "a.", count: 12), count: 8).joined(separator: ", ")
        ),
    ]

    static func xsampa(_ symbols: String) -> String {
        "<speak><phoneme alphabet=\"x-sampa\" ph=\"\(symbols)\">x</phoneme></speak>"
    }

    static func ipa(_ symbols: String) -> String {
        "<speak><phoneme alphabet=\"ipa\" ph=\"\(symbols)\">x</phoneme></speak>"
    }

    @Test(arguments: crashingShapes.map(\.name))
    func crashingShapeRendersAndSaysWhatWasCut(_ name: String) throws {
        let ssml = try #require(Self.crashingShapes.first { $0.name == name }).ssml
        let audio = try renderer.render(try SSMLParser().parse(ssml), voice: english)
        #expect(audio.duration > 0.5)
        #expect(audio.samples.contains { abs(Int($0)) > 1000 }, "speech, not silence")
        #expect(audio.warnings.contains { $0.contains("eSpeak NG") }, "\(audio.warnings)")
    }

    /// Greek symbols eSpeak NG 1.51 reads freed memory on (`espeak-ng -v es "ϱ"` under valgrind;
    /// the fuzz input is kept in Fuzz/Crashes/ssml_render/): folded to the letter or a space
    /// before eSpeak, every other character left as it is.
    @Test func greekSymbolsAreFoldedBeforeESpeak() throws {
        #expect(ESpeakLimits.withSafeCharacters("..ϱςP=", voice: "es") == "..ρςP=")
        #expect(ESpeakLimits.withSafeCharacters("ϑ ϕ ϖ ϰ ϲ ϐ", voice: "es") == "θ φ π κ ς β")
        #expect(ESpeakLimits.withSafeCharacters("Ϣ΄Ϳ", voice: "es") == "   ")
        // Unassigned (U+058C, in the Armenian block): a space; Armenian letters are kept for
        // Spanish (German faults on them alone: ESpeakUnsafeCharactersTests).
        #expect(ESpeakLimits.withSafeCharacters("\u{58C};Աա", voice: "es") == " ;Աա")
        #expect(ESpeakLimits.withSafeCharacters("αβγ Ωmega, Straße, café") == "αβγ Ωmega, Straße, café")
        #expect(ESpeakLimits.prepared("ϱ..", isPhonemeInput: false, voice: "es") == "ρ.. ")
        #expect(ESpeakLimits.prepared("[[ϱ]]", isPhonemeInput: true) == "[[ϱ]]")
        let spanish = VoiceProfile(id: "es", locale: "es-ES", espeakVoice: "es")
        try expectSpeech("<speak>..ϱςP= ϑ Ϣ</speak>", voice: spanish, longerThan: 0.3)
    }

    /// A word eSpeak NG speaks by switching language with an apostrophe, a length mark, a question
    /// mark or another alphabet in it: libespeak-ng 1.51 reads a freed translator (`espeak-ng -v fr
    /// "Σ'Σ"` under valgrind; the fuzz input is kept in Fuzz/Crashes/ssml_render/). The marks become
    /// spaces in such words only, and alphabets are kept apart; Latin words, the voice's own
    /// alphabet and clause punctuation keep theirs.
    @Test func wordsOfASwitchedAlphabetLoseTheirJoiningMarks() throws {
        #expect(
            ESpeakLimits.withSafeWords("Σ'Σ ΣˈΣ ΣːΣ Σ?a 8'Σ Σ’Σ", voice: "fr") == "Σ Σ Σ Σ Σ Σ Σ a 8 Σ Σ Σ")
        #expect(ESpeakLimits.withSafeWords("한'한 Ա'Ա अ'अ", voice: "en-us") == "한 한 Ա Ա अ अ")
        // Combining diacritics and clause punctuation stay; so do words of Latin letters.
        #expect(
            ESpeakLimits.withSafeWords("α\u{301}'α Σ, Σ. l'homme c'est-à-dire", voice: "fr")
                == "α\u{301} α Σ, Σ. l'homme c'est-à-dire")
        // Another alphabet's letter, digit or mark in the word is kept apart by spaces.
        #expect(ESpeakLimits.withSafeWords("ΣдΣ Σ\u{93E}Σ Σ8", voice: "fr") == "Σ д Σ Σ \u{93E} Σ Σ 8")
        #expect(ESpeakLimits.withSafeWords("한০한 한국", voice: "en-us") == "한 ০ 한 한국")
        #expect(ESpeakLimits.withSafeWords("aujourd'hui? Д'Д ש'ש", voice: "fr") == "aujourd'hui? Д'Д ש'ש")
        // The voice's own alphabet is not switched to (Greek with el, Hangul with ko).
        #expect(ESpeakLimits.withSafeWords("Σ'Σ 한'한", voice: "el") == "Σ'Σ 한 한")
        #expect(ESpeakLimits.withSafeWords("Σ'Σ 한'한", voice: "ko") == "Σ Σ 한'한")
        // The fuzz input: Ϲ gets a space after each sign (a character eSpeak switches language
        // for), folds to Σ, then the word's marks go.
        #expect(
            ESpeakLimits.prepared("Ϲ'Ϲ%Q%Ϲ%Q%Ϲp", isPhonemeInput: false, voice: "fr") == "Σ  Σ Q  Σ Q  Σ p")
        let french = VoiceProfile(id: "fr", locale: "fr-FR", espeakVoice: "fr")
        let audio = try renderer.render(
            try SSMLParser().parse("<speak>Ϲ'Ϲ%Q%Ϲ%Q%Ϲp, l'Ω'Ω</speak>"), voice: french)
        #expect(audio.duration > 0.3)
        #expect(audio.samples.contains { abs(Int($0)) > 1000 }, "speech, not silence")
    }

    /// Lone letters joined by dots are one abbreviation to libespeak-ng 1.51; of two alphabets, one
    /// of which it speaks by switching language (`a . а . ա`), it reads a translator it has freed
    /// (the ASan build of `Fuzz/espeak-asan.sh`; a sign the filter drops makes the shape too:
    /// `explain` of `aʹ. аʹ. աʹ.`). Each dot goes right after its letter, a space after it: `X. Y. Z`,
    /// which is clean; text with no letter of a switching alphabet is left as it is.
    @Test func lettersOfTwoAlphabetsJoinedByDotsAreKeptApart() throws {
        #expect(ESpeakLimits.prepared("a . а . ա", isPhonemeInput: false, voice: "en-us") == "a. а. ա")
        #expect(ESpeakLimits.prepared("a .а .ա", isPhonemeInput: false, voice: "en-us") == "a. а. ա")
        #expect(ESpeakLimits.prepared("a.а. ա", isPhonemeInput: false, voice: "en-us") == "a. а. ա")
        #expect(ESpeakLimits.prepared("a . а . ա .", isPhonemeInput: false, voice: "en-us") == "a. а. ա.")
        // A dot after a word of several letters keeps its place; without a switching alphabet
        // nothing changes.
        #expect(ESpeakLimits.withDotsAttached("example.com ա") == "example.com ա")
        #expect(ESpeakLimits.withDotsAttached("a . b, U.S.A .") == "a . b, U.S.A .")
        #expect(ESpeakLimits.withDotsAttached("Σ .\n") == "Σ.\n")
        // The filters make the shape of a sign they drop (explain's text: U+0374 after a letter).
        #expect(ESpeakLimits.withSafeWords("a . а . ա\u{374}.", voice: "en-us") == "a . а . ա .")
        try expectSpeech("<speak>a . а . ա .</speak>", voice: english, longerThan: 0.3)
    }

    /// A letter libespeak-ng 1.51 has no rule for, inside a word of an alphabet it switches
    /// language for, makes it spell the word and read the translator it freed on the next letter
    /// (fr, de, es: `Ͳθ`, `αϽβ`; en-us: `சௐச`, `ಖಽಖ`, `ಕ಼ಖ`, every Georgian capital of
    /// Asomtavruli, `აႠბ`; the ASan build). Such a letter leaves the word (with the voice of its
    /// own alphabet it stays). `෴` before a Sinhala word faults the same way: a space.
    @Test func lettersWithoutARuleLeaveSwitchedWords() throws {
        #expect(
            ESpeakLimits.withSafeWords("Ͳθ αϽβ θͰθ αβϾθγ \u{1FBE}θ", voice: "fr") == " θ α β θ θ αβ θγ  θ")
        #expect(ESpeakLimits.withSafeWords("Ⴭბ சௐச ಖಽಖ ಕ಼ಖ აႠბ", voice: "en-us") == " ბ ச ச ಖ ಖ ಕ ಖ ა ბ")
        #expect(ESpeakLimits.withSafeWords("Ͳθ", voice: "el") == "Ͳθ")
        #expect(ESpeakLimits.withSafeWords("Ͳ", voice: "fr") == " ")
        #expect(ESpeakLimits.prepared("෴ ඛ", isPhonemeInput: false, voice: "en-us") == "  ඛ")
        #expect(ESpeakLimits.prepared("෴ ඛ", isPhonemeInput: false, voice: "si") == "  ඛ")
        let french = VoiceProfile(id: "fr", locale: "fr-FR", espeakVoice: "fr")
        try expectSpeech("<speak>Ͳθ αϽβ, θ</speak>", voice: french, longerThan: 0.3)
    }

    @Test func everyCallIsWithinTheLimits() throws {
        for (_, ssml) in Self.crashingShapes {
            let plan = try renderer.plan(try SSMLParser().parse(ssml), voice: english)
            for call in plan.calls {
                if call.hasPrefix("[[") {
                    let words = call.dropFirst(2).dropLast(2).split(separator: " ")
                    #expect(words.allSatisfy { $0.utf8.count <= ESpeakLimits.maxPhonemeWordBytes })
                } else {
                    // Between two commas (the breaks the cut adds), at most the clause limit.
                    let clauses = call.components(separatedBy: ", ")
                    #expect(clauses.allSatisfy { $0.utf8.count <= ESpeakLimits.maxClauseBytes }, "\(call)")
                    let words = call.split { $0.isWhitespace || $0 == "," }
                    #expect(words.allSatisfy { $0.utf8.count <= ESpeakLimits.maxWordBytes }, "\(call)")
                }
            }
        }
    }

    @Test func promptsAreNotTouched() {
        let prompts = [
            "In a quarter mile, take the ramp on the right towards I 495: Baltimore, Capital Beltway.",
            "Turn left onto U.S. 1 North, then keep right at the fork.",
            "Prenez la sortie 53 vers Washington. Dans 300 mètres, tournez à gauche.",
            "In 300 Metern links abbiegen auf die Donaudampfschifffahrtsgesellschaftsstraße.",
        ]
        for prompt in prompts {
            let (text, warning) = ESpeakLimits.bounded(prompt, isPhonemeInput: false)
            #expect(text == prompt)
            #expect(warning == nil)
        }
        let (phonemes, warning) = ESpeakLimits.bounded("[[t@m'A:toU]]", isPhonemeInput: true)
        #expect(phonemes == "[[t@m'A:toU]]" && warning == nil)
    }

    @Test func longClausesAreCutAtTheirLastSpace() {
        let words = Array(repeating: "Street", count: 60).joined(separator: " ")
        let (text, warning) = ESpeakLimits.bounded(words, isPhonemeInput: false)
        #expect(warning != nil)
        let clauses = text.components(separatedBy: ", ")
        #expect(clauses.count == 3)
        #expect(clauses.allSatisfy { $0.utf8.count <= ESpeakLimits.maxClauseBytes })
        #expect(clauses.joined(separator: " ") == words, "only commas are added")
    }

    @Test func everyAddedCommaFollowsALetterOrDigit() {
        // After a dot, eSpeak does not end the clause at a comma: such a run of 480 bytes
        // overran `LookupDict2` under AddressSanitizer until the cut moved inside a word.
        let (text, warning) = ESpeakLimits.bounded(
            String(repeating: "a1a1a1a1a1. ", count: 40), isPhonemeInput: false)
        #expect(warning != nil)
        let clauses = text.components(separatedBy: ", ")
        #expect(clauses.count >= 4)
        for clause in clauses.dropLast() {
            #expect(clause.utf8.count <= ESpeakLimits.maxClauseBytes)
            #expect(clause.last?.isLetter == true || clause.last?.isNumber == true, "\(clause)")
        }
        #expect(
            text.replacingOccurrences(of: ", ", with: "").filter { $0 != " " }
                == String(repeating: "a1a1a1a1a1.", count: 40))
    }

    @Test func longNumbersAreSplitBySpaces() {
        let (text, warning) = ESpeakLimits.bounded(String(repeating: "7", count: 130), isPhonemeInput: false)
        #expect(warning != nil)
        #expect(text.split(separator: " ").map(\.count) == [48, 48, 34])
        let (decimals, _) = ESpeakLimits.bounded(String(repeating: "1.", count: 40), isPhonemeInput: false)
        #expect(decimals.split(separator: " ").allSatisfy { $0.count <= ESpeakLimits.maxDigitRun })
    }

    @Test func longWordsAreSplitBySpaces() throws {
        let word = String(repeating: "s'", count: 60)
        let (text, warning) = ESpeakLimits.bounded("Turn \(word) now", isPhonemeInput: false)
        let split = "a word longer than 100 bytes was split (1 space added)"
        #expect(warning?.hasPrefix(split) == true, "\(warning ?? "")")
        let words = text.split(separator: " ")
        #expect(words.map(\.utf8.count) == [4, 100, 20, 3])
        #expect(words.joined() == "Turn\(word)now", "only spaces are added")
        // French reads such a word with the English rules and faulted the same way.
        let french = VoiceProfile(id: "fr", locale: "fr-FR", espeakVoice: "fr")
        let long = String(repeating: "s'", count: 75)
        let audio = try renderer.render(try SSMLParser().parse("<speak>\(long)</speak>"), voice: french)
        #expect(audio.duration > 0.5)
        #expect(audio.warnings.contains { $0.contains("cannot speak longer words") }, "\(audio.warnings)")
    }

    /// An emoji with a long name next to punctuation or another emoji overflowed `ph_buf[40]`
    /// inside libespeak-ng 1.51, and an Indic sign after a dot read freed memory (eSpeak built
    /// with AddressSanitizer; the inputs are kept in Fuzz/Crashes/ssml_render/): such a character
    /// gets a space on each side where its neighbour is not white space, a letter or a digit.
    @Test func symbolsNextToPunctuationOrSymbolsAreKeptApart() throws {
        #expect(ESpeakLimits.withSeparatedSymbols("Turn .😝 now 😝😝") == "Turn . 😝 now 😝 😝")
        #expect(ESpeakLimits.withSeparatedSymbols("😝௳ .৺ (↙) ,⁉") == "😝 ௳ . ৺ ( ↙ ) , ⁉")
        #expect(ESpeakLimits.withSeparatedSymbols("3↗[3 ↗, a😝$") == "3↗ [3 ↗ , a😝 $")
        #expect(ESpeakLimits.withSeparatedSymbols("৴[ (௰ ۰😝 ½½") == "৴ [ ( ௰ ۰ 😝 ½ ½")
        for untouched in ["a😝 1😝 😝", "Take exit 12 → A 7", "l’homme, «Rue»", "+ $ 5 <a>", "10 m² a৴"] {
            #expect(ESpeakLimits.withSeparatedSymbols(untouched) == untouched)
        }
        #expect(ESpeakLimits.prepared(".😝", isPhonemeInput: false, voice: "de") == ". 😝")
        #expect(ESpeakLimits.prepared("[[.😝]]", isPhonemeInput: true) == "[[.😝]]")
        let german = VoiceProfile(id: "de", locale: "de-DE", espeakVoice: "de")
        let ssml = "<speak>Turn .😝 now 😝😝 a😝[</speak>"
        try expectSpeech(ssml, voice: german, longerThan: 1)
    }

    /// A character eSpeak NG hands another language's translator (U+A8D1 SAURASHTRA DIGIT ONE,
    /// which it takes for Korean; Devanagari's danda) right after a punctuation mark, a sign or
    /// another script's digit made libespeak-ng 1.51 read the translator it had just freed, with
    /// every voice (`!-꣑`, the ssml_render fuzz target, kept in Fuzz/Crashes/ssml_render/): it
    /// gets a space before it there, and after white space, a letter or an ASCII digit none.
    @Test func aSwitchedCharacterAfterASignIsKeptApart() throws {
        #expect(ESpeakLimits.withSeparatedSymbols("!-꣑ ,꣑ a-꣑ (꣑ ١꣑ -।") == "!- ꣑ , ꣑ a- ꣑ ( ꣑ ١ ꣑ - ।")
        #expect(ESpeakLimits.withSeparatedSymbols("x;ꯀ꯱ ꯀ,꯱") == "x; ꯀ꯱ ꯀ, ꯱")
        for untouched in ["a꣑ 1꣑ ꣑꣑ ꣑-", "서울 아이", "नमस्ते १२३ क्ष", "Σοφία", "ქუჩა", "l'homme, (Rue) ½"] {
            #expect(ESpeakLimits.withSeparatedSymbols(untouched) == untouched, "\(untouched)")
        }
        for voice in ["en-us", "fr", "de", "es"] {
            #expect(ESpeakLimits.prepared("!-꣑", isPhonemeInput: false, voice: voice) == "!- ꣑", "\(voice)")
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let kept = try Data(
            contentsOf: root.appendingPathComponent(
                "Fuzz/Crashes/ssml_render/en-us-saurashtra-digit-after-a-dash-use-after-free-valgrind"))
        #expect(String(decoding: kept.dropFirst(), as: UTF8.self) == "!-꣑")
        let audio = try renderer.render(try SSMLParser().parse("<speak>Exit !-꣑ now</speak>"), voice: english)
        #expect(audio.duration > 0.5)
    }

    /// A clause of symbols with no letter to break after is cut before a symbol, so that the
    /// comma added touches none (`😝,` overflowed eSpeak like the shapes above).
    @Test func aClauseOfSymbolsIsCutWithTheCommaApart() {
        // 150 bytes end in an emoji: " " and 30 of them with a space between.
        let symbols = " " + String(repeating: "😝 ", count: 60)
        let (text, warning) = ESpeakLimits.bounded(symbols, isPhonemeInput: false)
        #expect(warning != nil)
        #expect(text.contains(","))
        #expect(!text.contains("😝,"), "\(text)")
        #expect(text.filter { $0 == "😝" }.count == 60)
    }

    /// The spaces that keep symbols apart count toward the clause limit, and the cut they cause
    /// is warned about: seven words of five emoji are 146 bytes, and 174 once separated.
    @Test func aClauseLongOnlyOnceSymbolsAreApartIsCutWithAWarning() throws {
        let clause = Array(repeating: String(repeating: "😝", count: 5), count: 7).joined(separator: " ")
        #expect(clause.utf8.count <= ESpeakLimits.maxClauseBytes)
        let (text, warning) = ESpeakLimits.bounded(clause, isPhonemeInput: false)
        #expect(warning?.contains("cut into clauses (1 comma added)") == true, "\(warning ?? "")")
        #expect(text.filter { $0 == "😝" }.count == 35)
        #expect(ESpeakLimits.prepared(clause, isPhonemeInput: false) == text)
        let plan = try renderer.plan(try SSMLParser().parse("<speak>\(clause)</speak>"), voice: english)
        #expect(plan.warnings.contains { $0.contains("cannot speak longer clauses") }, "\(plan.warnings)")
    }

    @Test func aFinalDoubleDotGetsASpace() {
        #expect(ESpeakLimits.endingSafely("Turn left..") == "Turn left.. ")
        #expect(ESpeakLimits.endingSafely("Turn left.") == "Turn left.")
    }

    @Test func dottedLettersPastTheLimitLoseTheirDots() {
        let (text, _) = ESpeakLimits.bounded(String(repeating: "a.", count: 20), isPhonemeInput: false)
        #expect(text.filter { $0 == "." }.count == ESpeakLimits.maxDottedLetters)
        #expect(text.filter { $0 == "a" }.count == 20)
    }

    @Test func longPhonemeWordsAreSplit() {
        let (input, warning) = ESpeakLimits.bounded(
            "[[" + String(repeating: "t", count: 400) + " a]]", isPhonemeInput: true)
        #expect(input.hasPrefix("[[") && input.hasSuffix("]]"))
        let words = input.dropFirst(2).dropLast(2).split(separator: " ")
        #expect(words.map(\.count) == [150, 150, 100, 1])
        #expect(warning?.contains("split into 3 words") == true)
    }

    @Test func twentyThousandDigitsAreRefusedBeforeSpeaking() throws {
        let digits = String(repeating: "1", count: 20_000)
        let utterance = try SSMLParser().parse(
            "<speak><say-as interpret-as=\"digits\">\(digits)</say-as></speak>")
        var samples = 0
        #expect {
            try renderer.render(utterance, voice: english) { event in
                if case .audio(let chunk) = event { samples += chunk.count }
                return .continue
            }
        } throws: { error in
            (error as? RenderError)?.kind == .invalidInput
                && "\(error)".contains("limit is \(Int(ESpeakRenderer.maximumSpeechSeconds)) s")
        }
        #expect(samples == 0, "refused before any audio")
    }

    @Test func theSpeechEstimateIsCloseForAPrompt() throws {
        let text =
            "In 300 meters, turn left onto Main Street, then keep right at the fork towards the airport."
        let audio = try renderer.render(Utterance(text: text), voice: english)
        let estimate = ESpeakLimits.estimatedSeconds(of: text, rate: english.rate)
        #expect(
            estimate / audio.duration > 0.6 && estimate / audio.duration < 1.6,
            "\(estimate) vs \(audio.duration)")
    }

    /// Renders `ssml` with `voice` and expects more than `seconds` of speech, not silence.
    private func expectSpeech(
        _ ssml: String, voice: VoiceProfile, longerThan seconds: Double,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let audio = try renderer.render(try SSMLParser().parse(ssml), voice: voice)
        #expect(audio.duration > seconds, sourceLocation: sourceLocation)
        #expect(
            audio.samples.contains { abs(Int($0)) > 1000 }, "speech, not silence",
            sourceLocation: sourceLocation)
    }
}
