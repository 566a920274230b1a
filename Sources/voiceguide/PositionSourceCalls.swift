import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An open byte stream from a GPS source (a TCP connection to gpsd, a serial device, a FIFO):
/// every libc call of the live position sources is in this file.
final class PositionStream {
    /// Why a stream could not be opened or read.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What a read gave.
    enum Chunk {
        case bytes([UInt8])
        /// Nothing arrived within the wait.
        case idle
        /// The other end closed the stream.
        case closed
    }

    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// Opens a serial device, FIFO or file for reading (without waiting for a FIFO's writer).
    static func open(path: String) throws(Failure) -> PositionStream {
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot open \(path)") }
        return PositionStream(descriptor: descriptor)
    }

    /// Connects to `host:port` by TCP (IPv4 or IPv6, as the resolver says).
    static func connect(host: String, port: Int) throws(Failure) -> PositionStream {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw Failure(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        var lastError = Failure(description: "cannot connect to \(host):\(port)")
        while let info = entry {
            let socketFD = socket(
                info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
            if socketFD >= 0 {
                if Glibc.connect(socketFD, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                    return PositionStream(descriptor: socketFD)
                }
                lastError = failure("cannot connect to \(host):\(port)")
                Glibc.close(socketFD)
            }
            entry = info.pointee.ai_next
        }
        throw lastError
    }

    /// Sends all of `text`.
    func send(_ text: String) throws(Failure) {
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let sent = Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL))
            guard sent > 0 else { throw Self.failure("cannot send to gpsd") }
            bytes.removeFirst(sent)
        }
    }

    /// Waits up to `timeout` seconds for bytes and reads what is there (at most 4 KiB).
    func read(timeout: Double) throws(Failure) -> Chunk {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, Int32(max(0, min(timeout, 60)) * 1_000))
        if ready < 0 {
            if errno == EINTR { return .idle }
            throw Self.failure("cannot wait for input")
        }
        if ready == 0 { return .idle }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        if count > 0 { return .bytes(Array(buffer.prefix(count))) }
        if count == 0 { return .closed }
        if errno == EAGAIN || errno == EINTR { return .idle }
        throw Self.failure("cannot read")
    }

    /// The typed error for the libc call that just failed.
    private static func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}

/// Ctrl-C (SIGINT) and SIGTERM, turned into a call instead of the process's end.
enum StopSignals {
    /// Calls `handler` (on a background queue) when SIGINT or SIGTERM arrives; keep the result.
    static func observe(_ handler: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }
}
