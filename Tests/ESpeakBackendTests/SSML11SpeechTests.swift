import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@testable import ESpeakBackend

/// What the SSML 1.1 additions sound like: heteronym roles, IPA diphthongs and stress, the
/// weak-form article, `<audio>` clips and `<prosody duration>`, checked with eSpeak's own
/// phonemes and with the rendered samples. Serialized: eSpeak is one process-wide engine.
@Suite(.serialized)
struct SSML11SpeechTests {
    let renderer: ESpeakRenderer

    init() throws {
        renderer = try ESpeakRenderer()
    }

    static let english = VoiceProfile(id: "en", locale: "en-US", espeakVoice: "en-us")

    /// eSpeak's mnemonics (`espeak_TextToPhonemes`) for `text`, as words.
    func mnemonics(_ text: String) throws -> [String] {
        try renderer.phonemes(for: text, voice: Self.english, ipa: false).split(separator: " ").map(
            String.init)
    }

    // MARK: - heteronyms

    /// Each reading a role picks is eSpeak's own: the phonemes eSpeak gives the word where
    /// the sentence makes the part of speech plain ("I have read it" → r'Ed), or, where eSpeak
    /// knows one reading only, a word that sounds the same ("led").
    @Test(arguments: [
        ("read", "amazon:VB", "I will read it", 2), ("read", "amazon:VBD", "I have read it", 2),
        ("live", "amazon:VB", "we live here", 1), ("live", "amazon:JJ", "live music", 0),
        ("lead", "amazon:VB", "to lead", 1), ("lead", "amazon:NN", "led", 0),
        ("wind", "amazon:NN", "the wind blows", 1), ("wind", "amazon:VB", "they wind it", 1),
        ("close", "amazon:VB", "I close the door", 1), ("close", "amazon:JJ", "a close friend", 1),
    ])
    func roleReadingIsESpeaksOwn(word: String, role: String, context: String, position: Int) throws {
        let reading = try #require(Heteronyms.reading(of: word, role: role))
        let spoken = try mnemonics(context)
        try #require(position < spoken.count, "\(spoken)")
        #expect(spoken[position] == reading, "\(context) → \(spoken)")
    }

    /// Both readings of each word are ones eSpeak makes: the two differ, and the role changes
    /// what the renderer hands eSpeak.
    @Test func rolesPickDifferentReadingsThroughTheRenderer() throws {
        for word in ["read", "live", "lead", "wind", "close"] {
            let readings = Set(Heteronyms.readings[word].map { Array($0.values) } ?? [])
            #expect(readings.count == 2, "\(word): \(readings)")
        }
        let ssml =
            #"<speak>I <w role="amazon:VBD">read</w> it. I <token role="amazon:VB">read</token> it.</speak>"#
        let explanation = try renderer.explain(try SSMLParser().parse(ssml), voice: Self.english)
        #expect(explanation.calls.contains("[[r'Ed]]") && explanation.calls.contains("[[r'i:d]]"))
        let ipa = explanation.segments.filter { $0.kind == .phonemes }.compactMap(\.phonemesIPA)
        #expect(ipa.count == 2)
        let without = try renderer.explain(
            try SSMLParser().parse("<speak>I <w>read</w> it.</speak>"), voice: Self.english)
        #expect(without.calls == ["I read it."])
    }

    // MARK: - IPA

    /// IPA as dictionaries write it (stress before the syllable, diphthongs as ei, ou, ei̯,
    /// r-coloured vowels with r) comes back out of eSpeak as eSpeak's own IPA for the word:
    /// the same sounds, the stress on the same syllable. Diacritics eSpeak cannot do are
    /// named in one warning.
    @Test(arguments: [
        ("day", "dei̥", 1), ("take", "tei̥k", 1), ("boat", "bou̥t", 1), ("go", "ɡou̯", 0), ("night", "nai̯t", 0),
        ("night", "naɪt", 0), ("time", "tʰaɪm", 1), ("seen", "siːn", 0), ("car", "kɑːr", 0),
        ("hello", "həˈloʊ", 0),
        ("tomato", "təˈmeɪtoʊ", 0), ("navigation", "ˌnævɪˈɡeɪʃən", 0), ("destination", "ˌdɛstɪˈneɪʃən", 0),
        ("information", "ˌɪnfərˈmeɪʃən", 0), ("motorway", "ˈmoʊtərˌweɪ", 0), ("record", "ˈrɛkərd", 0),
    ])
    func ipaRoundTripsToESpeaksOwnIPA(word: String, ipa: String, warnings: Int) throws {
        let ssml = #"<speak><phoneme alphabet="ipa" ph="\#(ipa)">\#(word)</phoneme></speak>"#
        let utterance = TextNormalizer(language: "en-US").normalize(try SSMLParser().parse(ssml))
        #expect(utterance.warnings.count == warnings, "\(utterance.warnings)")
        guard case .text(let segment) = try #require(utterance.segments.first) else { return }
        let mnemonics = try #require(segment.espeakPhonemes)
        let spoken = try NormalizationPhonemeTests.espeakCLI(["-v", "en-us", "--ipa", "[[\(mnemonics)]]"])
        let own = try renderer.phonemes(for: word, voice: Self.english, ipa: true)
        #expect(spoken == own, "\(ipa) → [[\(mnemonics)]] → \(spoken), eSpeak says \(own)")
    }

    /// The stress lands where the IPA puts it, also against eSpeak's default for the word.
    @Test(arguments: [("rɪˈkɔːrd", "ɔː"), ("ˈrɛkərd", "ɛ"), ("prɪˈzɛnt", "ɛ"), ("ˈprɛzənt", "ɛ")])
    func stressFollowsTheIPA(ipa: String, stressedVowel: String) throws {
        let mnemonics = try IPAConverter.espeakPhonemes(fromIPA: ipa, language: .english)
        let spoken = try NormalizationPhonemeTests.espeakCLI(["-v", "en-us", "--ipa", "[[\(mnemonics)]]"])
        let afterStress = try #require(
            spoken.split(separator: "ˈ", omittingEmptySubsequences: false).dropFirst().first)
        let vowel = afterStress.drop { !"aeiouæɑɒɔəɛɜɪʊʌ".contains($0) }
        #expect(vowel.hasPrefix(stressedVowel), "\(ipa) → \(spoken)")
        #expect(spoken.filter { $0 == "ˈ" }.count == 1)
    }

    // MARK: - emphasis and the weak-form article

    @Test func anArticleBeforeEmphasisKeepsItsWeakForm() throws {
        let ssml = "<speak>That is a <emphasis>big</emphasis> car</speak>"
        let explanation = try renderer.explain(try SSMLParser().parse(ssml), voice: Self.english)
        #expect(explanation.calls == ["That is", "a big", "car"])
        let ipa = explanation.segments.compactMap(\.phonemesIPA).joined(separator: " ")
        #expect(!ipa.contains("ˈeɪ") && ipa.contains("ɐ bˈɪɡ"), "\(ipa)")
        // What eSpeak does with the call the markup used to make: the letter A.
        let alone = try renderer.phonemes(for: "That is a", voice: Self.english, ipa: true)
        #expect(alone.hasSuffix("ˈeɪ"), "\(alone)")
        for article in ["the", "an"] {
            let other = try renderer.explain(
                try SSMLParser().parse("<speak>Take \(article) <emphasis>exit</emphasis></speak>"),
                voice: Self.english)
            #expect(other.calls == ["Take", "\(article) exit"])
        }
    }

    // MARK: - audio

    @Test func audioClipIsPlayedAtTheVoiceRateBetweenTheWords() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tone = (0..<22_050).map { Int16(6_000 * sin(2 * Double.pi * 1_000 * Double($0) / 44_100)) }
        try WAVFile.write(samples: tone, sampleRate: 44_100, to: folder.appendingPathComponent("chime.wav"))
        let parser = SSMLParser(audioFiles: AudioSourceLoader(directory: folder))
        let utterance = try parser.parse(#"<speak>Turn <audio src="chime.wav">ding</audio> left</speak>"#)
        let audio = try renderer.render(utterance, voice: Self.english)
        let expected = AudioResampler.resample(tone, from: 44_100, to: 22_050)
        #expect(expected.count == 11_025)
        // The clip appears verbatim (no gain, no trimming) in the output.
        let start = try #require(Self.find(expected, in: audio.samples), "clip not found")
        // Right after "Turn" (its audible length, give or take a short tail).
        let turn = Silence.trimmed(try renderer.render(Utterance(text: "Turn"), voice: Self.english).samples)
        #expect(
            start >= turn.count - 1_100 && start < turn.count + 5_512,
            "clip at \(start), 'Turn' is \(turn.count)")
        let after = audio.samples[(start + expected.count)...]
        #expect(AudioLevel.rmsDB(after) > -40, "'left' follows the clip")
        #expect(audio.words.map(\.text) == ["Turn", "left"])
        // The resampled clip keeps its pitch: 1 kHz is 2,000 zero crossings a second.
        let crossings = zip(expected, expected.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(abs(crossings - 1_000) <= 2)
    }

    static func find(_ needle: [Int16], in haystack: [Int16]) -> Int? {
        guard needle.count <= haystack.count, let first = needle.first else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == first {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }

    // MARK: - prosody duration

    /// Faster and slower than the natural length are done by rate; slower than eSpeak's slowest
    /// rate (80 wpm: about 2.5 s for this text) is that rate and then silence up to the duration.
    @Test(arguments: [(0.6, false), (2.0, false), (3.0, true)])
    func prosodyDurationSetsTheSpokenLength(seconds: Double, isPadded: Bool) throws {
        let text = "in two hundred meters"
        let natural = try renderer.render(Utterance(text: text), voice: Self.english)
        let ssml = #"<speak><prosody duration="\#(seconds)s">\#(text)</prosody></speak>"#
        let timed = try renderer.render(try SSMLParser().parse(ssml), voice: Self.english)
        let speech = Double(Silence.trimmed(timed.samples).count) / 22_050
        let length = isPadded ? Double(timed.samples.count) / 22_050 : speech
        let naturalLength = Double(Silence.trimmed(natural.samples).count) / 22_050
        #expect(
            abs(length - seconds) / seconds < 0.1,
            "asked \(seconds) s, got \(length) s (natural \(naturalLength) s)")
        #expect(
            abs(naturalLength - seconds) / seconds > 0.2, "the natural length is already \(naturalLength) s")
        #expect(isPadded == (speech < seconds * 0.9), "speech \(speech) s")
        #expect(timed.warnings.isEmpty, "\(timed.warnings)")
    }

    /// A segment built in code with a duration the parser would never give is bounded, not
    /// trusted: infinity and NaN are ignored, a huge one is held to the pause limit.
    @Test func durationsFromCodeAreBounded() throws {
        for duration in [Double.infinity, .nan, -1] {
            let segment = TextSegment(text: "left", prosody: Prosody(duration: duration))
            let audio = try renderer.render(Utterance(segments: [.text(segment)]), voice: Self.english)
            #expect(audio.samples.count < 22_050, "\(duration)")
        }
        let huge = TextSegment(text: "left", prosody: Prosody(duration: 1e12))
        let plan = try renderer.plan(Utterance(segments: [.text(huge)]), voice: Self.english)
        let silence = plan.steps.reduce(0) { total, step in
            if case .pause(let samples) = step { total + samples } else { total }
        }
        #expect(silence <= Int(ESpeakRenderer.maximumPauseSeconds) * 22_050)
    }

    @Test func aDurationOutOfESpeaksRateRangeWarns() throws {
        let ssml =
            #"<speak><prosody duration="0.1s">in two hundred meters, turn left onto Main Street</prosody></speak>"#
        let timed = try renderer.render(try SSMLParser().parse(ssml), voice: Self.english)
        #expect(timed.warnings.contains { $0.contains("out of eSpeak NG's rate range") }, "\(timed.warnings)")
    }
}
