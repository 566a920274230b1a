// Fuzz target: what a client sends to `serve`, as the daemon reads it. The bytes are split
// into lines by the daemon's `LineSplitter` (in two reads, so lines cross reads), each line is
// decoded (the strict JSON parser, then `RequestDecoder`'s field checks) and answered where
// that needs no sound: a route's JSON decoded and then matched on, an announcement's SSML
// parsed, a position filtered and matched on the route (`PositionMatching`). Checked on every
// line: the reply the daemon would write is one line of JSON with the request's id, and a JSON
// value written and read back is the same value.
// fuzz-needs: service
// fuzz-max-len: 8192
// fuzz-timeout: 20

import Foundation

/// A two-leg route with geometry, matched on until a request sends another.
private let startRoute = try! GuidanceService.decodeRoute(
    .path("Tests/Fixtures/directions/navigation-ios_waypoint-after-turn.json"))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzService(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    var splitter = LineSplitter(limit: 2048)
    var session = Session()
    for piece in [bytes[..<(size / 2)], bytes[(size / 2)...]] {
        for item in splitter.append(UnsafeRawBufferPointer(rebasing: piece)) {
            precondition(splitter.heldBytes <= splitter.limit, "the splitter holds more than its limit")
            switch item {
            case .tooLong:
                checkReply(ProtocolMessage.errorReply(.null, ProtocolError(.lineTooLong, "too long")), id: .null)
            case .line(let line):
                session.answer(line)
            }
        }
    }
    return 0
}

/// One client's requests, answered in order on one route and one fix clock.
private struct Session {
    /// Made at the first position or route (most inputs have neither).
    lazy var matching: PositionMatching = {
        let matching = PositionMatching()
        matching.setRoute(startRoute)
        return matching
    }()
    var clock = 0.0

    mutating func answer(_ line: Data) {
        if let value = try? JSONValue.parse(line) {
            let again = try? JSONValue.parse(Data(value.serialized.utf8))
            precondition(again == value, "JSON written and read back differs: \(value.serialized)")
        }
        let decoded = RequestDecoder().decode(line)
        let reply: Data
        switch decoded.result {
        case .failure(let error):
            precondition(!error.message.isEmpty, "an error without a message")
            reply = ProtocolMessage.errorReply(decoded.id, error)
        case .success(let request):
            do {
                reply = ProtocolMessage.reply(decoded.id, try perform(request))
            } catch {
                reply = ProtocolMessage.errorReply(decoded.id, error)
            }
        }
        checkReply(reply, id: decoded.id)
    }

    /// What the daemon does for `request`, short of speaking (files named are not read).
    mutating func perform(_ request: GuidanceRequest) throws(ProtocolError) -> [(String, JSONValue)] {
        switch request {
        case .route(let route):
            guard case .json = route.source else { return [] }
            let decoded = try GuidanceService.decodeRoute(route.source)
            matching.setRoute(decoded)
            return [("legs", .number(Double(decoded.legs.count))), ("distance", .number(decoded.distance))]
        case .announce(let announcement):
            if let ssml = announcement.ssml { _ = try? SSMLParser().parse(ssml) }
            return [("text", .string(announcement.text))]
        case .position(let fix):
            clock = fix.time ?? clock + 1
            let outcome = try matching.match(
                Position(
                    latitude: fix.latitude, longitude: fix.longitude, time: clock, speed: fix.speed,
                    course: fix.course, horizontalAccuracy: fix.accuracy))
            var fields: [(String, JSONValue)] = [("state", .string(outcome.state.rawValue))]
            if let progress = outcome.progress {
                precondition(progress.distanceRemaining.isFinite, "a progress without a finite distance")
                fields.append(("distance_remaining", .number(ProtocolMessage.rounded(progress.distanceRemaining))))
            }
            return fields
        default:
            return []
        }
    }
}

/// A reply line must be one JSON object, ending in its only newline, with the request's id.
private func checkReply(_ reply: Data, id: RequestID) {
    precondition(reply.last == 0x0A && !reply.dropLast().contains(0x0A), "a reply is not one line")
    guard let value = try? JSONValue.parse(reply.dropLast()), case .object = value else {
        preconditionFailure("a reply is not a JSON object: \(String(decoding: reply, as: UTF8.self))")
    }
    precondition(value["id"] == id.json, "a reply with another id")
}
