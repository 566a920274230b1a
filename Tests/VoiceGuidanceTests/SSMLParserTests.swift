import Foundation
import Testing
import VoiceGuidance

private typealias Support = SSMLTestSupport

@Suite struct SSMLParserTests {
    let parser = SSMLParser()

    // MARK: - Documents and plain text

    @Test func mapboxAnnouncementBecomesThreeSegments() throws {
        let ssml =
            #"<speak><amazon:effect name="drc"><prosody rate="1.08">In 2 miles, take exit "#
            + #"<say-as interpret-as="address">432</say-as> towards Cesar Chavez Street</prosody>"#
            + "</amazon:effect></speak>"
        let utterance = try parser.parse(ssml)
        let base = TextSegment(text: "", prosody: Prosody(rate: 1.08), isCompressed: true)
        var first = base
        first.text = "In 2 miles, take exit"
        first.location = SourceLocation(line: 1, column: 55)
        var second = base
        second.text = "432"
        second.sayAs = SayAs(interpretAs: .address)
        second.location = SourceLocation(line: 1, column: 108)
        var third = base
        third.text = "towards Cesar Chavez Street"
        third.location = SourceLocation(line: 1, column: 121)
        #expect(utterance.segments == [.text(first), .text(second), .text(third)])
        #expect(utterance.warnings.isEmpty)
        #expect(utterance.plainText == "In 2 miles, take exit 432 towards Cesar Chavez Street")
    }

    @Test func plainTextIsOneSegmentWithCollapsedWhitespace() throws {
        let utterance = try parser.parse("  Turn \n\t left   onto Main Street.  ")
        #expect(
            utterance.segments == [
                .text(TextSegment(text: "Turn left onto Main Street.", location: .init(line: 1, column: 3)))
            ])
        #expect(utterance.language == nil)
        #expect(utterance.warnings.isEmpty)
    }

    @Test func inlineTagsWithoutRootAreAccepted() throws {
        let utterance = try parser.parse(#"Turn left <break time="500ms"/> now"#)
        #expect(Support.texts(utterance).map(\.text) == ["Turn left", "now"])
        #expect(utterance.segments[1] == .pause(.seconds(0.5)))
    }

    @Test func emptyInputsGiveEmptyUtterances() throws {
        #expect(try parser.parse("").segments.isEmpty)
        #expect(try parser.parse("<speak></speak>").segments.isEmpty)
        #expect(try parser.parse("<speak/>").segments.isEmpty)
        #expect(try parser.parse("<speak>  \n </speak>").segments.isEmpty)
    }

    @Test func xmlDeclarationCommentsAndNamespacesAreAccepted() throws {
        let ssml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a prompt -->
            <speak version="1.1" xmlns="http://www.w3.org/2001/10/synthesis" xmlns:amazon="https://amazon.com" xml:lang="en-GB">
              Keep <!-- inline comment --> left.
            </speak>
            <!-- trailing comment -->
            """
        let utterance = try parser.parse(ssml)
        #expect(utterance.language == "en-GB")
        #expect(Support.onlyText(utterance)?.text == "Keep left.")
        #expect(Support.onlyText(utterance)?.language == "en-GB")
        #expect(Support.onlyText(utterance)?.location == SourceLocation(line: 4, column: 3))
        #expect(utterance.warnings.isEmpty)
    }

    @Test func defaultLimitsAreTheDocumentedOnes() {
        let limits = SSMLParser.Limits()
        #expect(limits.maxInputBytes == 65_536)
        #expect(limits.maxDepth == 64)
        #expect(limits.maxSegments == 4096)
        #expect(limits.maxBreakSeconds == 10)
        #expect(limits.maxTotalBreakSeconds == 60)
        #expect(!SSMLParser().isStrict)
    }

    @Test func whitespaceInsideTagsIsAllowed() throws {
        let utterance = try parser.parse("<speak\n  xml:lang = 'en-US' >Hi<break\ttime='1s'\n/></speak >")
        #expect(utterance.language == "en-US")
        #expect(utterance.segments.map(Self.shape) == ["Hi", "pause 1.0s"])
    }

    @Test func crlfCountsAsOneLineBreak() throws {
        let utterance = try parser.parse("<speak>\r\n\r\n  <s>Hi</s></speak>")
        #expect(Support.onlyText(utterance)?.location == SourceLocation(line: 3, column: 6))
    }

    // MARK: - Entities, quotes, CDATA, UTF-8

    @Test func entitiesAreDecoded() throws {
        let utterance = try parser.parse(
            "<speak>Caf&#233; &amp; Bar &lt;1&gt; &quot;x&quot; &apos;y&apos; &#x263A;</speak>")
        #expect(Support.onlyText(utterance)?.text == "Café & Bar <1> \"x\" 'y' ☺")
    }

    @Test func nbspIsASpace() throws {
        #expect(Support.onlyText(try parser.parse("<speak>A&nbsp;&nbsp;B</speak>"))?.text == "A B")
        #expect(Support.onlyText(try parser.parse("<speak>A\u{A0}B&#160;C</speak>"))?.text == "A B C")
    }

    @Test func bothQuoteStylesAndEntitiesInAttributes() throws {
        let utterance = try parser.parse(
            #"<speak><sub alias='Smith &amp; "Sons"'>S&amp;S</sub><break time = "1s" /></speak>"#)
        #expect(Support.onlyText(utterance)?.text == "Smith & \"Sons\"")
        #expect(utterance.segments.last == .pause(.seconds(1)))
    }

    @Test func cdataIsTextVerbatim() throws {
        let utterance = try parser.parse("<speak>If <![CDATA[a < b & c]]> then</speak>")
        #expect(Support.onlyText(utterance)?.text == "If a < b & c then")
    }

    @Test func utf8TextSurvives() throws {
        let text = "東京駅で右折 — Ørsted Allé, 20°C, #5 ✓"
        #expect(Support.onlyText(try parser.parse("<speak>\(text)</speak>"))?.text == text)
        let data = Data("<speak>\(text)</speak>".utf8)
        #expect(Support.onlyText(try parser.parse(data: data))?.text == text)
        let withBOM = Data([0xEF, 0xBB, 0xBF]) + data
        #expect(Support.onlyText(try parser.parse(data: withBOM))?.text == text)
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let utterance = try parser.parse("<speak>ø°東<amazon:breath/></speak>")
        #expect(utterance.warnings.first?.location == SourceLocation(line: 1, column: 11))
    }

    /// Text without any tag is plain text: an ampersand is an ampersand, with no warning. With
    /// a tag it is markup: a bare `&` warns in a fragment and is an error in a document.
    @Test func bareAmpersandInPlainTextIsLiteral() throws {
        let utterance = try parser.parse("Turn onto A & B Road")
        #expect(Support.onlyText(utterance)?.text == "Turn onto A & B Road")
        #expect(utterance.warnings.isEmpty)
        for text in ["Fish & Chips", "compile&flash", "AT&T; and R&D", "Q&A &", "<!-- note -->Fish & Chips"] {
            let plain = try parser.parse(text)
            #expect(plain.plainText == text.replacingOccurrences(of: "<!-- note -->", with: ""), "\(text)")
            #expect(plain.warnings.isEmpty, "\(text)")
        }
        #expect(try parser.parse("Fish &amp; Chips &#233;").plainText == "Fish & Chips é")
        #expect(Support.error("Turn <w>compile&flash</w>")?.location == SourceLocation(line: 1, column: 16))
        let fragment = try parser.parse("Turn onto <w>A</w> & B Road")
        #expect(fragment.warnings.map(\.location) == [SourceLocation(line: 1, column: 20)])
        #expect(Support.error("<speak>A & B</speak>")?.location == SourceLocation(line: 1, column: 10))
        let inElement = try parser.parse("Turn <emphasis>A & B</emphasis>")
        #expect(inElement.warnings.map(\.element) == ["emphasis"])
    }

    @Test func whitespaceReferencesDoNotStartText() throws {
        let utterance = try parser.parse("<speak>&#10;&#32;<s>x</s></speak>")
        #expect(Support.onlyText(utterance)?.location == SourceLocation(line: 1, column: 21))
    }

    // MARK: - p, s

    @Test func paragraphsAndSentencesPauseWithoutDoubling() throws {
        let utterance = try parser.parse(
            "<speak><p><s>One.</s><s>Two.</s></p><p>Three.</p> <p><s>Four.</s></p></speak>")
        #expect(
            utterance.segments.map(Self.shape) == [
                "One.", "pause medium", "Two.", "pause strong", "Three.", "pause strong", "Four.",
            ])
    }

    @Test func breakReplacesSentencePause() throws {
        let utterance = try parser.parse(#"<speak><s>One.</s><break time="2s"/><s>Two.</s></speak>"#)
        #expect(utterance.segments.map(Self.shape) == ["One.", "pause 2.0s", "Two."])
    }

    @Test func strengthNoneSuppressesSentencePause() throws {
        let utterance = try parser.parse(#"<speak><s>One<break strength="none"/></s><s>two</s></speak>"#)
        #expect(utterance.segments.map(Self.shape) == ["One", "two"])
    }

    @Test func sentenceLanguageApplies() throws {
        let utterance = try parser.parse(#"<speak xml:lang="en-US"><s xml:lang="fr-FR">Bonjour</s></speak>"#)
        #expect(Support.onlyText(utterance)?.language == "fr-FR")
        #expect(utterance.language == "en-US")
    }

    // MARK: - break

    @Test(arguments: [
        ("500ms", 0.5), ("1s", 1.0), ("1.5s", 1.5), (".25s", 0.25), ("250MS", 0.25), (" 2s ", 2.0),
        ("0ms", 0),
    ])
    func breakTimes(value: String, seconds: Double) throws {
        let utterance = try parser.parse(#"<speak>a<break time="\#(value)"/>b</speak>"#)
        #expect(utterance.segments[1] == .pause(.seconds(seconds)))
    }

    @Test(arguments: BreakStrength.allCases.filter { $0 != .none })
    func breakStrengths(strength: BreakStrength) throws {
        let utterance = try parser.parse(#"<speak>a<break strength="\#(strength.rawValue)"/>b</speak>"#)
        #expect(utterance.segments[1] == .pause(.strength(strength)))
    }

    @Test func breakWithoutAttributesIsMediumAndTimeWinsOverStrength() throws {
        #expect(try parser.parse("a<break/>b").segments[1] == .pause(.strength(.medium)))
        let both = try parser.parse(#"a<break strength="weak" time="300ms"/>b"#)
        #expect(both.segments[1] == .pause(.seconds(0.3)))
    }

    @Test func leadingAndConsecutiveBreaksAreKept() throws {
        let utterance = try parser.parse(
            #"<speak><break time="1.5s"/>Hello<break time="1s"/><break time="1s"/></speak>"#)
        #expect(utterance.segments.map(Self.shape) == ["pause 1.5s", "Hello", "pause 1.0s", "pause 1.0s"])
    }

    @Test func longBreakIsClampedWithWarning() throws {
        let utterance = try parser.parse(#"<speak>a<break time="25s"/>b</speak>"#)
        #expect(utterance.segments[1] == .pause(.seconds(10)))
        #expect(utterance.warnings.count == 1)
        #expect(utterance.warnings.first?.element == "break")
        #expect(utterance.warnings.first?.location == SourceLocation(line: 1, column: 16))
    }

    @Test func totalBreakTimeIsLimited() {
        let ssml = "<speak>" + String(repeating: #"a<break time="10s"/>"#, count: 7) + "</speak>"
        let error = Support.error(ssml)
        #expect(error?.kind == .limitExceeded)
        #expect(error?.location == SourceLocation(line: 1, column: 8 + 6 * 20 + 1))
    }

    // MARK: - prosody

    @Test(arguments: [
        ("x-slow", 0.6), ("slow", 0.8), ("medium", 1), ("fast", 1.25), ("x-fast", 1.5), ("default", 1),
        ("150%", 1.5), ("80%", 0.8), ("+10%", 1.1), ("-20%", 0.8), ("1.08", 1.08), ("2", 2),
    ])
    func prosodyRate(value: String, rate: Double) throws {
        let segment = Support.onlyText(try parser.parse(#"<prosody rate="\#(value)">x</prosody>"#))
        #expect(abs((segment?.prosody.rate ?? 0) - rate) < 1e-9)
        #expect(segment?.prosody.pitch == 1)
        #expect(segment?.prosody.volumeDB == 0)
    }

    @Test(arguments: [
        ("x-low", 0.7), ("low", 0.85), ("medium", 1), ("high", 1.18), ("x-high", 1.4), ("+10%", 1.1),
        ("-10%", 0.9), ("+12st", 2), ("-12st", 0.5), ("+2st", 1.122_462_048_309_373), ("+12Hz", 1.1),
        ("-30Hz", 0.75), ("180Hz", 1.5),
    ])
    func prosodyPitch(value: String, pitch: Double) throws {
        let segment = Support.onlyText(try parser.parse(#"<prosody pitch="\#(value)">x</prosody>"#))
        #expect(abs((segment?.prosody.pitch ?? 0) - pitch) < 1e-9)
    }

    @Test(arguments: [
        ("silent", -Double.infinity), ("x-soft", -12), ("soft", -6), ("medium", 0), ("loud", 6),
        ("x-loud", 12),
        ("+6dB", 6), ("-3.5dB", -3.5), ("+0dB", 0), ("4db", 4),
    ])
    func prosodyVolume(value: String, gain: Double) throws {
        let segment = Support.onlyText(try parser.parse(#"<prosody volume="\#(value)">x</prosody>"#))
        #expect(segment?.prosody.volumeDB == gain)
    }

    @Test func nestedProsodyComposes() throws {
        let utterance = try parser.parse(
            #"<speak><prosody rate="150%" pitch="+12st" volume="+3dB">a "#
                + #"<prosody rate="1.2" pitch="-12st" volume="+3dB">b</prosody> c</prosody></speak>"#)
        let segments = Support.texts(utterance)
        #expect(segments.map(\.text) == ["a", "b", "c"])
        #expect(segments[0].prosody == Prosody(rate: 1.5, pitch: 2, volumeDB: 3))
        #expect(abs(segments[1].prosody.rate - 1.8) < 1e-9)
        #expect(segments[1].prosody.pitch == 1)
        #expect(segments[1].prosody.volumeDB == 6)
        #expect(segments[2].prosody == segments[0].prosody)
    }

    @Test func prosodyKeywordsAreAbsolute() throws {
        let segment = Support.onlyText(
            try parser.parse(
                #"<prosody rate="slow" volume="loud"><prosody rate="medium">x</prosody></prosody>"#))
        #expect(segment?.prosody == Prosody(rate: 1, pitch: 1, volumeDB: 6))
    }

    @Test func extremeProsodyIsClampedWithWarning() throws {
        let utterance = try parser.parse(
            #"<prosody rate="400%"><prosody rate="300%" volume="+40dB">x</prosody></prosody>"#)
        #expect(Support.onlyText(utterance)?.prosody == Prosody(rate: 4, pitch: 1, volumeDB: 24))
        #expect(utterance.warnings.count == 2)
        #expect(utterance.warnings.allSatisfy { $0.element == "prosody" && $0.location != nil })
    }

    @Test(arguments: [
        #"<prosody rate="banana">x</prosody>"#, #"<prosody rate="0%">x</prosody>"#,
        #"<prosody rate="-1.0">x</prosody>"#, #"<prosody rate="1e3">x</prosody>"#,
        #"<prosody pitch="50%">x</prosody>"#, #"<prosody pitch="+3">x</prosody>"#,
        #"<prosody pitch="-100%">x</prosody>"#, #"<prosody volume="+6">x</prosody>"#,
        #"<prosody volume="nan dB">x</prosody>"#, #"<break time="abc"/>"#, #"<break time="-1s"/>"#,
        #"<break time="5"/>"#, #"<break strength="huge"/>"#, #"<emphasis level="loud">x</emphasis>"#,
    ])
    func invalidValuesAreLocatedErrors(ssml: String) throws {
        let error = try #require(Support.error("<speak>\(ssml)</speak>"))
        #expect(error.kind == .malformed)
        // Every value above is the first attribute of the element right after <speak>.
        let column = 8 + 1 + ssml.dropFirst().prefix { $0 != " " }.count + 1
        #expect(error.location == SourceLocation(line: 1, column: column))
    }

    // MARK: - say-as, sub, phoneme

    @Test(arguments: [
        ("characters", InterpretAs.characters), ("spell-out", .characters), ("cardinal", .cardinal),
        ("number", .cardinal), ("ordinal", .ordinal), ("digits", .digits), ("fraction", .fraction),
        ("unit", .unit), ("date", .date), ("time", .time), ("telephone", .telephone), ("address", .address),
        ("expletive", .expletive), ("SPELL-OUT", .characters),
    ])
    func sayAsInterpretAs(value: String, kind: InterpretAs) throws {
        let utterance = try parser.parse(#"Exit <say-as interpret-as="\#(value)">12</say-as> now"#)
        let segments = Support.texts(utterance)
        #expect(segments.map(\.text) == ["Exit", "12", "now"])
        #expect(segments[1].sayAs == SayAs(interpretAs: kind))
        #expect(segments[0].sayAs == nil && segments[2].sayAs == nil)
        #expect(utterance.warnings.isEmpty)
    }

    @Test func sayAsKeepsFormatAndDetail() throws {
        let segment = Support.onlyText(
            try parser.parse(#"<say-as interpret-as="date" format="mdy" detail="2">12/25/2026</say-as>"#))
        #expect(segment?.sayAs == SayAs(interpretAs: .date, format: "mdy", detail: "2"))
    }

    @Test func adjacentSayAsStaySeparate() throws {
        let utterance = try parser.parse(
            #"<say-as interpret-as="characters">AB</say-as><say-as interpret-as="characters">CD</say-as>"#)
        #expect(Support.texts(utterance).map(\.text) == ["AB", "CD"])
    }

    @Test func unknownInterpretAsWarnsAndKeepsText() throws {
        let utterance = try parser.parse(#"<speak><say-as interpret-as="interjection">wow</say-as></speak>"#)
        #expect(Support.onlyText(utterance) == TextSegment(text: "wow", location: .init(line: 1, column: 44)))
        #expect(utterance.warnings.count == 1)
        #expect(utterance.warnings.first?.element == "say-as")
        #expect(utterance.warnings.first?.location == SourceLocation(line: 1, column: 16))
        #expect(
            Support.error(
                #"<speak><say-as interpret-as="interjection">wow</say-as></speak>"#,
                parser: SSMLParser(isStrict: true))?.kind == .malformed)
    }

    @Test func subSpeaksTheAlias() throws {
        let utterance = try parser.parse(#"<speak>Take <sub alias="Interstate">I</sub>-280 north</speak>"#)
        #expect(Support.onlyText(utterance)?.text == "Take Interstate-280 north")
        #expect(
            Support.error(#"<speak><sub>I</sub></speak>"#)?.location == SourceLocation(line: 1, column: 8))
    }

    @Test func phonemeKeepsTextAsFallback() throws {
        let ipa = try parser.parse(#"Turn onto <phoneme alphabet="ipa" ph="ˈkɛɹəl">Carrell</phoneme> Street"#)
        let segments = Support.texts(ipa)
        #expect(segments.map(\.text) == ["Turn onto", "Carrell", "Street"])
        #expect(segments[1].phoneme == PhonemeSpec(alphabet: .ipa, symbols: "ˈkɛɹəl"))
        let sampa = try parser.parse(#"<phoneme alphabet="x-sampa" ph='"kEr@l'>Carrell</phoneme>"#)
        #expect(Support.onlyText(sampa)?.phoneme == PhonemeSpec(alphabet: .xSampa, symbols: "\"kEr@l"))
        let defaulted = try parser.parse(#"<phoneme ph="pɪˈkɑːn">pecan</phoneme>"#)
        #expect(Support.onlyText(defaulted)?.phoneme?.alphabet == .ipa)
    }

    @Test func phonemeWithUnknownAlphabetWarnsAndSpeaksText() throws {
        let utterance = try parser.parse(#"<phoneme alphabet="x-amazon-pinyin" ph="bo2">薄</phoneme>"#)
        #expect(Support.onlyText(utterance) == TextSegment(text: "薄", location: .init(line: 1, column: 46)))
        #expect(utterance.warnings.first?.element == "phoneme")
        #expect(utterance.warnings.first?.location == SourceLocation(line: 1, column: 10))
        #expect(Support.error(#"<phoneme alphabet="ipa">x</phoneme>"#)?.kind == .malformed)
    }

    @Test func emptyPhonemeIsASegmentOfItsOwn() throws {
        let utterance = try parser.parse(#"<speak>Say <phoneme alphabet="ipa" ph="ˈhɛloʊ"/> now</speak>"#)
        let segments = Support.texts(utterance)
        #expect(segments.map(\.text) == ["Say", "", "now"])
        #expect(segments[1].phoneme == PhonemeSpec(alphabet: .ipa, symbols: "ˈhɛloʊ"))
        #expect(segments[1].location == SourceLocation(line: 1, column: 12))
    }

    // MARK: - emphasis, lang, voice, mark, w

    @Test(arguments: EmphasisLevel.allCases)
    func emphasisLevels(level: EmphasisLevel) throws {
        let segment = Support.onlyText(
            try parser.parse(#"<emphasis level="\#(level.rawValue)">now</emphasis>"#))
        #expect(segment?.emphasis == level)
    }

    @Test func emphasisDefaultsToModerate() throws {
        #expect(Support.onlyText(try parser.parse("<emphasis>now</emphasis>"))?.emphasis == .moderate)
    }

    @Test func langSwitchesAndSwitchesBack() throws {
        let utterance = try parser.parse(
            #"<speak xml:lang="en-US">Turn onto <lang xml:lang="de-DE">Hauptstraße</lang> now</speak>"#)
        let segments = Support.texts(utterance)
        #expect(segments.map(\.text) == ["Turn onto", "Hauptstraße", "now"])
        #expect(segments.map(\.language) == ["en-US", "de-DE", "en-US"])
        #expect(Support.error("<lang>x</lang>")?.kind == .malformed)
    }

    @Test func invalidLanguageTagWarns() throws {
        let utterance = try parser.parse(
            #"<speak xml:lang="en-US"><lang xml:lang="not a tag">x</lang></speak>"#)
        #expect(Support.onlyText(utterance)?.language == "en-US")
        #expect(utterance.warnings.first?.element == "lang")
    }

    @Test func voiceSetsRequestAndLanguage() throws {
        let utterance = try parser.parse(
            #"<speak xml:lang="en-US">A <voice name="Hans" gender="male" xml:lang="de-DE">B "#
                + #"<voice xml:lang="fr-FR">C</voice></voice> D</speak>"#)
        let segments = Support.texts(utterance)
        #expect(segments.map(\.text) == ["A", "B", "C", "D"])
        #expect(segments[1].voice == VoiceRequest(name: "Hans", gender: "male"))
        #expect(segments[1].language == "de-DE")
        #expect(segments[2].voice == nil && segments[2].language == "fr-FR")
        #expect(segments[3].voice == nil && segments[3].language == "en-US")
        let gender = try parser.parse(#"<voice gender="female">x</voice>"#)
        #expect(Support.onlyText(gender)?.voice == VoiceRequest(gender: "female"))
    }

    @Test func markSplitsText() throws {
        let utterance = try parser.parse(#"<speak>Turn <mark name="m1"/>left<mark name='end'/></speak>"#)
        #expect(utterance.segments.map(Self.shape) == ["Turn", "mark m1", "left", "mark end"])
        #expect(Support.error(#"<speak><mark/></speak>"#)?.location == SourceLocation(line: 1, column: 8))
    }

    @Test func wordElementKeepsTextInOneSegment() throws {
        let utterance = try parser.parse(#"<speak>I <w>read</w> the book</speak>"#)
        #expect(Support.onlyText(utterance)?.text == "I read the book")
        #expect(utterance.warnings.isEmpty)
    }

    @Test func wordAndTokenRolesMakeTheirOwnSegment() throws {
        let utterance = try parser.parse(
            #"<speak>I <w role="amazon:VBD">read</w> the <token role="amazon:NN">lead</token> sign</speak>"#)
        let texts = Support.texts(utterance)
        #expect(texts.map(\.text) == ["I", "read", "the", "lead", "sign"])
        #expect(texts.map(\.role) == [nil, "amazon:VBD", nil, "amazon:NN", nil])
        #expect(utterance.warnings.isEmpty)
    }

    // MARK: - amazon:effect and vendor tags

    @Test func drcEffectCompresses() throws {
        let utterance = try parser.parse(#"a <amazon:effect name="drc">b</amazon:effect> c"#)
        #expect(Support.texts(utterance).map(\.isCompressed) == [false, true, false])
        #expect(
            try parser.parse(#"<amazon:effect name="drc">b</amazon:effect>"#, strict: true).warnings.isEmpty)
    }

    @Test(arguments: [
        (#"<amazon:effect name="whispered">x</amazon:effect>"#, "amazon:effect", 23),
        ("<amazon:effect>x</amazon:effect>", "amazon:effect", 8),
        (#"<amazon:domain name="news">x</amazon:domain>"#, "amazon:domain", 8),
        (#"<amazon:auto-breaths>x</amazon:auto-breaths>"#, "amazon:auto-breaths", 8),
        (#"x<amazon:breath duration="long"/>"#, "amazon:breath", 9),
        (#"<foo:bar>x</foo:bar>"#, "foo:bar", 8), ("<blink>x</blink>", "blink", 8),
        (#"<break time="1s" foo="1"/>x"#, "break", 25),
    ])
    func vendorAndUnknownMarkupWarnsAndKeepsText(ssml: String, element: String, column: Int) throws {
        let utterance = try parser.parse("<speak>\(ssml)</speak>")
        #expect(Support.texts(utterance).map(\.text) == ["x"])
        #expect(utterance.warnings.count == 1)
        #expect(utterance.warnings.first?.element == element)
        #expect(utterance.warnings.first?.location == SourceLocation(line: 1, column: column))
        let strict = try #require(Support.error("<speak>\(ssml)</speak>", parser: SSMLParser(isStrict: true)))
        #expect(strict.kind == .malformed)
        #expect(strict.location == SourceLocation(line: 1, column: column))
        #expect(strict.message.contains(element))
    }

    @Test func warningDescriptionNamesElementAndPosition() throws {
        let utterance = try parser.parse("<speak>\n  <amazon:breath/>Hi</speak>")
        #expect(
            utterance.warnings.map(\.description) == [
                "2:3: warning: <amazon:breath>: vendor element is not supported; its text is kept"
            ])
    }

    // MARK: - detection

    @Test(arguments: [
        ("<speak>Hi</speak>", true), ("  \n<speak xml:lang='en'>Hi</speak>", true),
        ("<?xml version='1.0'?>", true),
        (#"Turn left <break time="1s"/> now"#, true),
        ("Turn <amazon:effect name='drc'>x</amazon:effect>", true),
        ("a </prosody>", true), ("Turn left in 200 m", false), ("5 < 6 and 7 > 3", false), ("a <b> c", false),
        ("Smith & Sons &amp; Co", false), ("", false), ("<", false),
    ])
    func looksLikeSSML(text: String, expected: Bool) {
        #expect(SSMLParser.looksLikeSSML(text) == expected)
    }

    // MARK: - helpers

    /// A short readable form of a segment for comparing shapes.
    static func shape(_ segment: Segment) -> String {
        switch segment {
        case .text(let text): text.text
        case .pause(.seconds(let seconds)): "pause \(seconds)s"
        case .pause(.strength(let strength)): "pause \(strength.rawValue)"
        case .mark(let name): "mark \(name)"
        case .audio(let clip): "audio \(clip.source)"
        }
    }
}

extension SSMLParser {
    fileprivate func parse(_ text: String, strict: Bool) throws -> Utterance {
        var parser = self
        parser.isStrict = strict
        return try parser.parse(text)
    }
}
