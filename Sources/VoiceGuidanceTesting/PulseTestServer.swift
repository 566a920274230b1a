public import Foundation
import VoiceGuidance

/// A headless PulseAudio daemon of a test's own: a null sink (whose monitor records what was
/// played), a native-protocol socket in a temporary folder, and role ducking that lowers
/// `media.role=music` streams by `duckingDB` while a `navigation` stream plays.
///
/// Started as `pulseaudio -n -F CONFIG --daemonize=no --exit-idle-time=-1` with `HOME` and
/// `XDG_RUNTIME_DIR` in the folder, so it neither needs nor touches a user session (and runs as
/// root, where the daemon would otherwise want `--system`). `stop` ends it and removes the folder.
public final class PulseTestServer: @unchecked Sendable {
    /// The folder holding the configuration, the socket and the daemon's runtime files.
    public let folder: URL
    /// The address clients use (`unix:FOLDER/native`): `PULSE_SERVER` or `--server`.
    public let address: String
    /// The null sink's name; its monitor source is `SINK.monitor`.
    public let sinkName = "voiceguide_test"
    /// The null sink's rate and channels (mono).
    public let sampleRate: Int
    private var daemon: pid_t
    private let log: URL

    /// Starts the daemon and waits (up to 10 s) until it answers.
    ///
    /// - Parameters:
    ///   - sampleRate: the null sink's rate.
    ///   - duckingDB: how much role ducking lowers music (a negative number of dB).
    public init(sampleRate: Int = 44_100, duckingDB: Int = -15) throws {
        self.sampleRate = sampleRate
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pulse-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        address = "unix:" + folder.appendingPathComponent("native").path
        let script = """
            load-module module-null-sink sink_name=\(sinkName) rate=\(sampleRate) channels=1
            load-module module-native-protocol-unix auth-anonymous=1 socket=\(folder.appendingPathComponent("native").path)
            load-module module-role-ducking trigger_roles=navigation ducking_roles=music volume=\(duckingDB)dB
            set-default-sink \(sinkName)

            """
        let config = folder.appendingPathComponent("test.pa")
        try script.write(to: config, atomically: true, encoding: .utf8)
        log = folder.appendingPathComponent("daemon.log")
        daemon = try Self.spawnDaemon(
            arguments: [
                "-n", "-F", config.path, "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
                "--disallow-exit", "--log-target=stderr",
            ], environment: Self.environment(folder: folder, address: address), log: log)
        try waitUntilAnswering()
    }

    deinit { stop() }

    /// The environment for the daemon and for clients of it (`PULSE_SERVER` set).
    public var environment: [String: String] { Self.environment(folder: folder, address: address) }

    private static func environment(folder: URL, address: String) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = folder.path
        env["XDG_RUNTIME_DIR"] = folder.path
        env["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
        env["PULSE_SERVER"] = address
        return env
    }

    /// What the daemon printed (for failure messages).
    public var daemonLog: String {
        (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }

    private func waitUntilAnswering() throws {
        for _ in 0..<200 {
            guard isDaemonRunning else { break }
            if (try? runTool("pactl", ["info"]))?.status == 0 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop()
        throw CocoaError(
            .executableLoad, userInfo: [NSLocalizedDescriptionKey: "pulseaudio did not start: \(daemonLog)"])
    }

    /// Runs a PulseAudio tool (`pactl`, `paplay`) against this server and waits for it.
    @discardableResult
    public func runTool(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = makeProcess(tool, arguments)
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Plays a WAV file as music (`paplay --property=media.role=music`) and returns at once;
    /// `stop` on the result ends it.
    public func playMusic(_ file: URL) throws -> Player {
        Player(
            pid: try Self.spawn(
                "/usr/bin/paplay", ["--property=media.role=music", file.path], environment: environment,
                output: "/dev/null"))
    }

    /// Starts recording the null sink's monitor (mono S16 at the sink's rate) into `file`.
    public func record(into file: URL) throws -> Recording {
        let pid = try Self.spawn(
            "/usr/bin/parec",
            [
                "-d", "\(sinkName).monitor", "--raw", "--format=s16le", "--rate=\(sampleRate)",
                "--channels=1",
                "--latency-msec=10",
            ], environment: environment, output: file.path)
        return Recording(pid: pid, file: file, sampleRate: sampleRate)
    }

    private func makeProcess(_ name: String, _ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(name)")
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        return process
    }

    /// Starts `pulseaudio` with stderr into `log`.
    private static func spawnDaemon(arguments: [String], environment: [String: String], log: URL) throws
        -> pid_t
    {
        try spawn(
            "/usr/bin/pulseaudio", arguments, environment: environment, output: "/dev/null", errors: log.path)
    }

    /// Starts a program with `ChildProcess` (`posix_spawn`, every signal unblocked and at its
    /// default); returns its pid, which `end` reaps. Not
    /// `Process`: its children inherit the spawning thread's blocked signals (so `parec` and
    /// `paplay` would never see SIGINT or SIGTERM), and the daemon closes every descriptor it
    /// inherits, including the one Foundation watches, which then blocks Foundation's reaper
    /// thread in `waitpid` for the daemon so that no later `Process` ends.
    static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], output: String,
        errors: String = "/dev/null"
    ) throws -> pid_t {
        try ChildProcess(
            executable, arguments, environment: environment, input: .null, output: .writeFile(output),
            error: .writeFile(errors)
        ).pid
    }

    /// Sends `signal` to `pid` and waits for it to end.
    static func end(_ pid: pid_t, signal: Int32 = SIGTERM) {
        guard pid > 0 else { return }
        kill(pid, signal)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Whether the daemon still runs (one that ended is reaped and forgotten).
    private var isDaemonRunning: Bool {
        guard daemon > 0 else { return false }
        var status: Int32 = 0
        if waitpid(daemon, &status, WNOHANG) == 0 { return true }
        daemon = 0
        return false
    }

    /// Ends the daemon and removes its folder (idempotent).
    public func stop() {
        Self.end(daemon)
        daemon = 0
        try? FileManager.default.removeItem(at: folder)
    }

    /// A `paplay` run.
    public struct Player: Sendable {
        let pid: pid_t

        /// Ends playback.
        public func stop() { PulseTestServer.end(pid) }
    }

    /// A `parec` run recording the monitor.
    public struct Recording: Sendable {
        let pid: pid_t
        /// The raw file being written.
        public let file: URL
        /// Frames per second of the recording.
        public let sampleRate: Int

        /// Waits (up to 10 s) until `seconds` of audio have been recorded: `parec` takes a while
        /// (about a second here) before the monitor's first data arrives.
        public func waitForAudio(seconds: Double) async throws {
            let bytes = Int(seconds * Double(sampleRate)) * 2
            for _ in 0..<500 {
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int ?? 0
                if size >= bytes { return }
                try await Task.sleep(for: .milliseconds(20))
            }
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "parec recorded nothing in 10 s"])
        }

        /// Stops recording and returns the samples captured.
        public func stop() -> [Int16] {
            PulseTestServer.end(pid, signal: SIGINT)
            guard let data = try? Data(contentsOf: file) else { return [] }
            return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        }
    }
}
