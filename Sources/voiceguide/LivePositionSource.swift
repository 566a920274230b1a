import DriveSimulation
import Foundation
import VoiceGuidance

/// Where a live source hands its fixes: `navigate`'s `LiveFixFeed`, `serve --gpsd`'s service.
protocol LiveFixReceiver: Sendable {
    /// True once reading should end.
    var wasStopped: Bool { get }
    /// Takes a fix received now.
    func deliverNow(_ position: Position)
}

extension LiveFixFeed: LiveFixReceiver {}

/// Where `navigate` takes its positions from, read on a thread of its own into a `LiveFixFeed`.
enum LivePositionSource: Sendable {
    /// gpsd's JSON over TCP, reconnecting with a growing pause when gpsd closes or restarts.
    case gpsd(host: String, port: Int)
    /// NMEA 0183 sentences from a serial device, FIFO or file, line by line.
    case nmea(path: String)
    /// A recorded trace replayed on the wall clock (`speedup` times faster).
    case trace(positions: [Position])

    /// Longest pause between two attempts to reach gpsd, seconds.
    static let longestRetry = 5.0
    /// How long a read waits before checking whether the drive was stopped, seconds.
    static let readWait = 0.25

    /// Starts reading into `feed` on a new thread; problems go to `report` (stderr).
    func start(into feed: LiveFixFeed, report: @escaping @Sendable (String) -> Void) {
        let thread = Thread { [self] in
            switch self {
            case .gpsd(let host, let port): Self.readGPSD(host: host, port: port, into: feed, report: report)
            case .nmea(let path): Self.readNMEA(path: path, into: feed, report: report)
            case .trace(let positions): Self.replay(positions, into: feed)
            }
            feed.end()
        }
        thread.start()
    }

    /// Hands each fix over when its time (since the first) comes on the feed's clock.
    private static func replay(_ positions: [Position], into feed: LiveFixFeed) {
        guard let origin = positions.first?.time else { return }
        for position in positions {
            var fix = position
            fix.time -= origin
            while !feed.wasStopped, feed.elapsed < fix.time {
                Thread.sleep(forTimeInterval: min(0.05, (fix.time - feed.elapsed) / feed.speedup))
            }
            if feed.wasStopped { return }
            feed.deliver(fix)
        }
    }

    /// Reads NMEA sentences until the stream ends or the drive stops.
    private static func readNMEA(path: String, into feed: LiveFixFeed, report: @Sendable (String) -> Void) {
        let stream: PositionStream
        do { stream = try PositionStream.open(path: path) } catch {
            report("\(error)")
            return
        }
        var reader = NMEAReader()
        var lines = LineBuffer(maximumLength: reader.configuration.maximumSentenceLength)
        while !feed.wasStopped {
            do {
                switch try stream.read(timeout: readWait) {
                case .bytes(let bytes):
                    for line in lines.append(bytes) {
                        for fix in reader.read(line: Substring(line)) { feed.deliverNow(fix) }
                    }
                case .idle: continue
                case .closed: return
                }
            } catch {
                report("\(path): \(error)")
                return
            }
        }
    }

    /// Watches gpsd, reconnecting after 0.5 s, 1 s, 2 s … (at most `longestRetry`) when the
    /// connection fails or closes; garbage lines are skipped by the reader.
    static func readGPSD(
        host: String, port: Int, into feed: some LiveFixReceiver, report: @Sendable (String) -> Void
    ) {
        var pause = 0.5
        while !feed.wasStopped {
            do {
                let stream = try PositionStream.connect(host: host, port: port)
                try stream.send("?WATCH={\"enable\":true,\"json\":true}\n")
                report("gpsd: connected to \(host):\(port)")
                let read = watch(stream, into: feed)
                if read.fixes > 0 { pause = 0.5 }
                if !feed.wasStopped {
                    report("gpsd: \(host):\(port) closed the connection (\(describe(read)))")
                }
            } catch {
                report("gpsd: \(error)")
            }
            let until = Date().addingTimeInterval(pause)
            while !feed.wasStopped, Date() < until { Thread.sleep(forTimeInterval: 0.05) }
            pause = min(pause * 2, longestRetry)
        }
    }

    /// Reads gpsd's reports until the connection closes (or the drive stops); returns what was
    /// read and skipped. A line longer than any report is dropped as it comes, never kept whole.
    private static func watch(_ stream: PositionStream, into feed: some LiveFixReceiver) -> TraceStatistics {
        var reader = GPSDReader()
        var lines = LineBuffer(maximumLength: GPSDReader.maximumLineLength)
        var lastTime = -Double.infinity
        func take(_ line: String) {
            // gpsd may report one epoch twice (mode 2, then 3): the first is kept.
            if let fix = reader.read(line: Substring(line)), fix.time > lastTime {
                lastTime = fix.time
                feed.deliverNow(fix)
            }
        }
        reading: while !feed.wasStopped {
            switch (try? stream.read(timeout: readWait)) ?? .closed {
            case .idle: continue
            case .closed: break reading
            case .bytes(let bytes): for line in lines.append(bytes) { take(line) }
            }
        }
        if let last = lines.finish() { take(last) }
        var statistics = reader.statistics
        statistics.overlong += lines.overlong
        return statistics
    }

    /// What a gpsd connection brought: `12 fixes; skipped 3 malformed, 1 too long`.
    static func describe(_ read: TraceStatistics) -> String {
        "\(read.fixes) fixes; skipped \(read.malformed) malformed, \(read.overlong) too long, "
            + "\(read.missingTime) without time, \(read.noFix) without fix"
    }
}
