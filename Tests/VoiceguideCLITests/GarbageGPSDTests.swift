import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// `navigate --gpsd` against a real TCP peer that speaks gpsd's protocol badly: lines that are
/// not JSON, truncated JSON, binary bytes, deep nesting, 2 MB lines with and without a newline,
/// a 64 MB flood, then a closed connection. Each bad line is skipped and counted, the good fixes
/// between them are all taken, the second connection is made and followed, memory stays flat,
/// and Ctrl-C still ends it cleanly.
@Suite(.serialized) struct GarbageGPSDTests {
    let cli: CommandRunner
    init() throws { cli = try CommandRunner() }

    /// Sends each connection's chunks (files, with a pause after each) to whoever connects, one
    /// connection after the other, then exits. Prints its port first. Everything is bounded: a
    /// connection not made within 30 s ends it.
    static let listener = """
        import json, socket, sys, time
        plan = json.load(open(sys.argv[1]))
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        server.settimeout(30)
        print(server.getsockname()[1], flush=True)
        for chunks in plan:
            peer, _ = server.accept()
            peer.settimeout(5)
            peer.sendall(b'{"class":"VERSION","release":"3.25","proto_major":3,"proto_minor":15}\\n')
            try:
                peer.recv(4096)  # ?WATCH
            except OSError:
                pass
            for chunk in chunks:
                with open(chunk["file"], "rb") as data:
                    data = data.read()
                # In 1 MiB slices: Python's timeout bounds a whole sendall, and a debug build
                # reads the 64 MiB line in more than 5 s on a slow machine.
                for start in range(0, len(data), 1 << 20):
                    peer.sendall(data[start:start + (1 << 20)])
                time.sleep(chunk["pause"])
            peer.close()
        server.close()
        """

    /// One piece of what the peer sends.
    struct Chunk {
        var bytes: Data
        var pause: Double
    }

    /// Bytes 0…255 in a seeded order, without line endings (one binary "line").
    static func binary(_ count: Int, seed: UInt64) -> Data {
        var generator = SplitMix64(seed: seed)
        return Data(
            (0..<count).map { _ in
                let byte = UInt8(truncatingIfNeeded: generator.next())
                return byte == 0x0A || byte == 0x0D ? 0x00 : byte
            })
    }

    /// The first connection: twelve good fixes, each after a kind of garbage, the last four after a
    /// 2 MB line; then a 2 MB line and a 64 MB flood without a newline, binary bytes, and the close.
    static func firstConnection(_ fixes: [Position]) -> [Chunk] {
        let garbage: [Data] = [
            Data("this is not JSON at all\n".utf8),
            Data(#"{"class":"TPV","mode":3,"lat":37.79,"lo"#.utf8 + [0x0A]),
            binary(300, seed: 1) + [0x0A],
            Data((String(repeating: "[", count: 20_000) + "\n").utf8),
            Data(#"{"class":"TPV","mode":3,"time":"not a time","lat":1e999,"lon":"x"}"#.utf8 + [0x0A]),
            Data("\u{0}\u{0}{}\u{0}\n".utf8),
            Data(#"{"class":"TPV","mode":3,"lat":37.79,"lon":-122.4}"#.utf8 + [0x0A]),
            Data(#"{"class":"TPV"}}}}"#.utf8 + [0x0A]),
        ]
        var chunks: [Chunk] = []
        for (index, fix) in fixes.prefix(8).enumerated() {
            chunks.append(
                Chunk(bytes: garbage[index] + Data((TraceWriter.gpsdJSON(fix) + "\n").utf8), pause: 1))
        }
        chunks.append(Chunk(bytes: Data(repeating: UInt8(ascii: "x"), count: 2 << 20) + [0x0A], pause: 0))
        for fix in fixes.dropFirst(8).prefix(4) {
            chunks.append(Chunk(bytes: Data((TraceWriter.gpsdJSON(fix) + "\n").utf8), pause: 1))
        }
        chunks.append(Chunk(bytes: Data(repeating: UInt8(ascii: "{"), count: 2 << 20), pause: 0))
        chunks.append(Chunk(bytes: Data(repeating: UInt8(ascii: "y"), count: 64 << 20), pause: 0))
        chunks.append(Chunk(bytes: binary(4_096, seed: 2), pause: 0.5))
        return chunks
    }

    @Test func garbageIsSkippedTheGoodFixesAreTakenAndAClosedConnectionIsReopened() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixes = try GuidedDriveCommandTests.fixes().map { fix in
            var dated = fix
            dated.time += 1_764_547_200
            return dated
        }
        let second = fixes.dropFirst(12).prefix(10).map {
            Chunk(bytes: Data((TraceWriter.gpsdJSON($0) + "\n").utf8), pause: 1)
        }
        var plan: [[[String: Any]]] = []
        for (connection, chunks) in [Self.firstConnection(fixes), second].enumerated() {
            plan.append(
                try chunks.enumerated().map { index, chunk in
                    let file = folder.appendingPathComponent("c\(connection)-\(index).bin")
                    try chunk.bytes.write(to: file)
                    return ["file": file.path, "pause": chunk.pause]
                })
        }
        let planURL = folder.appendingPathComponent("plan.json")
        try JSONSerialization.data(withJSONObject: plan).write(to: planURL)
        let script = folder.appendingPathComponent("gpsd.py")
        try Self.listener.write(to: script, atomically: true, encoding: .utf8)

        let peer = Process()
        peer.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        peer.arguments = [script.path, planURL.path]
        let portPipe = Pipe()
        peer.standardOutput = portPipe
        try peer.run()
        defer { if peer.isRunning { peer.terminate() } }
        let portLine = String(decoding: portPipe.fileHandleForReading.availableData, as: UTF8.self)
        let port = try #require(Int(portLine.trimmingCharacters(in: .whitespacesAndNewlines)))

        let outURL = folder.appendingPathComponent("out.jsonl")
        let errURL = folder.appendingPathComponent("err.txt")
        #expect(FileManager.default.createFile(atPath: outURL.path, contents: nil))
        #expect(FileManager.default.createFile(atPath: errURL.path, contents: nil))
        let navigate = Process()
        navigate.executableURL = cli.executable
        navigate.arguments = [
            "navigate", TestFixtures.directions(GuidedDriveCommandTests.routeName).path, "--gpsd",
            "127.0.0.1:\(port)", "--output", folder.appendingPathComponent("gpsd.wav").path, "--json",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["VOICEGUIDE_VOICES"] = TestFixtures.packageRoot().appendingPathComponent("Voices").path
        navigate.environment = environment
        navigate.standardOutput = try FileHandle(forWritingTo: outURL)
        navigate.standardError = try FileHandle(forWritingTo: errURL)
        try navigate.run()
        defer { if navigate.isRunning { kill(navigate.processIdentifier, SIGKILL) } }

        // The peer's plan takes about 24 s; it exits after the second connection.
        var peakBytes = 0
        let deadline = Date().addingTimeInterval(90)
        while peer.isRunning, Date() < deadline {
            peakBytes = max(peakBytes, MeasuredRun.highWaterMark(of: navigate.processIdentifier))
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(!peer.isRunning, "the peer did not finish its plan in 90 s")
        #expect(navigate.isRunning, "navigate ended on its own")
        Thread.sleep(forTimeInterval: 1)
        peakBytes = max(peakBytes, MeasuredRun.highWaterMark(of: navigate.processIdentifier))
        navigate.interrupt()
        let stopBy = Date().addingTimeInterval(20)
        while navigate.isRunning, Date() < stopBy { Thread.sleep(forTimeInterval: 0.1) }
        #expect(!navigate.isRunning, "navigate hung after Ctrl-C")
        navigate.waitUntilExit()
        #expect(navigate.terminationReason == .exit)
        #expect(navigate.terminationStatus == 0)

        let errors = try String(contentsOf: errURL, encoding: .utf8)
        let closes = errors.split(separator: "\n").filter { $0.contains("closed the connection") }
        print("garbage gpsd: \(closes.joined(separator: " / ")); peak \(peakBytes >> 20) MB")
        #expect(closes.count == 2, "\(errors)")
        // Every good fix was taken, between and after the garbage.
        #expect(closes.first?.contains("(12 fixes; skipped ") == true, "\(errors)")
        #expect(closes.last?.contains("(10 fixes; skipped 0 malformed, 0 too long") == true, "\(errors)")
        let skipped = closes.first.flatMap { line -> (Int, Int)? in
            let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            return numbers.count >= 6 ? (numbers[numbers.count - 4], numbers[numbers.count - 3]) : nil
        }
        #expect((skipped?.0 ?? 0) >= 6, "malformed lines counted: \(errors)")
        #expect((skipped?.1 ?? 0) >= 2, "over-long lines counted: \(errors)")
        // Guidance went on: prompts from the fixes of both connections.
        let prompts = NavigateCommandTests.prompts(
            try NavigateCommandTests.objects(try String(contentsOf: outURL, encoding: .utf8)))
        #expect(!prompts.isEmpty)
        // 64 MB in one line never held: the peak stays near a normal run's (about 40 MB).
        #expect(peakBytes > 0 && peakBytes < 90 << 20, "peak \(peakBytes >> 20) MB")
    }
}
