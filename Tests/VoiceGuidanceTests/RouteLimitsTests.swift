import Foundation
import Testing
import VoiceGuidance

/// Route values past anything a road has are located errors; JSON errors say where and what.
@Suite struct RouteLimitsTests {
    /// A one-step route response with the step's fields (and the maneuver's) as given.
    static func route(step: String = #""distance":100,"duration":10"#, maneuver: String = "") -> String {
        #"{"routes":[{"legs":[{"steps":[{"maneuver":{"type":"depart""#
            + (maneuver.isEmpty ? "" : ",\(maneuver)")
            + #"},\#(step)}],"distance":1,"duration":1}],"distance":1,"duration":1}]}"#
    }

    static func error(_ json: String) -> RouteDecodingError? {
        do {
            _ = try Route.decode(from: Data(json.utf8))
            return nil
        } catch {
            return error as? RouteDecodingError
        }
    }

    @Test(arguments: [
        (
            #""distance":1e23,"duration":10"#, "routes[0].legs[0].steps[0].distance",
            "longer than any road route"
        ),
        (
            #""distance":1e12,"duration":1e9"#, "routes[0].legs[0].steps[0].distance",
            "longer than any road route"
        ),
        (
            #""distance":100,"duration":1e9"#, "routes[0].legs[0].steps[0].duration",
            "longer than any drive takes"
        ),
        (
            #""distance":100000,"duration":1"#, "routes[0].legs[0].steps[0].duration",
            "faster than anything on a road"
        ),
        (
            #""distance":1,"duration":1,"voiceInstructions":[{"distanceAlongGeometry":1e300,"announcement":"x"}]"#,
            "routes[0].legs[0].steps[0].voiceInstructions[0].distanceAlongGeometry",
            "longer than any road route"
        ),
    ])
    func valuesPastAnyRoadAreLocatedErrors(step: String, path: String, words: String) throws {
        let error = try #require(Self.error(Self.route(step: step)))
        #expect(error.path == path)
        #expect(error.message.contains(words), "\(error)")
    }

    @Test func stepsThatAddUpPastTheLimitAreAnError() throws {
        let step = #"{"maneuver":{"type":"turn"},"distance":30000000,"duration":1000000}"#
        let json =
            #"{"legs":[{"steps":[\#(step),\#(step)],"distance":1,"duration":1}],"distance":1,"duration":1}"#
        let error = try #require(Self.error(json))
        #expect(error.path == "legs")
        #expect(error.message.contains("the steps add up to 60000 km"), "\(error)")
    }

    @Test(arguments: [
        (#""exit":1.5"#, "routes[0].legs[0].steps[0].maneuver.exit", "expected a whole number, found 1.5"),
        (#""exit":1e30"#, "routes[0].legs[0].steps[0].maneuver.exit", "expected a whole number"),
        (#""exit":5000"#, "routes[0].legs[0].steps[0].maneuver.exit", "past any roundabout"),
        (#""bearing_after":1e300"#, "routes[0].legs[0].steps[0].maneuver.bearing_after", "not a bearing"),
        (#""exit":"3""#, "routes[0].legs[0].steps[0].maneuver.exit", "expected a number, found a string"),
    ])
    func maneuverValuesAreCheckedInWords(maneuver: String, path: String, words: String) throws {
        let error = try #require(Self.error(Self.route(maneuver: maneuver)))
        #expect(error.path == path)
        #expect(error.message.contains(words), "\(error)")
    }

    @Test func typeErrorsSayWhatWasExpectedInWords() throws {
        let json = #"{"routes":[{"legs":[[]],"distance":1,"duration":1}]}"#
        let error = try #require(Self.error(json))
        #expect(error.description == "routes[0].legs[0]: expected an object, found an array")
        let null = try #require(Self.error(Self.route(step: #""distance":null,"duration":1"#)))
        #expect(null.description == "routes[0].legs[0].steps[0].distance: expected a number, found null")
        #expect(!error.description.contains("Dictionary") && !null.description.contains("Double"))
    }

    @Test(arguments: [
        ("{\"routes\": [\n  {\"legs\": x}]}", 2, 12, 24, "'x' where a value was expected"),
        ("{\"routes\": [1,]}", 1, 15, 14, "']' where a value was expected"),
        ("{\"a\" 1}", 1, 6, 5, "'1' where ':' was expected after a field name"),
        ("{\"a\": tru}", 1, 7, 6, "not a JSON value (did you mean true?)"),
        ("{\"a\": 1e999}", 1, 7, 6, "the number 1e999 is too large for a 64-bit number"),
        ("{\"a\": [1, 2", 1, 12, 11, "the document ends inside an array; it is cut short"),
        ("{\"a\": \"x\ny\"}", 1, 9, 8, "byte 0x0A inside a string (write it as an escape like \\n)"),
        ("{\"a\": 1} {}", 1, 10, 9, "'{' after the end of the JSON document"),
        ("{\"é\": 01}", 1, 7, 7, "a number with a leading zero"),
    ])
    func syntaxErrorsGiveLineColumnAndByte(
        json: String, line: Int, column: Int, offset: Int, message: String
    ) throws {
        let error = try #require(Self.error(json))
        #expect(error.path == "line \(line), column \(column) (byte \(offset))")
        #expect(error.message == message)
    }

    @Test func invalidUTF8InRouteJSONIsLocated() throws {
        let bytes: [UInt8] = Array(#"{"a": "caf"#.utf8) + [0xC3] + Array(#""}"#.utf8)
        do {
            _ = try Route.decode(from: Data(bytes))
            Issue.record("decoded")
        } catch let error as RouteDecodingError {
            #expect(error.path == "line 1, column 11 (byte 10)")
            #expect(error.message.hasPrefix("byte 0xC3 is not valid UTF-8: a 2-byte sequence cut short"))
        }
    }

    @Test func deepNestingIsASyntaxErrorNotACrash() throws {
        let json = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = try #require(Self.error(json))
        #expect(error.message.contains("nested deeper than 512 levels"))
    }

    @Test func phraseBuilderSaysHugeDistancesWithoutTrapping() throws {
        let book = try PhraseBook.load(directory: RoutingSupport.phrasesFolder, language: "en")
        for units in UnitSystem.allCases {
            let builder = PhraseBuilder(book: book, units: units)
            for meters in [1e23, 1e300, Double.greatestFiniteMagnitude] {
                let spoken = try #require(builder.distance(meters))
                #expect(!spoken.text.isEmpty)
            }
            #expect(builder.distance(.infinity) == nil && builder.distance(.nan) == nil)
        }
        #expect(Int(saturating: 1e23) == .max && Int(saturating: -1e23) == .min)
        #expect(Int(saturating: Double.nan) == 0 && Int(saturating: 41.9) == 41)
    }
}

extension RouteLimitsTests {
    @Test func aRouteThatTakesLongerThanAnyDriveIsAnError() throws {
        // Each step within the limits, but slow: a thousand steps of 40 km at 0.016 m/s.
        let step = #"{"maneuver":{"type":"turn"},"distance":40000,"duration":2500000}"#
        let steps = Array(repeating: step, count: 1_000).joined(separator: ",")
        let json = #"{"legs":[{"steps":[\#(steps)],"distance":1,"duration":1}],"distance":1,"duration":1}"#
        let error = try #require(Self.error(json))
        #expect(error.path == "legs")
        #expect(error.message.contains("driven at its own speeds the route takes"), "\(error)")
    }
}
