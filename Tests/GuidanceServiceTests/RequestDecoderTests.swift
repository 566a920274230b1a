import Foundation
import GuidanceService
import Testing
import VoiceGuidance

@Suite struct RequestDecoderTests {
    let decoder = RequestDecoder()

    func decode(_ line: String) -> RequestDecoder.Decoded { decoder.decode(Data(line.utf8)) }

    @Test func decodesEveryCommand() throws {
        let expected: [(String, GuidanceRequest)] = [
            (#"{"id":1,"cmd":"hello"}"#, .hello),
            (#"{"cmd":"mute"}"#, .mute), (#"{"cmd":"unmute"}"#, .unmute),
            (#"{"cmd":"mode","mode":"alerts_only"}"#, .mode(.alertsOnly)),
            (#"{"cmd":"repeat"}"#, .repeatInstruction), (#"{"cmd":"stop"}"#, .stop),
            (#"{"cmd":"volume","db":-6.5}"#, .volume(db: -6.5)),
            (#"{"cmd":"voice","voice":"de-DE"}"#, .voice(id: "de-DE")),
            (#"{"cmd":"status"}"#, .status), (#"{"cmd":"subscribe"}"#, .subscribe),
            (
                #"{"cmd":"progress","leg":1,"step":2,"distance_remaining":350.5,"speed":13.9,"time":12}"#,
                .progress(
                    ProgressReport(
                        leg: 1, step: 2, distanceRemaining: 350.5, speed: 13.9, time: 12, accuracy: nil))
            ),
            (
                #"{"cmd":"position","lat":52.5,"lon":13.4,"speed":10,"course":90,"accuracy":5,"time":3}"#,
                .position(
                    PositionFix(latitude: 52.5, longitude: 13.4, time: 3, speed: 10, course: 90, accuracy: 5))
            ),
            (
                #"{"cmd":"announce","text":"Speed camera ahead","priority":"important"}"#,
                .announce(AnnouncementRequest(text: "Speed camera ahead", ssml: nil, priority: .important))
            ),
            (
                #"{"cmd":"announce","ssml":"<speak>Camera <break time=\"1s\"/> ahead</speak>"}"#,
                .announce(
                    AnnouncementRequest(
                        text: "Camera ahead", ssml: "<speak>Camera <break time=\"1s\"/> ahead</speak>",
                        priority: .message))
            ),
            (
                #"{"cmd":"route","path":"/tmp/r.json","voice":"en-GB","units":"metric"}"#,
                .route(RouteRequest(source: .path("/tmp/r.json"), voice: "en-GB", units: .metric))
            ),
        ]
        for (line, request) in expected {
            let decoded = decode(line)
            #expect(try decoded.result.get() == request, "\(line)")
        }
    }

    @Test func echoesStringAndNumberIds() throws {
        #expect(decode(#"{"id":"abc","cmd":"hello"}"#).id == .string("abc"))
        #expect(decode(#"{"id":17,"cmd":"hello"}"#).id == .number(17))
        #expect(decode(#"{"cmd":"hello"}"#).id == .null)
        let reply = ProtocolMessage.reply(.number(17), [("x", .bool(true))])
        #expect(String(decoding: reply, as: UTF8.self) == "{\"id\":17,\"ok\":true,\"x\":true}\n")
    }

    @Test func inlineRouteIsPassedOnAsJSON() throws {
        let decoded = decode(#"{"cmd":"route","route":{"legs":[],"distance":0}}"#)
        guard case .route(let request) = try decoded.result.get(), case .json(let data) = request.source
        else {
            Issue.record("not an inline route")
            return
        }
        #expect(try JSONValue.parse(data) == .object([("legs", .array([])), ("distance", .number(0))]))
    }

    @Test(
        arguments: MalformedRequests.cases.filter {
            !["no_route", "invalid_route", "not_found"].contains($0.code)
        })
    func malformedRequestIsNamed(_ malformed: MalformedRequests.Case) {
        let decoded = decode(malformed.line)
        guard case .failure(let error) = decoded.result else {
            Issue.record("decoded: \(malformed.line)")
            return
        }
        #expect(error.code.rawValue == malformed.code)
        #expect(error.message.contains(malformed.message), "\(error.message)")
        #expect(decoded.id == (malformed.id.map { .number($0) } ?? .null))
    }

    @Test func jsonValuesRoundTripWithEscapes() throws {
        let value = JSONValue.object([
            ("text", .string("a \"quoted\"\\ line\nwith\ttab \u{1} and ünïcode")), ("n", .number(-2.5)),
            ("i", .number(3)), ("list", .array([.null, .bool(false)])),
        ])
        let parsed = try JSONValue.parse(Data(value.serialized.utf8))
        #expect(parsed["text"] == value["text"])
        #expect(parsed["n"] == .number(-2.5))
        #expect(value.serialized.contains("\"i\":3,"))
    }
}
