import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// SIGTERM, SIGINT and SIGHUP as a stream of what they ask; SIGPIPE ignored from creation on
/// (a client that vanished is an error on its socket, never the daemon's death).
public final class DaemonSignals {
    public enum Request: Sendable, Equatable {
        /// SIGTERM or SIGINT.
        case stop
        /// SIGHUP.
        case reload
    }

    public let stream: AsyncStream<Request>
    private let sources: [any DispatchSourceSignal]

    public init() {
        let (stream, continuation) = AsyncStream<Request>.makeStream()
        self.stream = stream
        SocketCalls.ignoreSIGPIPE()
        var sources: [any DispatchSourceSignal] = []
        for (number, request) in [(SIGTERM, Request.stop), (SIGINT, .stop), (SIGHUP, .reload)] {
            SocketCalls.takeOverSignal(number)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(request) }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }
}
