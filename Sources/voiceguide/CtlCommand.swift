import Foundation
import GuidanceService
import VoiceGuidance

/// `voiceguide ctl`: one request to a running `voiceguide serve`; prints the reply.
enum CtlCommand: Command {
    static let name = "ctl"
    static let summary = "send one request to a running 'voiceguide serve' and print the reply"
    static let usage = """
        usage: voiceguide ctl [--socket PATH] [--timeout SECONDS] REQUEST [ARGS]

        Sends one request to the daemon and prints its reply line (JSON). For shell scripts and
        buttons: 'voiceguide ctl repeat', 'voiceguide ctl announce --priority important "Speed
        camera ahead"'.

          hello | status | mute | unmute | repeat | stop
          mode all|alerts_only
          volume --db DB                      output gain in dB (-60 to 24)
          voice ID                            switch to a voice profile
          announce [--priority important|message|notification] [--ssml] TEXT
          route FILE [--voice ID] [--units metric|imperial]
          progress LEG STEP METERS [--speed M/S]
          position LAT LON [--speed M/S] [--course DEG] [--accuracy M]
          send JSON                           any request, as one JSON object
          events [--count N]                  subscribe and print N events (default: until killed)

          --socket PATH      the daemon's socket (default $XDG_RUNTIME_DIR/voiceguide.sock)
          --timeout S        how long to wait for the reply (default 10)

        Exit status: 0 the reply is ok, 1 the daemon answered with an error, 64 usage,
        69 no daemon answers on the socket.
        """

    static func run(_ arguments: inout CommandLineArguments) async throws -> Int32 {
        let path = try ServeCommand.socketPath(&arguments)
        let timeout = try arguments.number("--timeout", in: 0.1...3600) ?? 10
        let count = try arguments.number("--count", in: 1...1e9).map { Int($0) }
        let request = try makeRequest(&arguments)
        let client: GuidanceClient
        do { client = try GuidanceClient(path: path) } catch {
            throw CommandFailure(
                "no daemon answers on \(path): \(error.message)\n  start one with 'voiceguide serve'",
                status: ExitStatus.unavailable)
        }
        do {
            let reply = try client.request(request, timeout: timeout)
            FileHandle.standardOutput.write(Data((reply.serialized + "\n").utf8))
            guard reply["ok"] == .bool(true) else { return ExitStatus.failure }
            if request["cmd"] == .string("subscribe") { try printEvents(client, count: count) }
            return ExitStatus.success
        } catch {
            throw CommandFailure("\(error)", status: ExitStatus.unavailable)
        }
    }

    private static func printEvents(_ client: GuidanceClient, count: Int?) throws {
        var printed = 0
        while count.map({ printed < $0 }) ?? true, let line = try client.readLine(timeout: 86_400) {
            FileHandle.standardOutput.write(line + Data("\n".utf8))
            printed += 1
        }
    }

    /// The request the arguments ask for.
    static func makeRequest(_ arguments: inout CommandLineArguments) throws -> JSONValue {
        let priority = try arguments.option("--priority")
        let ssml = arguments.flag("--ssml")
        let db = try arguments.number("--db", in: -60...24)
        let voice = try arguments.option("--voice")
        let units = try arguments.option("--units")
        var fix: [(String, JSONValue)] = []
        for name in ["speed", "course", "accuracy"] {
            if let value = try arguments.number("--" + name, in: 0...100_000) {
                fix.append((name, .number(value)))
            }
        }
        var words = try arguments.positionals()
        guard !words.isEmpty else { throw UsageError("give a request: status, repeat, announce TEXT, …") }
        let command = words.removeFirst()
        func object(_ fields: [(String, JSONValue)]) -> JSONValue {
            .object([("id", .number(1)), ("cmd", .string(command))] + fields)
        }
        func expect(_ count: Int, _ what: String) throws {
            guard words.count == count else { throw UsageError("\(command) takes \(what)") }
        }
        switch command {
        case "hello", "status", "mute", "unmute", "repeat", "stop":
            try expect(0, "no argument")
            return object([])
        case "events":
            try expect(0, "no argument")
            return .object([("id", .number(1)), ("cmd", .string("subscribe"))])
        case "mode":
            try expect(1, "all or alerts_only")
            return object([("mode", .string(words[0]))])
        case "volume":
            guard let db, words.isEmpty else { throw UsageError("volume takes --db DB") }
            return object([("db", .number(db))])
        case "voice":
            try expect(1, "a voice id")
            return object([("voice", .string(words[0]))])
        case "announce":
            try expect(1, "the TEXT to say (quote it)")
            var fields: [(String, JSONValue)] = [(ssml ? "ssml" : "text", .string(words[0]))]
            if let priority { fields.append(("priority", .string(priority))) }
            return object(fields)
        case "route":
            try expect(1, "a route FILE")
            var fields: [(String, JSONValue)] = [("path", .string(URL(fileURLWithPath: words[0]).path))]
            if let voice { fields.append(("voice", .string(voice))) }
            if let units { fields.append(("units", .string(units))) }
            return object(fields)
        case "progress":
            try expect(3, "LEG STEP METERS")
            let numbers = try words.map(number)
            return object(
                [
                    ("leg", .number(numbers[0])), ("step", .number(numbers[1])),
                    ("distance_remaining", .number(numbers[2])),
                ]
                    + fix.filter { $0.0 == "speed" })
        case "position":
            try expect(2, "LAT LON")
            let numbers = try words.map(number)
            return object([("lat", .number(numbers[0])), ("lon", .number(numbers[1]))] + fix)
        case "send":
            try expect(1, "one JSON object")
            do { return try JSONValue.parse(Data(words[0].utf8)) } catch { throw UsageError(error.message) }
        default:
            throw UsageError("unknown request '\(command)'")
        }
    }

    private static func number(_ word: String) throws -> Double {
        guard let value = Double(word), value.isFinite else { throw UsageError("'\(word)' is not a number") }
        return value
    }
}
