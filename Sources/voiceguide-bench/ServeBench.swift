import Foundation
import GuidanceService
import VoiceGuidance
import VoiceGuidanceTesting

/// §7 of `make bench`: the guidance daemon, measured through its socket as a client sees it.
enum ServeBench {
    /// The route driven: 6 steps, 4 km, with server voice instructions.
    static let route = TestFixtures.directions("navigation-ios_routeWithInstructions.json")

    static func run(voiceguide: String, scratch: URL) throws {
        print("\n7. The guidance daemon (voiceguide serve): round trips, a flood, a 10-hour drive")
        decodeCost()
        try roundTrips(voiceguide: voiceguide, scratch: scratch)
        try flood(voiceguide: voiceguide, scratch: scratch)
        try longDrive(voiceguide: voiceguide, scratch: scratch)
    }

    // MARK: Decoding

    /// What the protocol costs per line without a socket: decoding a progress request and
    /// encoding its reply.
    static func decodeCost() {
        let decoder = RequestDecoder()
        let line = Data(
            #"{"id":123,"cmd":"progress","leg":0,"step":3,"distance_remaining":412.5,"speed":13.9,"time":1234.5}"#
                .utf8)
        var ok = 0
        let count = 50_000
        let seconds = Statistics.time {
            for _ in 0..<count {
                let decoded = decoder.decode(line)
                if case .success = decoded.result {
                    ok += ProtocolMessage.reply(decoded.id, [("time", .number(1234.5))]).count > 0 ? 1 : 0
                }
            }
        }
        report(
            "decode a progress line + encode its reply (no socket)", Statistics.us(seconds / Double(count)))
        precondition(ok == count)
    }

    // MARK: Round trips

    /// Round trips at 100 Hz with 10 subscribers reading events, while the drive's prompts and
    /// an app prompt every 0.7 s are rendered and played (ALSA null, real time): `progress`,
    /// then `position` (matched to the route by the daemon) on a daemon of its own.
    static func roundTrips(voiceguide: String, scratch: URL) throws {
        let ends = try stepEnds()
        try roundTrips(voiceguide: voiceguide, scratch: scratch, kind: "progress") { index, elapsed in
            // Ten times faster than real time at 15 m/s: the route's prompts come every few seconds.
            progress(id: index, time: elapsed * 10, meters: elapsed * 150, ends: ends)
        }
        let fixes = try drive()
        let lap = (fixes.last?.time ?? 0) + 1
        try roundTrips(voiceguide: voiceguide, scratch: scratch, kind: "position") { index, _ in
            // Twenty fixes of the drive a second of real time: twenty times faster than driven.
            let fix = fixes[index % fixes.count]
            return .object([
                ("id", .number(Double(index))), ("cmd", .string("position")), ("lat", .number(fix.latitude)),
                ("lon", .number(fix.longitude)),
                ("time", .number(fix.time + lap * Double(index / fixes.count))),
                ("speed", .number(fix.speed ?? 0)),
                ("course", .number(((fix.course ?? 0) + 360).truncatingRemainder(dividingBy: 360))),
            ])
        }
    }

    private static func roundTrips(
        voiceguide: String, scratch: URL, kind: String, request: (Int, Double) -> JSONValue
    ) throws {
        let daemon = try BenchDaemon(voiceguide, ["--device", "null", "--realtime"], scratch: scratch)
        defer { daemon.stop() }
        let subscribers = try (0..<10).map { _ in try EventReader(path: daemon.socket) }
        let driver = try GuidanceClient(path: daemon.socket)
        _ = try driver.request(
            .object([("id", .number(0)), ("cmd", .string("route")), ("path", .string(route.path))]))
        let announcer = Announcer(path: daemon.socket, interval: 0.7)
        announcer.start()
        var samples: [Double] = []
        let start = ContinuousClock.now
        var next = 0.0
        while samples.count < 2_500 {
            let elapsed = seconds(since: start)
            if elapsed < next { usleep(UInt32(max(0, next - elapsed) * 1e6)) }
            next += kind == "position" ? 0.05 : 0.01
            let message = request(samples.count + 1, elapsed)
            let sent = ContinuousClock.now
            let reply = try driver.request(message)
            samples.append(seconds(since: sent))
            guard reply["ok"] == .bool(true) else {
                throw SocketError("\(kind) refused: \(reply.serialized)")
            }
            if kind == "position", samples.count >= 600 { break }
        }
        announcer.stop()
        let events = subscribers.map(\.count)
        let status = try driver.request(.object([("id", .number(-1)), ("cmd", .string("status"))]))
        let p99 = Statistics.percentile(samples, 99)
        report(
            "\(kind) round trip p50 / p99 (10 subscribers, prompts playing)",
            "\(Statistics.ms(Statistics.median(samples))) / \(Statistics.ms(p99))", goal: "p99 ≤ 1 ms",
            met: p99 <= 0.001)
        report(
            "  requests; events per subscriber; app prompts; skipped updates",
            "\(samples.count); \(events.min() ?? 0)…\(events.max() ?? 0); \(announcer.sent); \(status["skipped_progress"]?.serialized ?? "?")"
        )
        for subscriber in subscribers { subscriber.close() }
    }

    /// A realistic drive of the route: one fix a second.
    static func drive() throws -> [Position] {
        let decoded = try Route.decode(from: Data(contentsOf: route))
        let motion = RealisticMotion(route: decoded, line: try RouteLine(route: decoded), seed: 11)
        return SimulatedReceiver(motion: motion, seed: 11).fixes
    }

    // MARK: Flood

    /// How long an `important` announce takes to be decided and handed to the synthesizer, with
    /// and without another client sending 10,000 progress lines a second.
    static func flood(voiceguide: String, scratch: URL) throws {
        let daemon = try BenchDaemon(voiceguide, ["--device", "null", "--realtime"], scratch: scratch)
        defer { daemon.stop() }
        let prober = try GuidanceClient(path: daemon.socket)
        _ = try prober.request(
            .object([("id", .number(0)), ("cmd", .string("route")), ("path", .string(route.path))]))
        let quiet = try announceLatencies(prober, count: 40)
        let flooder = Flooder(path: daemon.socket, linesPerSecond: 10_000)
        flooder.start()
        Thread.sleep(forTimeInterval: 0.5)
        let flooded = try announceLatencies(prober, count: 40)
        flooder.stop()
        let status = try prober.request(.object([("id", .number(-1)), ("cmd", .string("status"))]))
        let quietP99 = Statistics.percentile(quiet, 99)
        let floodP99 = Statistics.percentile(flooded, 99)
        report(
            "important announce → reply, p50 / p99, quiet",
            "\(Statistics.ms(Statistics.median(quiet))) / \(Statistics.ms(quietP99))")
        report(
            "the same while another client sends 10,000 progress/s",
            "\(Statistics.ms(Statistics.median(flooded))) / \(Statistics.ms(floodP99))",
            goal: "p99 ≤ 5 ms", met: floodP99 <= 0.005)
        report(
            "flood lines answered / per second; updates skipped",
            "\(flooder.answered) / \(Int(Double(flooder.answered) / max(flooder.duration, 0.001))); \(status["skipped_progress"]?.serialized ?? "?")"
        )
    }

    private static func announceLatencies(_ client: GuidanceClient, count: Int) throws -> [Double] {
        var samples: [Double] = []
        for index in 0..<count {
            let request = JSONValue.object([
                ("id", .number(Double(index))), ("cmd", .string("announce")),
                ("text", .string("Speed camera \(index) ahead")), ("priority", .string("important")),
            ])
            let sent = ContinuousClock.now
            let reply = try client.request(request)
            samples.append(seconds(since: sent))
            guard reply["ok"] == .bool(true) else {
                throw SocketError("announce refused: \(reply.serialized)")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return samples
    }

    // MARK: A 10-hour drive

    /// 36,000 fixes (10 hours at 1 Hz, the route driven again and again) through the socket as
    /// fast as the daemon answers; the daemon's resident memory after each hour.
    static func longDrive(voiceguide: String, scratch: URL) throws {
        let daemon = try BenchDaemon(voiceguide, ["--sink", "null"], scratch: scratch)
        defer { daemon.stop() }
        let client = try GuidanceClient(path: daemon.socket)
        let listener = try EventReader(path: daemon.socket)
        let ends = try stepEnds()
        let routeRequest = JSONValue.object([
            ("id", .number(0)), ("cmd", .string("route")), ("path", .string(route.path)),
        ])
        var hourly: [Int] = []
        var meters = Double.infinity
        let start = ContinuousClock.now
        for second in 0..<36_000 {
            if meters >= ends[ends.count - 2] {
                _ = try client.request(routeRequest)
                meters = 0
            }
            _ = try client.request(progress(id: second + 1, time: Double(second), meters: meters, ends: ends))
            meters += 15
            if (second + 1) % 3_600 == 0 {
                _ = try client.request(.object([("id", .number(-1)), ("cmd", .string("status"))]))
                hourly.append(daemon.residentKilobytes)
            }
        }
        let wall = seconds(since: start)
        let growth = Double((hourly.last ?? 0) - (hourly.first ?? 0)) / 1024
        report(
            "10-hour drive replayed: fixes/s; prompts spoken",
            String(format: "%.0f; %d", 36_000 / wall, listener.spoken))
        report(
            "daemon memory after hours 1, 5, 10 (MiB)",
            hourly.isEmpty
                ? "?"
                : String(
                    format: "%.1f, %.1f, %.1f", Double(hourly[0]) / 1024, Double(hourly[4]) / 1024,
                    Double(hourly[9]) / 1024))
        report(
            "growth from hour 1 to hour 10", String(format: "%.2f MiB", growth), goal: "≤ 2 MiB",
            met: growth <= 2)
        listener.close()
    }

    // MARK: Helpers

    static func stepEnds() throws -> [Double] {
        let decoded = try Route.decode(from: Data(contentsOf: route))
        var ends: [Double] = []
        for step in decoded.legs[0].steps { ends.append((ends.last ?? 0) + step.distance) }
        return ends
    }

    /// A progress request at `meters` along the route (wrapping around), with `time`.
    static func progress(id: Int, time: Double, meters: Double, ends: [Double]) -> JSONValue {
        let along = meters.truncatingRemainder(dividingBy: ends[ends.count - 2])
        let step = ends.firstIndex { $0 > along } ?? 0
        return .object([
            ("id", .number(Double(id))), ("cmd", .string("progress")), ("leg", .number(0)),
            ("step", .number(Double(step))),
            ("distance_remaining", .number(ends[step] - along)), ("speed", .number(15)),
            ("time", .number(time)),
        ])
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
