import Foundation
import GuidanceService
import Synchronization
import VoiceGuidance
import VoiceGuidanceTesting

/// A release `voiceguide serve` on a socket in the bench's scratch folder.
final class BenchDaemon {
    let process: ChildProcess
    let socket: String

    init(_ executable: String, _ arguments: [String], scratch: URL) throws {
        socket = scratch.appendingPathComponent("serve-\(UUID().uuidString.prefix(8)).sock").path
        var environment = ProcessInfo.processInfo.environment
        environment["VOICEGUIDE_VOICES"] = TestFixtures.packageRoot().appendingPathComponent("Voices").path
        process = try ChildProcess(
            executable, ["serve", "--socket", socket] + arguments, environment: environment, output: .null,
            error: .null)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let client = try? GuidanceClient(path: socket) {
                client.close()
                return
            }
            usleep(20_000)
        }
        process.terminate()
        throw SocketError("voiceguide serve did not start on \(socket)")
    }

    /// VmRSS of the daemon in kB.
    var residentKilobytes: Int {
        guard
            let text = try? String(
                contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8)
        else { return 0 }
        let line = text.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    func stop() {
        process.terminate()
        process.wait()
    }
}

/// A subscriber that reads every event on a thread of its own and counts them.
final class EventReader: Sendable {
    /// Events and `spoke` events read so far.
    final class Counts: Sendable {
        let value = Mutex((events: 0, spoken: 0))
    }
    private let counts = Counts()
    private let writer: GuidanceClient.Writer
    private let closer: @Sendable () -> Void

    init(path: String) throws {
        let client = try GuidanceClient(path: path)
        _ = try client.request(.object([("id", .number(1)), ("cmd", .string("subscribe"))]))
        writer = client.writer
        let counts = self.counts
        let box = ClientHandle(client)
        closer = { box.shutDown() }
        Thread.detachNewThread {
            while let line = try? box.client.readLine(timeout: 3_600) {
                let spoke = line.range(of: Data(#""event":"spoke""#.utf8)) != nil
                counts.value.withLock {
                    $0.events += 1
                    if spoke { $0.spoken += 1 }
                }
            }
        }
    }

    var count: Int { counts.value.withLock { $0.events } }
    var spoken: Int { counts.value.withLock { $0.spoken } }
    func close() { closer() }
}

/// A client used by one thread after another (handed over, never shared at once).
final class ClientHandle: @unchecked Sendable {
    let client: GuidanceClient
    init(_ client: GuidanceClient) { self.client = client }
    /// Ends the connection from another thread: the reader sees end of file.
    func shutDown() { client.shutDown() }
}

/// Sends an app prompt (message priority, new words each time) every `interval` seconds.
final class Announcer: Sendable {
    private let path: String
    private let interval: Double
    private let state = Mutex((running: false, sent: 0))

    init(path: String, interval: Double) {
        self.path = path
        self.interval = interval
    }

    var sent: Int { state.withLock { $0.sent } }

    func start() {
        state.withLock { $0.running = true }
        Thread.detachNewThread { [self] in
            guard let client = try? GuidanceClient(path: path) else { return }
            var index = 0
            while state.withLock({ $0.running }) {
                index += 1
                let text = "Speed camera number \(index) ahead in \(index * 10 % 900 + 100) meters"
                _ = try? client.request(
                    .object([
                        ("id", .number(Double(index))), ("cmd", .string("announce")), ("text", .string(text)),
                    ]))
                state.withLock { $0.sent += 1 }
                Thread.sleep(forTimeInterval: interval)
            }
        }
    }

    func stop() { state.withLock { $0.running = false } }
}

/// Sends progress lines at a fixed rate (in batches every 10 ms) and reads their replies.
final class Flooder: Sendable {
    private let path: String
    private let linesPerSecond: Int
    private let state = Mutex((running: false, answered: 0, duration: 0.0))
    private let finished = DispatchSemaphore(value: 0)

    init(path: String, linesPerSecond: Int) {
        self.path = path
        self.linesPerSecond = linesPerSecond
    }

    var answered: Int { state.withLock { $0.answered } }
    var duration: Double { state.withLock { $0.duration } }

    func start() {
        state.withLock { $0.running = true }
        guard let client = try? GuidanceClient(path: path) else { return }
        let writer = client.writer
        let handle = ClientHandle(client)
        Thread.detachNewThread { [self] in
            while (try? handle.client.readLine(timeout: 5)) != nil { state.withLock { $0.answered += 1 } }
        }
        Thread.detachNewThread { [self] in
            let start = ContinuousClock.now
            var sent = 0
            while state.withLock({ $0.running }) {
                let elapsed = ServeBench.seconds(since: start)
                var batch = Data()
                while sent < Int(elapsed * Double(linesPerSecond)) {
                    sent += 1
                    // Fixes on the first step, far from its maneuver: they decide nothing.
                    batch.append(
                        Data(
                            #"{"id":\#(sent),"cmd":"progress","leg":0,"step":0,"distance_remaining":900,"speed":15,"time":\#(elapsed)}"#
                                .utf8))
                    batch.append(0x0A)
                }
                try? writer.send(batch)
                usleep(10_000)
            }
            state.withLock { $0.duration = ServeBench.seconds(since: start) }
            Thread.sleep(forTimeInterval: 1)
            handle.shutDown()
            finished.signal()
        }
    }

    func stop() {
        state.withLock { $0.running = false }
        finished.wait()
    }
}
