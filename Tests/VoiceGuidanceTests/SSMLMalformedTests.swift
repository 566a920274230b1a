import Foundation
import Testing
import VoiceGuidance

private typealias Support = SSMLTestSupport

/// Broken and hostile input: each case is a clear, located error, never a crash or a hang.
@Suite struct SSMLMalformedTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var ssml: String
        var line: Int
        var column: Int
        var messageContains: String
        var testDescription: String {
            let line = ssml.replacing("\n", with: "⏎")
            return line.count > 60 ? String(line.prefix(60)) + "…" : line
        }
    }

    static let cases: [Case] = [
        // Unclosed and mismatched elements.
        Case(ssml: "<speak>a <prosody>b</speak>", line: 1, column: 20, messageContains: "opened at 1:10"),
        Case(ssml: "<speak>hello", line: 1, column: 1, messageContains: "never closed"),
        Case(ssml: "<speak>\n  <p>hello\n</speak>", line: 3, column: 1, messageContains: "<p> opened at 2:3"),
        Case(
            ssml: "<speak><s>a</p></speak>", line: 1, column: 12, messageContains: "</p> does not match <s>"),
        Case(ssml: "a</b>", line: 1, column: 2, messageContains: "closes nothing"),
        Case(ssml: "<speak>a</speak>b", line: 1, column: 17, messageContains: "after </speak>"),
        Case(
            ssml: "<speak>a</speak><speak>b</speak>", line: 1, column: 17, messageContains: "after </speak>"),
        // Broken tags.
        Case(
            ssml: #"<speak><amazon: effectname="drc">x</amazon:effect></speak>"#, line: 1, column: 8,
            messageContains: "amazon:"),
        Case(ssml: "<speak>5 < 6</speak>", line: 1, column: 10, messageContains: "&lt;"),
        Case(ssml: "<speak><>x</speak>", line: 1, column: 8, messageContains: "does not start a tag"),
        Case(ssml: "<speak><break time=\"1s\"", line: 1, column: 8, messageContains: "never closed"),
        Case(ssml: "<speak>x</speak", line: 1, column: 9, messageContains: "not closed by '>'"),
        Case(ssml: "<speak><a:b:c/></speak>", line: 1, column: 8, messageContains: "malformed element name"),
        // Bad attributes.
        Case(ssml: "<speak><break time=500ms/></speak>", line: 1, column: 20, messageContains: "in quotes"),
        Case(
            ssml: #"<speak><break time="500ms/></speak>"#, line: 1, column: 28,
            messageContains: "'<' is not allowed"),
        Case(ssml: #"<speak><break time="500ms/>"#, line: 1, column: 15, messageContains: "never closed"),
        Case(
            ssml: #"<speak><break time="1s" time="2s"/></speak>"#, line: 1, column: 25,
            messageContains: "twice"),
        Case(
            ssml: #"<speak><break time="1s"strength="x"/></speak>"#, line: 1, column: 24,
            messageContains: "expected a space"),
        Case(ssml: "<speak><break time/></speak>", line: 1, column: 15, messageContains: "has no value"),
        Case(ssml: #"<speak><sub>x</sub></speak>"#, line: 1, column: 8, messageContains: "alias"),
        Case(
            ssml: #"<speak><say-as>x</say-as></speak>"#, line: 1, column: 8, messageContains: "interpret-as"),
        // Entities.
        Case(ssml: "<speak>&foo;</speak>", line: 1, column: 8, messageContains: "unknown entity '&foo;'"),
        Case(ssml: "<speak>&eacute;</speak>", line: 1, column: 8, messageContains: "unknown entity"),
        Case(ssml: "<speak>a &amp b</speak>", line: 1, column: 10, messageContains: "not terminated"),
        Case(
            ssml: "<speak>&#0;</speak>", line: 1, column: 8,
            messageContains: "not a valid character reference"),
        Case(ssml: "<speak>&#xD800;</speak>", line: 1, column: 8, messageContains: "not a valid character"),
        Case(ssml: "<speak>&#x110000;</speak>", line: 1, column: 8, messageContains: "not a valid character"),
        Case(
            ssml: #"<speak><sub alias="&bogus;">x</sub></speak>"#, line: 1, column: 20,
            messageContains: "unknown entity"),
        // DTDs, entity-expansion bombs, other markup.
        Case(ssml: billionLaughs, line: 2, column: 1, messageContains: "document type declarations"),
        Case(
            ssml: "<!DOCTYPE speak SYSTEM \"file:///etc/passwd\"><speak/>", line: 1, column: 1,
            messageContains: "document type"),
        Case(ssml: "<speak><!-- never closed</speak>", line: 1, column: 8, messageContains: "comment"),
        Case(ssml: "<speak><![CDATA[open</speak>", line: 1, column: 8, messageContains: "CDATA"),
        Case(
            ssml: "<speak><?pi never closed</speak>", line: 1, column: 8,
            messageContains: "processing instruction"),
        Case(ssml: "<speak><!ELEMENT x></speak>", line: 1, column: 8, messageContains: "document type"),
        Case(ssml: "<speak>a\u{1}b</speak>", line: 1, column: 9, messageContains: "U+0001"),
    ]

    static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [
          <!ENTITY lol "lol">
          <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
          <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
          <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
          <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
        ]>
        <speak>&lol9;</speak>
        """

    @Test(arguments: cases)
    func malformedInputIsALocatedError(testCase: Case) throws {
        let error = try #require(Support.error(testCase.ssml))
        #expect(error.kind == .malformed)
        #expect(error.location == SourceLocation(line: testCase.line, column: testCase.column))
        #expect(error.message.contains(testCase.messageContains), "\(error.message)")
        #expect(error.description.hasPrefix("\(testCase.line):\(testCase.column): error: "))
    }

    @Test func strictModeRejectsTheSameMalformedInput() {
        let strict = SSMLParser(isStrict: true)
        for testCase in Self.cases {
            #expect(Support.error(testCase.ssml, parser: strict)?.kind == .malformed, "\(testCase.ssml)")
        }
    }

    @Test func tenMegabytesIsALimitErrorBeforeParsing() throws {
        let huge = "<speak>" + String(repeating: "Turn left. ", count: 1_000_000) + "</speak>"
        #expect(huge.utf8.count > 10_000_000)
        let error = try #require(Support.error(huge))
        #expect(error.kind == .limitExceeded)
        #expect(error.message.contains("65536"))
        #expect(Support.error(data: Data(huge.utf8))?.kind == .limitExceeded)
    }

    @Test func inputJustUnderTheLimitParses() throws {
        let parser = SSMLParser()
        let body = String(repeating: "a", count: parser.limits.maxInputBytes - 15)
        let utterance = try parser.parse("<speak>\(body)</speak>")
        #expect(Support.onlyText(utterance)?.text.count == body.count)
    }

    @Test func tenThousandDeepNestingIsADepthError() throws {
        let depth = 10_000
        let ssml =
            "<speak>" + String(repeating: "<prosody>", count: depth) + "x"
            + String(repeating: "</prosody>", count: depth) + "</speak>"
        let parser = SSMLParser(limits: .init(maxInputBytes: 1 << 20))
        let error = try #require(Support.error(ssml, parser: parser))
        #expect(error.kind == .limitExceeded)
        #expect(error.message.contains("64 deep"))
        // The 64th <prosody> would be the 65th open element.
        #expect(error.location == SourceLocation(line: 1, column: 8 + 63 * 9))
    }

    @Test func deepNestingWithinTheLimitParses() throws {
        let depth = 63
        let ssml =
            "<speak>" + String(repeating: "<w>", count: depth) + "x" + String(repeating: "</w>", count: depth)
            + "</speak>"
        #expect(Support.onlyText(try SSMLParser().parse(ssml))?.text == "x")
    }

    @Test(arguments: [
        ([0xFF], 0, 1, 1),
        (Array("<speak>ok</speak>".utf8) + [0xC3], 17, 1, 18),
        (Array("<speak>\nø".utf8) + [0x80] + Array("</speak>".utf8), 10, 2, 2),
        (Array("<speak>".utf8) + [0xE2, 0x82], 7, 1, 8),  // truncated sequence
        (Array("<speak>".utf8) + [0xC0, 0xAF], 7, 1, 8),  // overlong '/'
        (Array("<speak>".utf8) + [0xED, 0xA0, 0x80], 7, 1, 8),  // surrogate
        (Array("<speak>".utf8) + [0xF4, 0x90, 0x80, 0x80], 7, 1, 8),  // above U+10FFFF
        (Array("<speak>a\r\nb".utf8) + [0xFE], 11, 2, 2),
    ])
    func invalidUTF8IsLocated(bytes: [UInt8], offset: Int, line: Int, column: Int) throws {
        let found = try #require(Support.error(data: Data(bytes)))
        #expect(found.kind == .invalidEncoding)
        #expect(found.location == SourceLocation(line: line, column: column))
        #expect(found.message.contains("at offset \(offset) is not valid UTF-8"))
    }

    @Test func cutShortSequenceNamesItsFirstByteAndWhatCutIt() throws {
        let bytes: [UInt8] = Array("caf".utf8) + [0xC3] + Array("<".utf8)
        let found = try #require(Support.error(data: Data(bytes)))
        #expect(found.location == SourceLocation(line: 1, column: 4))
        #expect(
            found.message
                == "byte 0xC3 at offset 3 is not valid UTF-8: a 2-byte sequence cut short by 0x3C at offset 4"
        )
        let three: [UInt8] = Array("ab".utf8) + [0xE2, 0x82] + Array("x".utf8)
        let second = try #require(Support.error(data: Data(three)))
        #expect(
            second.message.hasPrefix("byte 0xE2 at offset 2 is not valid UTF-8: a 3-byte sequence cut short"))
    }

    @Test func utf16InputGetsAHint() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "<speak>Hi</speak>".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let error = try #require(Support.error(data: Data(bytes)))
        #expect(error.kind == .invalidEncoding)
        #expect(error.location == SourceLocation(line: 1, column: 1))
        #expect(error.message.contains("UTF-16"))
    }

    @Test func segmentCountIsLimited() throws {
        let parser = SSMLParser(limits: .init(maxSegments: 3))
        #expect(try parser.parse(#"a<mark name="1"/>b"#).segments.count == 3)
        let error = try #require(Support.error(#"a<mark name="1"/>b<mark name="2"/>"#, parser: parser))
        #expect(error.kind == .limitExceeded)
        #expect(error.location == SourceLocation(line: 1, column: 19))
    }

    @Test func manyElementsParseQuickly() throws {
        // 3,000 sibling elements: linear work, and a clear segment-limit error well under the input limit.
        let ssml = "<speak>" + String(repeating: #"a<mark name="m"/>"#, count: 3000) + "</speak>"
        let error = try #require(Support.error(ssml))
        #expect(error.kind == .limitExceeded)
        #expect(error.message.contains("4096"))
    }

    @Test func randomBytesNeverCrash() {
        // A deterministic generator: every prefix of a mix of markup pieces either parses or throws.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let pieces = [
            "<speak>", "</speak>", "<s>", "</s>", "<break time=\"1s\"/>", "&amp;", "&", "<", ">", "\"", "'",
            "x",
            " ", "<prosody rate=\"", "\">", "</prosody>", "<!--", "-->", "<![CDATA[", "]]>", "<amazon:", "ø",
            "\n",
        ]
        var parsed = 0
        var failed = 0
        for _ in 0..<2000 {
            var text = ""
            for _ in 0..<12 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += pieces[Int(state >> 33) % pieces.count]
            }
            if Support.error(text) == nil { parsed += 1 } else { failed += 1 }
        }
        #expect(parsed + failed == 2000)
        #expect(parsed > 0 && failed > 0)
    }
}
