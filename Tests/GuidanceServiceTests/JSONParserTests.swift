import Foundation
import GuidanceService
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@Suite struct JSONParserTests {
    func parse(_ text: String) throws(ProtocolError) -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    @Test func readsEveryKindOfValue() throws {
        let value = try parse(
            #" {"a": [1, -2.5e3, 0.125, 0, -0, 1E+2], "b": {"c": null, "d": true, "e": false}, "s": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude97"} "#
        )
        #expect(
            value["a"]
                == .array([.number(1), .number(-2500), .number(0.125), .number(0), .number(0), .number(100)]))
        #expect(value["b"] == .object([("c", .null), ("d", .bool(true)), ("e", .bool(false))]))
        #expect(value["s"] == .string("x\"\\/\u{8}\u{C}\n\r\té🚗"))
        #expect(try parse(#""caf\u00E9""#) == .string("café"))
        #expect(try parse("\"ünïcödé 🚗\"") == .string("ünïcödé 🚗"))
    }

    @Test(arguments: [
        ("{\"a\":1,}", "trailing comma"), ("[1,2,]", "trailing comma"), ("{\"a\" 1}", "':' was expected"),
        ("{a:1}", "member name"), ("[1 2]", "',' or ']'"), ("01", "more after the end"), ("1.", "after '.'"),
        (".5", "unexpected '.'"), ("+1", "unexpected '+'"), ("-", "a digit was expected"), ("1e", "exponent"),
        ("NaN", "unexpected 'N'"), ("tru", "true was expected"), ("nul", "null was expected"),
        ("\"abc", "unexpected end inside a string"), ("\"a\u{1}b\"", "control character"),
        (#""\x""#, "invalid escape"), (#""\u12""#, "4 hex digits"), (#""\ud800""#, "lone surrogate"),
        (#""\udc00""#, "lone surrogate"), (#""\ud800\u0041""#, "without its low half"),
        ("1e400", "does not fit"),
        ("{} {}", "more after the end"), ("", "a value was expected"), ("   ", "a value was expected"),
        ("[", "a value was expected"), ("{\"a\":1", "',' or '}'"), ("// comment\n{}", "unexpected '/'"),
    ])
    func rejectsWhatIsNotJSON(_ text: String, _ message: String) {
        do {
            _ = try parse(text)
            Issue.record("parsed: \(text)")
        } catch {
            #expect(error.code == .parseError)
            #expect(error.message.contains(message), "\(text): \(error.message)")
            #expect(error.message.contains("at byte") || error.message.contains("between bytes"))
        }
    }

    @Test func rejectsInvalidUTF8AndTooDeepNesting() throws {
        #expect(throws: ProtocolError.self) { try JSONValue.parse(Data([0x22, 0xC3, 0x28, 0x22])) }
        #expect(throws: ProtocolError.self) { try JSONValue.parse(Data([0x22, 0xED, 0xA0, 0x80, 0x22])) }
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try parse(deepest) }
        let deeper = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(throws: ProtocolError.self) { try parse(deeper) }
    }

    /// Strings are written with only `"`, `\` and control characters escaped, the runs between
    /// them whole, and read back to the same value (a combining mark after a quote included).
    @Test func stringsAreWrittenEscapedAndReadBack() throws {
        let text = "\"\u{301}a\\b\u{0}\u{1F}\n\r\tcafé 🚗\u{7F}\""
        let written = JSONValue.string(text).serialized
        #expect(written == #""\"\#u{301}a\\b\u0000\u001f\n\r\tcafé 🚗\#u{7F}\"""#)
        #expect(try JSONValue.parse(Data(written.utf8)) == .string(text))
        let long = String(repeating: "_ibw`Zqzb@", count: 20_000) + "\u{1}" + String(repeating: "é", count: 5)
        #expect(try JSONValue.parse(Data(JSONValue.string(long).serialized.utf8)) == .string(long))
        #expect(JSONValue.string("").serialized == #""""#)
    }

    @Test func agreesWithFoundationOnTheRouteCorpus() throws {
        for url in try TestFixtures.directionsFiles() {
            let data = try Data(contentsOf: url)
            let value = try JSONValue.parse(data)
            let again = try JSONSerialization.jsonObject(with: Data(value.serialized.utf8)) as? NSDictionary
            let original = try JSONSerialization.jsonObject(with: data) as? NSDictionary
            #expect(again == original, "\(url.lastPathComponent)")
            #expect(try Route.decode(from: Data(value.serialized.utf8)) == Route.decode(from: data))
        }
    }

    @Test func randomBytesNeverCrashIt() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(#"{}[]",:0123456789-+.eE truefalsnul\u"#.utf8) + [0x00, 0x0A, 0xC3, 0xFF]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0..<40, using: &generator)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
            _ = try? JSONValue.parse(Data(bytes))
        }
    }
}
