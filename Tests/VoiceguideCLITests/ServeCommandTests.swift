import Foundation
import GuidanceService
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// A `voiceguide serve` process of a test, on a socket in a folder of its own.
final class Daemon {
    let process = Process()
    let folder: URL
    let socket: String
    private let errors = Pipe()

    /// Starts the daemon with `arguments` after `serve --socket …`; `prefix` runs it through
    /// another program (`setpriv` to change its user); `executable` replaces the built binary.
    init(
        _ arguments: [String], prefix: [String] = [], environment: [String: String] = [:], folder: URL? = nil,
        executable: String? = nil
    ) throws {
        self.folder = try folder ?? CommandRunner.temporaryFolder()
        socket = self.folder.appendingPathComponent("voiceguide.sock").path
        let executable = try executable ?? CommandRunner().executable.path
        let command = [executable, "serve", "--socket", socket] + arguments
        process.executableURL = URL(fileURLWithPath: prefix.isEmpty ? executable : prefix[0])
        process.arguments = prefix.isEmpty ? Array(command.dropFirst()) : Array(prefix.dropFirst()) + command
        var env = ProcessInfo.processInfo.environment
        env["VOICEGUIDE_VOICES"] = TestFixtures.packageRoot().appendingPathComponent("Voices").path
        env["ALSA_CONFIG_PATH"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.currentDirectoryURL = TestFixtures.packageRoot()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Waits until the daemon answers on its socket (false when it exited or took too long).
    func waitUntilListening(timeout: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, process.isRunning {
            if let client = try? GuidanceClient(path: socket) {
                client.close()
                return true
            }
            usleep(20_000)
        }
        return false
    }

    func client() throws -> GuidanceClient { try GuidanceClient(path: socket) }

    /// Sends a signal and returns the exit status (nil when it did not exit within `timeout`).
    func stop(signal: Int32 = SIGTERM, timeout: Double = 10) -> Int32? {
        kill(process.processIdentifier, signal)
        return waitForExit(timeout: timeout)
    }

    func waitForExit(timeout: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        guard !process.isRunning else { return nil }
        return process.terminationStatus
    }

    /// What the daemon wrote on stderr (after it exited).
    var stderr: String {
        String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Runs `voiceguide ctl --socket … ARGS`.
    func ctl(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner().run(["ctl", "--socket", socket] + arguments)
    }
}

@Suite(.serialized) struct ServeCommandTests {
    static let fixture = TestFixtures.directions("navigation-ios_routeWithInstructions.json")

    /// Progress fixes for driving the fixture at 15 m/s, one a second, as JSON lines.
    static func progressTrace() throws -> String {
        let route = try Route.decode(from: Data(contentsOf: fixture))
        var ends: [Double] = []
        for step in route.legs[0].steps { ends.append((ends.last ?? 0) + step.distance) }
        var lines: [String] = []
        var position = 0.0
        var time = 0
        while position < ends[ends.count - 2] {
            let step = ends.firstIndex { $0 > position } ?? 0
            lines.append(
                #"{"time":\#(time),"leg":0,"step":\#(step),"distance_remaining":\#(ends[step] - position),"speed":15}"#
            )
            position += 15
            time += 1
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func serveAnswersCtlWritesPromptsAndStopsCleanly() throws {
        let output = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let daemon = try Daemon(["--output-dir", output.path])
        #expect(daemon.waitUntilListening())
        let attributes = try FileManager.default.attributesOfItem(atPath: daemon.socket)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let hello = try daemon.ctl(["hello"])
        #expect(hello.status == 0)
        #expect(hello.stdout.contains(#""protocol":1"#))
        let announce = try daemon.ctl(["announce", "--priority", "important", "Speed camera ahead"])
        #expect(announce.status == 0)
        #expect(announce.stdout.contains(#""outcome":"spoken""#), "\(announce.stdout)")
        #expect(try daemon.ctl(["route", Self.fixture.path]).stdout.contains(#""steps":6"#))
        let unknown = try daemon.ctl(["send", #"{"id":5,"cmd":"fly"}"#])
        #expect(unknown.status == 1)
        #expect(unknown.stdout.contains("unknown_cmd"))
        let events = Process()
        events.executableURL = try CommandRunner().executable
        events.arguments = ["ctl", "--socket", daemon.socket, "events", "--count", "1"]
        let eventsOut = Pipe()
        events.standardOutput = eventsOut
        try events.run()
        for _ in 0..<100 where !(try daemon.ctl(["status"]).stdout.contains(#""subscribers":1"#)) {
            usleep(20_000)
        }
        #expect(try daemon.ctl(["mute"]).stdout.contains(#""muted":true"#))
        let printed = String(decoding: eventsOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        events.waitUntilExit()
        #expect(events.terminationStatus == 0)
        #expect(printed.contains(#""subscribed":true"#))
        #expect(printed.contains(#"{"event":"muted","muted":true}"#), "\(printed)")
        #expect(try daemon.ctl(["status"]).stdout.contains(#""muted":true"#))

        let file = output.appendingPathComponent("0001.wav")
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: file.path) { usleep(20_000) }
        let prompt = try WAVFile.read(from: file)
        #expect(prompt.duration > 0.6 && prompt.duration < 3, "\(prompt.duration)")
        #expect(AudioLevel.rmsDB(prompt.samples) > -30)

        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
        #expect(daemon.stderr.contains("removed \(daemon.socket)"))
    }

    @Test func ctlWithoutADaemonSaysSo() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner().run([
            "ctl", "--socket", folder.appendingPathComponent("none").path, "status",
        ])
        #expect(result.status == 69)
        #expect(result.stderr.contains("no daemon answers"))
    }

    @Test func aLiveSocketIsAnErrorAndAStaleOneIsReplaced() throws {
        let first = try Daemon(["--sink", "null"])
        #expect(first.waitUntilListening())
        let second = try Daemon(["--sink", "null"], folder: first.folder)
        #expect(second.waitForExit(timeout: 20) == 1)
        #expect(second.stderr.contains("another voiceguide serve is answering on \(first.socket)"))
        #expect(try first.ctl(["hello"]).status == 0)

        // A crash leaves the socket file behind.
        kill(first.process.processIdentifier, SIGKILL)
        _ = first.waitForExit()
        #expect(FileManager.default.fileExists(atPath: first.socket))
        let third = try Daemon(["--sink", "null"], folder: first.folder)
        #expect(third.waitUntilListening())
        #expect(try third.ctl(["hello"]).status == 0)
        #expect(third.stop() == 0)
    }

    @Test func sighupReloadsAndSigpipeNeverKills() throws {
        let daemon = try Daemon(["--sink", "null"])
        #expect(daemon.waitUntilListening())
        let listener = try daemon.client()
        #expect(
            try listener.request(.object([("id", .number(1)), ("cmd", .string("subscribe"))]))["ok"]
                == .bool(true))
        kill(daemon.process.processIdentifier, SIGHUP)
        let event = try listener.readMessage(timeout: 10)
        #expect(event?["event"] == .string("reloaded"))

        // Clients that send and vanish without reading their replies.
        for _ in 0..<20 {
            let client = try daemon.client()
            try client.send(Data(String(repeating: #"{"cmd":"status"}"# + "\n", count: 2000).utf8))
            client.close()
        }
        #expect(try daemon.ctl(["hello"]).status == 0)
        #expect(daemon.process.isRunning)
        #expect(daemon.stop(signal: SIGINT) == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
    }

    @Test func otherUsersAreRefusedUnlessTheirGroupIsOpened() throws {
        let folder = try CommandRunner.temporaryFolder()
        chmod(folder.path, 0o777)
        // The clone may sit in a folder only root can enter (mktemp -d is 0700): `nobody` runs a
        // copy of the binary and the voices from the test's own world-readable folder.
        let binary = folder.appendingPathComponent("voiceguide")
        try FileManager.default.copyItem(at: try CommandRunner().executable, to: binary)
        let voices = folder.appendingPathComponent("Voices")
        try FileManager.default.copyItem(
            at: TestFixtures.packageRoot().appendingPathComponent("Voices"), to: voices)
        let asNobody = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--groups=0"]
        let environment = ["VOICEGUIDE_VOICES": voices.path]
        let daemon = try Daemon(
            ["--sink", "null"], prefix: asNobody, environment: environment, folder: folder,
            executable: binary.path)
        #expect(daemon.waitUntilListening())
        // This test runs as root: a different user from the daemon's.
        let refused = try daemon.client().readMessage(timeout: 10)
        #expect(
            refused?["error"]?["code"] == .string("permission_denied"), "\(refused?.serialized ?? "nothing")")
        #expect(daemon.stop() == 0, "\(daemon.stderr)")

        let shared = try Daemon(
            ["--sink", "null", "--group", "root"], prefix: asNobody, environment: environment, folder: folder,
            executable: binary.path)
        #expect(shared.waitUntilListening())
        let attributes = try FileManager.default.attributesOfItem(atPath: shared.socket)
        #expect((attributes[.posixPermissions] as? Int) == 0o660)
        let hello = try shared.client().request(.object([("id", .number(1)), ("cmd", .string("hello"))]))
        #expect(hello["ok"] == .bool(true))
        #expect(shared.stop() == 0)
    }

    /// A realistic drive of the fixture as GPS fixes (1 Hz, noise, an outage), dated today.
    static func positions() throws -> [Position] {
        let route = try Route.decode(from: Data(contentsOf: fixture))
        let motion = RealisticMotion(route: route, line: try RouteLine(route: route), seed: 5)
        return SimulatedReceiver(motion: motion, seed: 5).fixes.map { fix in
            var dated = fix
            dated.time += 1_764_547_200
            return dated
        }
    }

    /// Runs the Python client on `trace` against `daemon`; returns its exit status and messages.
    static func replay(_ trace: URL, on daemon: Daemon) throws -> (Int32, [JSONValue]) {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = [
            TestFixtures.packageRoot().appendingPathComponent("Examples/clients/voiceguide_client.py").path,
            "--socket", daemon.socket, "--route", fixture.path, "--trace", trace.path, "--speedup", "0",
        ]
        let out = Pipe()
        python.standardOutput = out
        try python.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        return (
            python.terminationStatus,
            try text.split(separator: "\n").map { try JSONValue.parse(Data($0.utf8)) }
        )
    }

    @Test(arguments: [TraceFormat.gpx, .nmea, .gpsdJSON])
    func pythonClientReplaysAGPSTraceThatTheDaemonMatches(_ format: TraceFormat) throws {
        let daemon = try Daemon(["--sink", "null"])
        #expect(daemon.waitUntilListening())
        let trace = daemon.folder.appendingPathComponent("drive.\(format.rawValue)")
        try TraceWriter.write(try Self.positions(), as: format).write(
            to: trace, atomically: true, encoding: .utf8)
        let (status, messages) = try Self.replay(trace, on: daemon)
        #expect(status == 0)
        let summary = try #require(messages.last)
        #expect(summary["errors"] == .number(0), "\(summary.serialized)")
        let spoken = messages.filter { $0["event"] == .string("spoke") }.compactMap { message -> String? in
            if case .string(let text)? = message["text"] { text } else { nil }
        }
        #expect(spoken.count >= 4, "\(spoken)")
        #expect(spoken.contains { $0.contains("California Street") })
        #expect(!messages.contains { $0["event"] == .string("off_route") })
        #expect(daemon.stop() == 0)
    }

    @Test(arguments: [8, 3, 21] as [UInt64])
    func promptsThroughTheSocketAreThoseOfDriveTrace(seed: UInt64) throws {
        let route = try Route.decode(from: Data(contentsOf: Self.fixture))
        var configuration = MotionConfiguration()
        configuration.outageDuration = 0
        configuration.outlierProbability = 0
        let motion = RealisticMotion(
            route: route, line: try RouteLine(route: route), seed: seed, configuration: configuration)
        let fixes = SimulatedReceiver(motion: motion, seed: seed, configuration: configuration).fixes.map {
            fix in
            var dated = fix
            dated.time += 1_764_547_200
            return dated
        }
        let daemon = try Daemon(["--sink", "null"])
        #expect(daemon.waitUntilListening())
        let trace = daemon.folder.appendingPathComponent("drive.json")
        try TraceWriter.write(fixes, as: .gpsdJSON).write(to: trace, atomically: true, encoding: .utf8)

        let drive = try CommandRunner().run(["drive", Self.fixture.path, "--trace", trace.path, "--json"])
        #expect(drive.status == 0, "\(drive.stderr)")
        let expected = try drive.stdout.split(separator: "\n").map { try JSONValue.parse(Data($0.utf8)) }
            .filter { $0["event"] == .string("prompt") }
            .map { ($0["text"]?.serialized ?? "", Self.number($0["time_s"])) }
        let (status, messages) = try Self.replay(trace, on: daemon)
        #expect(status == 0)
        let latency = AnnouncementTiming().outputLatency
        let spoken = messages.filter { $0["event"] == .string("spoke") }
            .map { ($0["text"]?.serialized ?? "", Self.number($0["time"]) + latency) }
        #expect(expected.count >= 4)
        #expect(spoken.map(\.0) == expected.map(\.0), "socket: \(spoken)\ndrive: \(expected)")
        // Each prompt at the fix that triggered it: the controller measures a prompt built during
        // an update (an approach with its distance) before deciding, as `drive --trace` does.
        for (heard, wanted) in zip(spoken, expected) {
            #expect(abs(heard.1 - wanted.1) <= 0.1, "\(heard) vs \(wanted)")
        }
        #expect(daemon.stop() == 0)
    }

    /// `serve --gpsd`: a real gpsd (`gpsfake`, started after the daemon, which keeps retrying)
    /// feeds the positions; a client sends only the route, a subscriber sees the prompts decided
    /// and spoken, and they are in the output files. A client's `position` is refused.
    @Test func serveReadsPositionsFromARealGpsd() throws {
        let output = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let port = Int.random(in: 40_000...49_999)
        let daemon = try Daemon(["--output-dir", output.path, "--gpsd", "127.0.0.1:\(port)"])
        #expect(daemon.waitUntilListening())
        let log = daemon.folder.appendingPathComponent("drive.nmea")
        try TraceWriter.write(Array(try Self.positions().prefix(25)), as: .nmea).write(
            to: log, atomically: true, encoding: .utf8)
        let client = try daemon.client()
        let position = try client.request(
            .object([
                ("id", .number(1)), ("cmd", .string("position")), ("lat", .number(37.79)),
                ("lon", .number(-122.4)),
            ]))
        #expect(position["error"]?["code"] == .string("positions_from_gpsd"), "\(position.serialized)")
        let listener = try daemon.client()
        #expect(
            try listener.request(.object([("id", .number(1)), ("cmd", .string("subscribe"))]))["ok"]
                == .bool(true))
        let route = try client.request(
            .object([("id", .number(2)), ("cmd", .string("route")), ("path", .string(Self.fixture.path))]))
        #expect(route["ok"] == .bool(true), "\(route.serialized)")

        Thread.sleep(forTimeInterval: 1)  // the daemon tries gpsd before it is up
        let gpsd = try NavigateCommandTests.gpsfake(log, port: port)
        defer { NavigateCommandTests.stop(gpsd) }
        var events: [JSONValue] = []
        let deadline = Date().addingTimeInterval(40)
        while Date() < deadline, !events.contains(where: { $0["event"] == .string("spoke") }) {
            if let message = try listener.readMessage(timeout: 1) { events.append(message) }
        }
        #expect(events.contains { $0["event"] == .string("decided") }, "\(events.map(\.serialized))")
        let spoke = try #require(events.first { $0["event"] == .string("spoke") })
        #expect(spoke["tier"] != .string("custom"), "a route prompt: \(spoke.serialized)")
        let status = try client.request(.object([("id", .number(3)), ("cmd", .string("status"))]))
        #expect(status["route"] == .bool(true), "\(status.serialized)")

        let file = output.appendingPathComponent("0001.wav")
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: file.path) { usleep(20_000) }
        let prompt = try WAVFile.read(from: file)
        #expect(AudioLevel.rmsDB(prompt.samples) > -30, "\(spoke.serialized)")
        #expect(prompt.duration > 0.6, "\(prompt.duration)")
        #expect(daemon.stop() == 0)
        let stderr = daemon.stderr
        #expect(stderr.contains("gpsd: cannot connect to 127.0.0.1:\(port)"), "retried: \(stderr)")
        #expect(stderr.contains("gpsd: connected to 127.0.0.1:\(port)"), "\(stderr)")
    }

    /// `serve --sink pulse` against a real headless PulseAudio: a prompt announced through the
    /// socket plays on the null sink (its monitor recorded) as media.role=navigation, so a music
    /// stream ducks while it plays and comes back after.
    @Test func serveSpeaksThroughTheSoundServerAndMusicDucks() async throws {
        let server = try PulseTestServer()
        defer { server.stop() }
        let prompt = "In 400 meters, take the second exit at the roundabout onto Station Road"
        let cli = try CommandRunner()
        let wav = server.folder.appendingPathComponent("prompt.wav")
        #expect(try cli.run(["render", "-o", wav.path, prompt]).status == 0)
        let expected = try WAVFile.read(from: wav).samples
        let music = server.folder.appendingPathComponent("music.wav")
        try WAVFile.write(
            samples: DuckingMeasurement.tone(seconds: 30, sampleRate: server.sampleRate),
            sampleRate: server.sampleRate, to: music)

        let daemon = try Daemon(["--sink", "pulse"], environment: server.environment)
        #expect(daemon.waitUntilListening())
        let recording = try server.record(into: server.folder.appendingPathComponent("monitor.raw"))
        let player = try server.playMusic(music)
        defer { player.stop() }
        try await recording.waitForAudio(seconds: 1.5)
        let announce = try daemon.ctl(["announce", "--priority", "important", prompt])
        #expect(announce.stdout.contains(#""outcome":"spoken""#), "\(announce.stdout)")
        // The reply comes when the prompt is handed over: wait for it to play, then 2 s more.
        let length = try WAVFile.read(from: wav).duration
        try await Task.sleep(for: .seconds(1))
        let streams = try server.runTool("pactl", ["list", "sink-inputs"]).output
        #expect(streams.contains(#"media.role = "navigation""#), "\(streams)")
        try await Task.sleep(for: .seconds(length + 1))
        let measured = DuckingMeasurement(
            recording: recording.stop(), sampleRate: server.sampleRate, prompt: expected)
        #expect(measured.promptSimilarity > 0.9, "\(measured)")
        #expect(measured.musicDuringMax <= measured.musicBefore - 12, "\(measured)")
        #expect(abs(measured.musicLevel(after: 1.0) - measured.musicBefore) < 1, "\(measured)")
        #expect(daemon.stop() == 0)
        let stderr = daemon.stderr
        #expect(stderr.contains("as media.role=navigation (--sink pulse)"), "\(stderr)")
    }

    @Test func serveOutputOptionsThatDoNotGoTogetherAreUsageErrors() throws {
        let cli = try CommandRunner()
        for arguments in [
            ["--sink", "radio"], ["--sink", "wav"], ["--output", "/tmp/x.wav"],
            ["--sink", "pulse", "--output-dir", "/tmp"], ["--output-dir", "/tmp", "--device", "hw:0"],
            ["--sink", "null", "--realtime"], ["--gpsd=localhost:0"], ["--gpsd", "a", "b"], ["file"],
        ] {
            let result = try cli.run(["serve", "--socket", "/nonexistent/s.sock"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
        }
    }

    static func number(_ value: JSONValue?) -> Double {
        if case .number(let number)? = value { number } else { .nan }
    }

    @Test func pythonClientReplaysATraceThroughTheSocket() throws {
        let output = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let daemon = try Daemon(["--output-dir", output.path])
        #expect(daemon.waitUntilListening())
        let trace = daemon.folder.appendingPathComponent("drive.jsonl")
        try Self.progressTrace().write(to: trace, atomically: true, encoding: .utf8)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = [
            TestFixtures.packageRoot().appendingPathComponent("Examples/clients/voiceguide_client.py").path,
            "--socket", daemon.socket, "--route", Self.fixture.path, "--trace", trace.path, "--speedup", "0",
        ]
        let out = Pipe()
        python.standardOutput = out
        try python.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)
        let messages = try text.split(separator: "\n").map { try JSONValue.parse(Data($0.utf8)) }
        let spoken = messages.filter { $0["event"] == .string("spoke") }.compactMap { $0["text"] }
        let summary = try #require(messages.last)
        #expect(summary["errors"] == .number(0))
        #expect(summary["spoken"] == .number(Double(spoken.count)))
        #expect(spoken.count >= 4)
        #expect(
            spoken.contains {
                if case .string(let text) = $0 { text.contains("California Street") } else { false }
            })
        #expect(daemon.stop() == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).filter {
            $0.hasSuffix(".wav")
        }
        #expect(files.count >= 1 && files.count <= spoken.count)
    }
}
