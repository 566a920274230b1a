public import Foundation
import VoiceGuidance

/// Turns one request line into a `GuidanceRequest`, or a `ProtocolError` naming the problem.
///
/// Pure and socket-free: the daemon and the tests use the same decoder.
public struct RequestDecoder: Sendable {
    public init() {}

    /// A decoded line: the request's id (null when it has none or it could not be read) and
    /// the request or the error to reply with.
    public struct Decoded: Sendable {
        public var id: RequestID
        public var result: Result<GuidanceRequest, ProtocolError>
    }

    /// Decodes one line (without its newline).
    public func decode(_ line: Data) -> Decoded {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            return Decoded(id: .null, result: .failure(error))
        }
        guard case .object = value else {
            return Decoded(
                id: .null,
                result: .failure(
                    ProtocolError(.invalidRequest, "a request is a JSON object, not \(value.kindName)")))
        }
        let id: RequestID
        switch value["id"] {
        case nil, .null?: id = .null
        case .number(let number)?: id = .number(number)
        case .string(let text)?: id = .string(text)
        case let other?:
            let message = "\"id\" must be a string, a number or null, not \(other.kindName)"
            return Decoded(id: .null, result: .failure(ProtocolError(.invalidRequest, message)))
        }
        do {
            return Decoded(id: id, result: .success(try request(from: RequestFields(value))))
        } catch {
            return Decoded(id: id, result: .failure(error))
        }
    }

    private func request(from fields: RequestFields) throws(ProtocolError) -> GuidanceRequest {
        guard let command = fields.value["cmd"] else {
            throw ProtocolError(.missingCommand, "the request has no \"cmd\"")
        }
        guard case .string(let name) = command else {
            throw ProtocolError(.wrongType, "\"cmd\" must be a string, not \(command.kindName)")
        }
        var fields = fields
        fields.command = name
        switch name {
        case "hello", "mute", "unmute", "repeat", "stop", "status", "subscribe":
            try fields.onlyKnown([])
            return Self.simple[name] ?? .hello
        case "route": return .route(try route(fields))
        case "position": return .position(try position(fields))
        case "progress": return .progress(try progress(fields))
        case "mode": return .mode(try mode(fields))
        case "announce": return .announce(try announcement(fields))
        case "volume":
            try fields.onlyKnown(["db"])
            return .volume(db: try fields.number("db", in: -60...24))
        case "voice":
            try fields.onlyKnown(["voice"])
            return .voice(id: try fields.text("voice"))
        default:
            throw ProtocolError(
                .unknownCommand,
                "unknown cmd \"\(name.prefix(64))\"; known: \(GuidanceRequest.commandNames.joined(separator: ", "))"
            )
        }
    }

    private static let simple: [String: GuidanceRequest] = [
        "hello": .hello, "mute": .mute, "unmute": .unmute, "repeat": .repeatInstruction, "stop": .stop,
        "status": .status, "subscribe": .subscribe,
    ]

    private func route(_ fields: RequestFields) throws(ProtocolError) -> RouteRequest {
        try fields.onlyKnown(["route", "path", "voice", "units"])
        let source: RouteRequest.Source
        switch (fields.value["route"], fields.value["path"]) {
        case (nil, nil): throw ProtocolError(.missingField, "route needs \"route\" (the JSON) or \"path\"")
        case (.some, .some): throw ProtocolError(.invalidValue, "route takes \"route\" or \"path\", not both")
        case (let inline?, nil):
            guard case .object = inline else {
                throw ProtocolError(.wrongType, "\"route\" must be an object, not \(inline.kindName)")
            }
            source = .json(Data(inline.serialized.utf8))
        case (nil, .some):
            source = .path(try fields.text("path"))
        }
        var units: UnitSystem?
        if let word = try fields.optionalText("units") {
            guard let system = UnitSystem(rawValue: word) else {
                throw ProtocolError(
                    .invalidValue, "\"units\" must be metric or imperial, not \"\(word.prefix(32))\"")
            }
            units = system
        }
        return RouteRequest(source: source, voice: try fields.optionalText("voice"), units: units)
    }

    private func position(_ fields: RequestFields) throws(ProtocolError) -> PositionFix {
        try fields.onlyKnown(["lat", "lon", "time", "speed", "course", "accuracy"])
        return PositionFix(
            latitude: try fields.number("lat", in: -90...90),
            longitude: try fields.number("lon", in: -180...180),
            time: try fields.optionalNumber("time", in: 0...1e12),
            speed: try fields.optionalNumber("speed", in: 0...200),
            course: try fields.optionalNumber("course", in: 0...360),
            accuracy: try fields.optionalNumber("accuracy", in: 0...100_000))
    }

    private func progress(_ fields: RequestFields) throws(ProtocolError) -> ProgressReport {
        try fields.onlyKnown(["leg", "step", "distance_remaining", "speed", "time", "accuracy"])
        return ProgressReport(
            leg: try fields.index("leg"), step: try fields.index("step"),
            distanceRemaining: try fields.number("distance_remaining", in: 0...1e8),
            speed: try fields.optionalNumber("speed", in: 0...200),
            time: try fields.optionalNumber("time", in: 0...1e12),
            accuracy: try fields.optionalNumber("accuracy", in: 0...100_000))
    }

    private func mode(_ fields: RequestFields) throws(ProtocolError) -> VoiceController.Mode {
        try fields.onlyKnown(["mode"])
        let word = try fields.text("mode")
        switch word {
        case "all": return .all
        case "alerts_only": return .alertsOnly
        default:
            throw ProtocolError(
                .invalidValue, "\"mode\" must be all or alerts_only, not \"\(word.prefix(32))\"")
        }
    }

    private func announcement(_ fields: RequestFields) throws(ProtocolError) -> AnnouncementRequest {
        try fields.onlyKnown(["text", "ssml", "priority"])
        let text = try fields.optionalText("text")
        let ssml = try fields.optionalText("ssml")
        guard text != nil || ssml != nil else {
            throw ProtocolError(.missingField, "announce needs \"text\" or \"ssml\"")
        }
        var priority = SpeechPriority.message
        if let word = try fields.optionalText("priority") {
            guard let known = SpeechPriority(rawValue: word) else {
                throw ProtocolError(
                    .invalidValue,
                    "\"priority\" must be important, message or notification, not \"\(word.prefix(32))\"")
            }
            priority = known
        }
        let spoken = text ?? Self.plainText(ofSSML: ssml ?? "")
        guard !spoken.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || ssml != nil else {
            throw ProtocolError(.invalidValue, "\"text\" is empty")
        }
        return AnnouncementRequest(text: spoken, ssml: ssml, priority: priority)
    }

    /// The words of some SSML without its tags (the text said if the SSML does not parse).
    static func plainText(ofSSML ssml: String) -> String {
        ssml.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
