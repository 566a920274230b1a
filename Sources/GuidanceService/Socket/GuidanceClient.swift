public import Foundation

/// A blocking client of the daemon's socket: sends request lines, reads reply and event lines.
/// (`voiceguide ctl`, the benchmark and the tests use it.)
public final class GuidanceClient {
    private let fd: Int32
    private var lines = LineSplitter(limit: 16 << 20)
    private var ready: [Data] = []
    private var isClosed = false

    /// Connects to the daemon at `path`.
    ///
    /// - Throws: `SocketError` saying why (no daemon, no permission…).
    public init(path: String) throws(SocketError) {
        fd = try SocketCalls.connect(path: path)
    }

    deinit { close() }

    /// Shuts the connection down (both ways) without closing the descriptor, so that a thread
    /// blocked reading it sees the end at once; `close` still releases it.
    public func shutDown() { SocketCalls.shutDown(fd) }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        SocketCalls.close(fd)
    }

    /// A handle that writes to this connection from another thread while this one reads.
    public var writer: Writer { Writer(fd: fd) }

    /// Writes to a client's connection (any thread; valid while the client is open).
    public struct Writer: Sendable {
        let fd: Int32
        public func send(_ data: Data) throws(SocketError) { try SocketCalls.sendAll(fd, data) }
    }

    /// Sends raw bytes (a line must end with a newline).
    public func send(_ data: Data) throws(SocketError) { try SocketCalls.sendAll(fd, data) }

    /// Sends a request object as one line.
    public func send(_ request: JSONValue) throws(SocketError) {
        try send(Data((request.serialized + "\n").utf8))
    }

    /// The next line the daemon wrote, or nil when it closed the connection or `timeout` passed.
    public func readLine(timeout: Double = 10) throws(SocketError) -> Data? {
        let deadline = Date().addingTimeInterval(timeout)
        while ready.isEmpty {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, let data = try SocketCalls.receive(fd, timeout: left), !data.isEmpty else {
                return nil
            }
            for item in lines.append(data) { if case .line(let line) = item { ready.append(line) } }
        }
        return ready.removeFirst()
    }

    /// The next line parsed as JSON.
    public func readMessage(timeout: Double = 10) throws -> JSONValue? {
        guard let line = try readLine(timeout: timeout) else { return nil }
        return try JSONValue.parse(line)
    }

    /// Sends a request and returns its reply (events that arrive first are skipped).
    public func request(_ request: JSONValue, timeout: Double = 10) throws -> JSONValue {
        try send(request)
        while let message = try readMessage(timeout: timeout) {
            if message["event"] == nil { return message }
        }
        throw SocketError("no reply within \(timeout) s")
    }
}
