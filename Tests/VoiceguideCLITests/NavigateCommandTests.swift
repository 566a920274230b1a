import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// `voiceguide navigate`, live: a trace replayed faster, NMEA through a FIFO, a real gpsd
/// (`gpsfake`) that is restarted during the drive.
@Suite(.serialized) struct NavigateCommandTests {
    let cli: CommandRunner
    init() throws { cli = try CommandRunner() }

    var routePath: String { TestFixtures.directions(GuidedDriveCommandTests.routeName).path }

    /// A prompt line of `--json`.
    struct Heard {
        var time: Double
        var heard: Double
        var text: String
    }

    static func objects(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    static func prompts(_ objects: [[String: Any]]) -> [Heard] {
        objects.filter { $0["event"] as? String == "prompt" }.compactMap { object in
            guard let time = object["time_s"] as? Double, let heard = object["heard_s"] as? Double,
                let text = object["text"] as? String
            else { return nil }
            return Heard(time: time, heard: heard, text: text)
        }
    }

    /// Checks that each prompt's audio is where the timeline puts it (silences `scale` times
    /// shorter than the drive's): its first sound within 2 ms of its start, speech in its first
    /// 0.6 s, and silence before it since the previous prompt ended (up to 300 ms).
    static func expectPromptsInAudio(_ wav: WAVFile.Contents, _ prompts: [Heard], scale: Double) {
        let rate = Double(wav.sampleRate)
        let samples = wav.samples
        var cursorTime = 0.0
        var cursorFrame = 0.0
        for prompt in prompts {
            let start = cursorFrame + max(0, (prompt.time - cursorTime) / scale * rate)
            let from = min(Int(start), samples.count)
            let speech = Array(samples[from..<min(from + Int(rate * 0.6), samples.count)])
            #expect(AudioLevel.rmsDB(speech) > -40, "no speech at \(prompt.time) s: \(prompt.text)")
            // The previous prompt's end (its fade included) to 2 ms before this one's start.
            let quietFrom = max(Int(cursorFrame) + 1, from - Int(rate * 0.3))
            let quietTo = from - Int(rate * 0.002)
            if quietTo - quietFrom >= Int(rate * 0.02) {
                let before = Array(samples[quietFrom..<quietTo])
                #expect(
                    AudioLevel.rmsDB(before) < -80,
                    "sound in the \((quietTo - quietFrom) * 1000 / Int(rate)) ms before \(prompt.text) at \(prompt.time) s"
                )
                let onset = samples[quietFrom..<samples.count].firstIndex { $0 != 0 } ?? samples.count
                #expect(
                    abs(Double(onset) - start) <= rate * 0.002,
                    "\(prompt.text) starts at frame \(onset), the timeline says \(Int(start))")
            }
            cursorFrame = max(cursorFrame, start + prompt.heard * rate)
            cursorTime = prompt.time + prompt.heard
        }
        #expect(Double(samples.count) >= cursorFrame - 10)
    }

    @Test func aTraceReplayedFasterSpeaksItsPromptsAtTheirTimes() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixes = try GuidedDriveCommandTests.fixes()
        let trace = folder.appendingPathComponent("trace.nmea")
        try TraceWriter.write(fixes, as: .nmea).write(to: trace, atomically: true, encoding: .utf8)
        let wavURL = folder.appendingPathComponent("drive.wav")
        let speedup = 50.0
        let result = try cli.run([
            "navigate", routePath, "--trace", trace.path, "--speedup", "50", "--output", wavURL.path,
            "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try Self.objects(result.stdout)
        let prompts = Self.prompts(objects)
        #expect(prompts.count >= 5)
        let gains = objects.filter { $0["event"] as? String == "prompt" }.map { $0["gain_db"] as? Double }
        #expect(
            gains.allSatisfy { $0.map { (0...6).contains($0) } == true }, "each prompt's speed gain: \(gains)"
        )
        let events = objects.compactMap { $0["event"] as? String }
        #expect(events.contains("gps_lost") && events.contains("gps_recovered"))
        let recorded = try #require(try? RecordedTrace(text: String(contentsOf: trace, encoding: .utf8)))
        let length = (recorded.positions.last?.time ?? 0) - (recorded.positions.first?.time ?? 0)
        let wav = try WAVFile.read(from: wavURL)
        let spoken = prompts.reduce(0) { $0 + $1.heard }
        // The track: the drive's silences 50× shorter, the prompts at their own speed.
        #expect(wav.duration > spoken)
        #expect(wav.duration < length / speedup + spoken + 2)
        Self.expectPromptsInAudio(wav, prompts, scale: speedup)
    }

    @Test func sigintEndsItCleanlyWithAFinishedWAV() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("trace.gpx")
        try TraceWriter.write(try GuidedDriveCommandTests.fixes(), as: .gpx).write(
            to: trace, atomically: true, encoding: .utf8)
        let wavURL = folder.appendingPathComponent("drive.wav")
        let process = try cli.launch([
            "navigate", routePath, "--trace", trace.path, "--speedup", "10", "--output", wavURL.path,
        ])
        Thread.sleep(forTimeInterval: 4)
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let wav = try WAVFile.read(from: wavURL)
        #expect(wav.duration > 1)
        #expect(AudioLevel.rmsDB(wav.samples) > -60)
    }

    @Test func aWrongDeviceFailsAtOnceAndBadSourcesAreUsageErrors() throws {
        let missing = try cli.run(["navigate", routePath, "--nmea", "/dev/null", "--device", "no-such-card"])
        #expect(missing.status == 69)
        #expect(missing.stderr.contains("no-such-card"))
        let twoSources = try cli.run(["navigate", routePath, "--nmea", "/dev/null", "--gpsd"])
        #expect(twoSources.status == 64)
        let badAddress = try cli.run(["navigate", routePath, "--gpsd=localhost:0"])
        #expect(badAddress.status == 64)
        let speedupLive = try cli.run(["navigate", routePath, "--gpsd", "--speedup", "2"])
        #expect(speedupLive.status == 64)
    }

    @Test func nmeaThroughAFIFOIsGuided() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("gps.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let fixes = Array(try GuidedDriveCommandTests.fixes().prefix(40))
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo.path) else { return }
            handle.write(Data("garbage that is no NMEA\n$GPRMC,bad*00\n".utf8))
            for fix in fixes {
                handle.write(Data((TraceWriter.nmea(fix) + "\r\n").utf8))
                Thread.sleep(forTimeInterval: 0.1)
            }
            try? handle.close()
        }
        writer.start()
        let result = try cli.run([
            "navigate", routePath, "--nmea", fifo.path, "--output",
            folder.appendingPathComponent("x.wav").path, "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let prompts = Self.prompts(try Self.objects(result.stdout))
        // The first fixes are at the start of the route: the departure prompt is spoken.
        #expect(!prompts.isEmpty)
        let wav = try WAVFile.read(from: folder.appendingPathComponent("x.wav"))
        #expect(AudioLevel.rmsDB(wav.samples) > -60)
    }

    /// `gpsfake` (a real gpsd on a pseudo-terminal) replaying `log` once on `port`, one fix
    /// (an RMC and a GGA sentence) a second.
    static func gpsfake(_ log: URL, port: Int) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gpsfake")
        process.arguments = ["-1", "-q", "-c", "0.5", "-P", String(port), log.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Ends `gpsfake` and the gpsd it started (SIGKILL: gpsd vanishes as when it crashes).
    static func stop(_ gpsfake: Process) {
        let id = gpsfake.processIdentifier
        let children = (try? String(contentsOfFile: "/proc/\(id)/task/\(id)/children", encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGKILL) }
        kill(id, SIGKILL)
        gpsfake.waitUntilExit()
    }

    @Test func aRealGpsdIsFollowedAndReconnectedToWhenItRestarts() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixes = try GuidedDriveCommandTests.fixes()
        let first = folder.appendingPathComponent("first.nmea")
        let second = folder.appendingPathComponent("second.nmea")
        try TraceWriter.write(Array(fixes.prefix(12)), as: .nmea).write(
            to: first, atomically: true, encoding: .utf8)
        try TraceWriter.write(Array(fixes.dropFirst(12).prefix(12)), as: .nmea).write(
            to: second, atomically: true, encoding: .utf8)
        let port = Int.random(in: 30_000...39_999)
        let wavURL = folder.appendingPathComponent("gpsd.wav")
        let outURL = folder.appendingPathComponent("out.jsonl")
        let errURL = folder.appendingPathComponent("err.txt")
        #expect(FileManager.default.createFile(atPath: outURL.path, contents: nil))
        #expect(FileManager.default.createFile(atPath: errURL.path, contents: nil))
        var gpsd = try Self.gpsfake(first, port: port)
        Thread.sleep(forTimeInterval: 1.5)
        let navigate = Process()
        navigate.executableURL = cli.executable
        navigate.arguments = [
            "navigate", routePath, "--gpsd", "127.0.0.1:\(port)", "--output", wavURL.path, "--json",
        ]
        navigate.currentDirectoryURL = TestFixtures.packageRoot()
        var environment = ProcessInfo.processInfo.environment
        environment["VOICEGUIDE_VOICES"] = TestFixtures.packageRoot().appendingPathComponent("Voices").path
        navigate.environment = environment
        navigate.standardOutput = try FileHandle(forWritingTo: outURL)
        navigate.standardError = try FileHandle(forWritingTo: errURL)
        try navigate.run()
        Thread.sleep(forTimeInterval: 12)  // most of the first log
        Self.stop(gpsd)  // gpsd goes away
        Thread.sleep(forTimeInterval: 1)
        gpsd = try Self.gpsfake(second, port: port)
        defer { Self.stop(gpsd) }
        Thread.sleep(forTimeInterval: 12)
        navigate.interrupt()
        navigate.waitUntilExit()
        #expect(navigate.terminationReason == .exit)
        #expect(navigate.terminationStatus == 0)
        let errors = try String(contentsOf: errURL, encoding: .utf8)
        #expect(
            errors.components(separatedBy: "gpsd: connected to 127.0.0.1:\(port)").count - 1 >= 2, "\(errors)"
        )
        #expect(errors.contains("closed the connection"))
        let prompts = Self.prompts(try Self.objects(try String(contentsOf: outURL, encoding: .utf8)))
        #expect(!prompts.isEmpty)
        let wav = try WAVFile.read(from: wavURL)
        Self.expectPromptsInAudio(wav, prompts, scale: 1)
    }
}
