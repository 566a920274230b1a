import Foundation

/// Malformed requests, each with the error code its reply must carry and a part of the message
/// that names the problem. Sent to a service with no route loaded.
enum MalformedRequests {
    struct Case: Sendable, CustomStringConvertible {
        var line: String
        var code: String
        var message: String
        /// The id the reply must echo (null when the line has no readable id).
        var id: Double?
        var description: String { line.count > 80 ? String(line.prefix(77)) + "…" : line }
    }

    static let p = #""leg":0,"step":0,"distance_remaining":10"#

    static let cases: [Case] = [
        Case(line: "garbage", code: "parse_error", message: "not JSON"),
        Case(line: "{", code: "parse_error", message: "not JSON"),
        Case(line: #"{"cmd" "hello"}"#, code: "parse_error", message: "not JSON"),
        Case(line: #"{"cmd":"hello"} {"cmd":"status"}"#, code: "parse_error", message: "not JSON"),
        Case(line: "{\"cmd\":\"\u{1}\"}", code: "parse_error", message: "not JSON"),
        Case(line: #"{"id":1,"cmd":"volume","db":1e400}"#, code: "parse_error", message: "not JSON"),
        Case(
            line: String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000),
            code: "parse_error", message: "not JSON"),
        Case(line: "[1,2,3]", code: "invalid_request", message: "not an array"),
        Case(line: #""hello""#, code: "invalid_request", message: "not a string"),
        Case(line: "42", code: "invalid_request", message: "not a number"),
        Case(line: "null", code: "invalid_request", message: "not null"),
        Case(line: "true", code: "invalid_request", message: "not a boolean"),
        Case(line: #"{"id":[1],"cmd":"hello"}"#, code: "invalid_request", message: "\"id\" must be"),
        Case(line: #"{"id":{"n":1},"cmd":"hello"}"#, code: "invalid_request", message: "not an object"),
        Case(line: #"{"id":true,"cmd":"hello"}"#, code: "invalid_request", message: "not a boolean"),
        Case(line: "{}", code: "missing_cmd", message: "no \"cmd\""),
        Case(line: #"{"id":2}"#, code: "missing_cmd", message: "no \"cmd\"", id: 2),
        Case(
            line: #"{"id":3,"cmd":5}"#, code: "wrong_type", message: "\"cmd\" must be a string, not a number",
            id: 3),
        Case(line: #"{"id":4,"cmd":null}"#, code: "wrong_type", message: "not null", id: 4),
        Case(line: #"{"id":5,"cmd":["hello"]}"#, code: "wrong_type", message: "not an array", id: 5),
        Case(line: #"{"id":6,"cmd":"fly"}"#, code: "unknown_cmd", message: "unknown cmd \"fly\"", id: 6),
        Case(line: #"{"id":7,"cmd":""}"#, code: "unknown_cmd", message: "known: hello", id: 7),
        Case(line: #"{"id":8,"cmd":"HELLO"}"#, code: "unknown_cmd", message: "\"HELLO\"", id: 8),
        Case(
            line: #"{"id":9,"cmd":"hello","extra":1}"#, code: "unknown_field", message: "no field \"extra\"",
            id: 9),
        Case(
            line: #"{"id":10,"cmd":"status","verbose":true}"#, code: "unknown_field", message: "\"verbose\"",
            id: 10),
        Case(line: #"{"id":11,"cmd":"route"}"#, code: "missing_field", message: "\"path\"", id: 11),
        Case(
            line: #"{"id":12,"cmd":"route","route":"{}"}"#, code: "wrong_type",
            message: "\"route\" must be an object", id: 12),
        Case(
            line: #"{"id":13,"cmd":"route","route":{}}"#, code: "invalid_route", message: "does not decode",
            id: 13),
        Case(
            line: #"{"id":14,"cmd":"route","route":{"routes":[]}}"#, code: "invalid_route",
            message: "no route", id: 14),
        Case(
            line: #"{"id":15,"cmd":"route","route":{"legs":"x"}}"#, code: "invalid_route", message: "legs",
            id: 15),
        Case(
            line: #"{"id":16,"cmd":"route","path":"/nonexistent/route.json"}"#, code: "not_found",
            message: "/nonexistent/route.json", id: 16),
        Case(
            line: #"{"id":17,"cmd":"route","path":5}"#, code: "wrong_type",
            message: "\"path\" must be a string", id: 17),
        Case(
            line: #"{"id":18,"cmd":"route","route":{},"path":"x"}"#, code: "invalid_value",
            message: "not both", id: 18),
        Case(
            line: #"{"id":19,"cmd":"route","path":"x","units":"furlongs"}"#, code: "invalid_value",
            message: "\"furlongs\"", id: 19),
        Case(
            line: #"{"id":20,"cmd":"route","path":"x","voice":7}"#, code: "wrong_type",
            message: "\"voice\" must be a string", id: 20),
        Case(
            line: #"{"id":21,"cmd":"progress",\#(p)}"#, code: "no_route", message: "send route first", id: 21),
        Case(
            line: #"{"id":22,"cmd":"progress","step":0,"distance_remaining":10}"#, code: "missing_field",
            message: "needs \"leg\"", id: 22),
        Case(
            line: #"{"id":23,"cmd":"progress","leg":"0","step":0,"distance_remaining":10}"#,
            code: "wrong_type", message: "\"leg\" must be a number", id: 23),
        Case(
            line: #"{"id":24,"cmd":"progress","leg":-1,"step":0,"distance_remaining":10}"#,
            code: "invalid_value", message: "not -1", id: 24),
        Case(
            line: #"{"id":25,"cmd":"progress","leg":0.5,"step":0,"distance_remaining":10}"#,
            code: "invalid_value", message: "whole number", id: 25),
        Case(
            line: #"{"id":26,"cmd":"progress","leg":0,"step":0,"distance_remaining":-5}"#,
            code: "invalid_value", message: "\"distance_remaining\"", id: 26),
        Case(
            line: #"{"id":27,"cmd":"progress",\#(p),"speed":"fast"}"#, code: "wrong_type",
            message: "\"speed\" must be a number", id: 27),
        Case(
            line: #"{"id":28,"cmd":"progress",\#(p),"speed":-3}"#, code: "invalid_value",
            message: "\"speed\"", id: 28),
        Case(
            line: #"{"id":29,"cmd":"progress",\#(p),"time":-1}"#, code: "invalid_value", message: "\"time\"",
            id: 29),
        Case(
            line: #"{"id":30,"cmd":"progress",\#(p),"legg":0}"#, code: "unknown_field", message: "\"legg\"",
            id: 30),
        Case(
            line: #"{"id":31,"cmd":"position","lon":1}"#, code: "missing_field", message: "needs \"lat\"",
            id: 31),
        Case(
            line: #"{"id":32,"cmd":"position","lat":91,"lon":0}"#, code: "invalid_value",
            message: "from -90 to 90, not 91", id: 32),
        Case(
            line: #"{"id":33,"cmd":"position","lat":0,"lon":181}"#, code: "invalid_value", message: "\"lon\"",
            id: 33),
        Case(
            line: #"{"id":34,"cmd":"position","lat":"52.5","lon":13.4}"#, code: "wrong_type",
            message: "not a string", id: 34),
        Case(
            line: #"{"id":35,"cmd":"position","lat":true,"lon":13.4}"#, code: "wrong_type",
            message: "not a boolean", id: 35),
        Case(
            line: #"{"id":36,"cmd":"position","lat":1,"lon":1,"course":400}"#, code: "invalid_value",
            message: "\"course\"", id: 36),
        Case(
            line: #"{"id":37,"cmd":"position","lat":1,"lon":1,"accuracy":null}"#, code: "wrong_type",
            message: "not null", id: 37),
        Case(
            line: #"{"id":38,"cmd":"position","lat":1,"lon":1}"#, code: "no_route",
            message: "send route first", id: 38),
        Case(line: #"{"id":39,"cmd":"mode"}"#, code: "missing_field", message: "needs \"mode\"", id: 39),
        Case(
            line: #"{"id":40,"cmd":"mode","mode":"quiet"}"#, code: "invalid_value",
            message: "all or alerts_only", id: 40),
        Case(line: #"{"id":41,"cmd":"mode","mode":1}"#, code: "wrong_type", message: "not a number", id: 41),
        Case(
            line: #"{"id":42,"cmd":"announce"}"#, code: "missing_field", message: "\"text\" or \"ssml\"",
            id: 42),
        Case(
            line: #"{"id":43,"cmd":"announce","text":"  "}"#, code: "invalid_value", message: "empty", id: 43),
        Case(
            line: #"{"id":44,"cmd":"announce","text":5}"#, code: "wrong_type",
            message: "\"text\" must be a string", id: 44),
        Case(
            line: #"{"id":45,"cmd":"announce","text":"x","priority":"urgent"}"#, code: "invalid_value",
            message: "important, message or notification", id: 45),
        Case(
            line: #"{"id":46,"cmd":"announce","text":"x","priority":1}"#, code: "wrong_type",
            message: "\"priority\"", id: 46),
        Case(
            line: #"{"id":47,"cmd":"announce","text":"x","ssml":3}"#, code: "wrong_type", message: "\"ssml\"",
            id: 47),
        Case(line: #"{"id":48,"cmd":"volume"}"#, code: "missing_field", message: "needs \"db\"", id: 48),
        Case(
            line: #"{"id":49,"cmd":"volume","db":100}"#, code: "invalid_value", message: "from -60 to 24",
            id: 49),
        Case(
            line: #"{"id":50,"cmd":"volume","db":"loud"}"#, code: "wrong_type", message: "not a string",
            id: 50),
        Case(line: #"{"id":51,"cmd":"voice"}"#, code: "missing_field", message: "needs \"voice\"", id: 51),
        Case(
            line: #"{"id":52,"cmd":"voice","voice":"xx-XX"}"#, code: "not_found",
            message: "unknown voice 'xx-XX'", id: 52),
        Case(
            line: #"{"id":53,"cmd":"voice","voice":["en-US"]}"#, code: "wrong_type", message: "not an array",
            id: 53),
        Case(line: #"{"id":54,"cmd":"repeat"}"#, code: "no_route", message: "send route first", id: 54),
        Case(
            line: #"{"id":55,"cmd":"subscribe","events":["spoke"]}"#, code: "unknown_field",
            message: "\"events\"", id: 55),
        Case(
            line: #"{"id":56,"cmd":"mute","on":true}"#, code: "unknown_field", message: "it takes none",
            id: 56),
        Case(
            line: #"{"id":57,"cmd":"route","path":"/","units":"metric"}"#, code: "not_found",
            message: "cannot read", id: 57),
        Case(
            line: #"{"cmd":"progress","leg":0,"step":1e7,"distance_remaining":1}"#, code: "invalid_value",
            message: "\"step\""),
    ]
}
