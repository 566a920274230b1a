public import Foundation
public import VoiceGuidance

/// The lines the daemon writes: replies and events, each one JSON object and a newline.
public enum ProtocolMessage {
    /// `{"id":…,"ok":true,…}` and a newline.
    public static func reply(_ id: RequestID, _ fields: [(String, JSONValue)] = []) -> Data {
        line(.object([("id", id.json), ("ok", .bool(true))] + fields))
    }

    /// `{"id":…,"ok":false,"error":{"code":…,"message":…}}` and a newline.
    public static func errorReply(_ id: RequestID, _ error: ProtocolError) -> Data {
        let detail = JSONValue.object([
            ("code", .string(error.code.rawValue)), ("message", .string(error.message)),
        ])
        return line(.object([("id", id.json), ("ok", .bool(false)), ("error", detail)]))
    }

    /// `{"event":NAME,…}` and a newline.
    public static func event(_ name: String, _ fields: [(String, JSONValue)] = []) -> Data {
        line(.object([("event", .string(name))] + fields))
    }

    /// The event line for something a `VoiceController` did.
    public static func event(_ event: VoiceController.Event) -> Data {
        switch event {
        case .decided(.speak(let prompt, let interrupted)):
            var fields = [("decision", JSONValue.string("speak"))] + describe(prompt)
            if let interrupted { fields.append(("interrupting", .string(interrupted.instruction.text))) }
            return Self.event("decided", fields)
        case .decided(.drop(let dropped)):
            return Self.event(
                "decided",
                [
                    ("decision", .string("drop")), ("reason", .string(dropped.reason.rawValue)),
                    ("tier", .string(dropped.tier.rawValue)), ("leg", .number(Double(dropped.legIndex))),
                    ("step", .number(Double(dropped.stepIndex))), ("time", .number(dropped.time)),
                ])
        case .spoke(let prompt): return Self.event("spoke", describe(prompt))
        case .suppressed(let prompt, let reason):
            let word = reason == .alertsOnly ? "alerts_only" : reason.rawValue
            return Self.event("suppressed", [("reason", .string(word))] + describe(prompt))
        case .replaced(let prompt, let replacement):
            return Self.event("replaced", describe(prompt) + [("with", .string(replacement.text))])
        case .interrupted(let prompt): return Self.event("interrupted", describe(prompt))
        case .rerouted: return Self.event("rerouted")
        case .mutedChanged(let muted): return Self.event("muted", [("muted", .bool(muted))])
        }
    }

    /// The fields that describe a prompt in events.
    static func describe(_ prompt: ScheduledPrompt) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [
            ("text", .string(prompt.instruction.text)), ("tier", .string(prompt.tier.rawValue)),
            ("leg", .number(Double(prompt.legIndex))), ("step", .number(Double(prompt.stepIndex))),
            ("time", .number(rounded(prompt.time))), ("distance", .number(rounded(prompt.estimatedDistance))),
            ("duration", .number(rounded(prompt.duration))),
        ]
        if let ssml = prompt.instruction.ssml { fields.append(("ssml", .string(ssml))) }
        if let spoken = prompt.spokenDistance { fields.append(("spoken_distance", .number(rounded(spoken)))) }
        return fields
    }

    /// A number to the millisecond or millimetre (events are for people and logs).
    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    private static func line(_ value: JSONValue) -> Data {
        var text = value.serialized
        text += "\n"
        return Data(text.utf8)
    }
}
