public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's Unix socket: accepts clients, reads request lines, writes replies and events.
///
/// One thread polls every socket; each client's requests are answered in order by a task of its
/// own, through `handler`. Only the daemon's user (or a group, see `SocketAccess`) may connect.
public final class SocketServer: Sendable {
    /// Answers one request line with one reply line.
    public typealias Handler = @Sendable (ClientConnection, Data) async -> Data
    /// Answers a line at once on the poll thread, or returns nil to leave it to `Handler`. Must
    /// never block; used only when the client has no request waiting, so replies stay in order.
    public typealias QuickHandler = @Sendable (Data) -> Data?

    private struct Control {
        var listenFD: Int32 = -1
        var wakeRead: Int32 = -1
        var wakeWrite: Int32 = -1
        var inode: UInt64?
        var isRunning = false
    }

    /// Where the socket file is.
    public let path: String
    private let access: SocketAccess
    private let limits: ProtocolLimits
    private let handler: Handler
    private let quickHandler: QuickHandler?
    private let onClose: @Sendable (ClientConnection) async -> Void
    private let control = Mutex(Control())
    private let stopped = DispatchSemaphore(value: 0)

    public init(
        path: String, access: SocketAccess, limits: ProtocolLimits, quickHandler: QuickHandler? = nil,
        handler: @escaping Handler, onClose: @escaping @Sendable (ClientConnection) async -> Void
    ) {
        self.path = path
        self.access = access
        self.limits = limits
        self.quickHandler = quickHandler
        self.handler = handler
        self.onClose = onClose
    }

    /// Creates the socket file (replacing a stale one) and starts serving.
    ///
    /// - Throws: `SocketError` when another daemon answers on the path, the path is not a
    ///   socket, or the socket cannot be made.
    public func start() throws(SocketError) {
        switch SocketCalls.probe(path: path) {
        case .live: throw SocketError("another voiceguide serve is answering on \(path)")
        case .notSocket: throw SocketError("\(path) exists and is not a socket; not replacing it")
        case .stale: SocketCalls.unlink(path)
        case .absent: break
        }
        let fd = try SocketCalls.listen(path: path, mode: 0o600)
        if let gid = access.groupID {
            do {
                try SocketCalls.shareWithGroup(path: path, gid: gid)
            } catch {
                SocketCalls.close(fd)
                SocketCalls.unlink(path)
                throw error
            }
        }
        let pipe = try SocketCalls.makePipe()
        control.withLock {
            $0 = Control(
                listenFD: fd, wakeRead: pipe.read, wakeWrite: pipe.write, inode: SocketCalls.inode(of: path),
                isRunning: true)
        }
        let thread = Thread { [self] in
            run(listenFD: fd, wakeRead: pipe.read)
            stopped.signal()
        }
        thread.name = "voiceguide-socket"
        thread.start()
    }

    /// Stops serving: closes every client and removes the socket file (if it is still ours).
    public func stop() {
        let wasRunning = control.withLock { state -> Bool in
            defer { state.isRunning = false }
            return state.isRunning
        }
        guard wasRunning else { return }
        wakeUp()
        stopped.wait()
        // Forget the descriptors under the lock before closing them: a late `wakeUp` (a
        // connection's task finishing) must never write to a number the system has reused.
        let state = control.withLock { control in
            defer {
                control.listenFD = -1
                control.wakeRead = -1
                control.wakeWrite = -1
            }
            return control
        }
        SocketCalls.close(state.listenFD)
        if let inode = state.inode, SocketCalls.inode(of: path) == inode { SocketCalls.unlink(path) }
        SocketCalls.close(state.wakeRead)
        SocketCalls.close(state.wakeWrite)
    }

    private var isRunning: Bool { control.withLock { $0.isRunning } }

    /// Wakes the poll loop; writes under the lock, so never after `stop` closed the pipe.
    private func wakeUp() {
        control.withLock { control in
            if control.wakeWrite >= 0 { SocketCalls.wake(control.wakeWrite) }
        }
    }

    // MARK: The poll loop

    /// A client as the poll loop sees it.
    private final class Session {
        let connection: ClientConnection
        let input: AsyncStream<LineSplitter.Item>.Continuation
        var lines: LineSplitter
        var isReadClosed = false

        init(connection: ClientConnection, input: AsyncStream<LineSplitter.Item>.Continuation, limit: Int) {
            self.connection = connection
            self.input = input
            self.lines = LineSplitter(limit: limit)
        }
    }

    private func run(listenFD: Int32, wakeRead: Int32) {
        var sessions: [Int32: Session] = [:]
        var nextNumber = 1
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        defer { buffer.deallocate() }
        while isRunning {
            let order = Array(sessions.keys)
            var descriptors = [
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
            ]
            for fd in order { descriptors.append(Self.interest(sessions[fd]!, fd: fd)) }
            _ = SocketCalls.poll(&descriptors, timeout: -1)
            if descriptors[0].revents != 0 { SocketCalls.drain(wakeRead) }
            if descriptors[1].revents != 0 { acceptClients(listenFD, into: &sessions, number: &nextNumber) }
            for (index, fd) in order.enumerated() {
                guard let session = sessions[fd] else { continue }
                service(session, events: descriptors[index + 2].revents, buffer: buffer)
            }
            reap(&sessions)
        }
        for session in sessions.values { end(session) }
    }

    /// What to wait for on a client: input while it may send more, output while some waits.
    private static func interest(_ session: Session, fd: Int32) -> pollfd {
        var events: Int16 = 0
        if !session.isReadClosed, session.connection.acceptsMoreRequests { events |= Int16(POLLIN) }
        if session.connection.hasWaitingOutput { events |= Int16(POLLOUT) }
        // A closed or paused client is not polled at all, so its hang-up cannot spin the loop.
        return pollfd(fd: events == 0 ? -1 : fd, events: events, revents: 0)
    }

    private func service(_ session: Session, events: Int16, buffer: UnsafeMutableRawBufferPointer) {
        if events & Int16(POLLOUT) != 0 { session.connection.flushWaiting() }
        guard events & Int16(POLLIN | POLLHUP | POLLERR) != 0, !session.isReadClosed else { return }
        for _ in 0..<16 where session.connection.acceptsMoreRequests {
            switch SocketCalls.read(session.connection.descriptor, into: buffer) {
            case .bytes(let count):
                for item in session.lines.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) {
                    take(item, from: session)
                }
            case .wouldBlock: return
            case .closed:
                session.isReadClosed = true
                session.input.finish()
                return
            }
        }
    }

    /// Answers a line at once when the quick handler can and nothing of the client waits;
    /// otherwise queues it for the client's task.
    private func take(_ item: LineSplitter.Item, from session: Session) {
        let connection = session.connection
        if case .line(let line) = item, let quickHandler, connection.hasNoPendingRequests,
            let reply = quickHandler(line)
        {
            connection.sendReply(reply)
            return
        }
        connection.requestReceived()
        session.input.yield(item)
    }

    /// Closes clients that broke, or that hung up and have been answered.
    private func reap(_ sessions: inout [Int32: Session]) {
        for (fd, session) in sessions {
            let connection = session.connection
            let done = session.isReadClosed && connection.isFinished && !connection.hasWaitingOutput
            guard done || connection.isBroken else { continue }
            sessions[fd] = nil
            end(session)
        }
    }

    private func end(_ session: Session) {
        session.input.finish()
        session.connection.close()
        let onClose = self.onClose
        let connection = session.connection
        Task { await onClose(connection) }
    }

    // MARK: Accepting

    private func acceptClients(_ listenFD: Int32, into sessions: inout [Int32: Session], number: inout Int) {
        while let fd = SocketCalls.accept(listenFD) {
            let peer = SocketCalls.peerCredentials(fd)
            if let refusal = refusal(peer: peer, clients: sessions.count) {
                var line = ProtocolMessage.errorReply(.null, refusal)
                line.withUnsafeMutableBytes { _ = SocketCalls.send(fd, UnsafeRawBufferPointer($0)) }
                SocketCalls.close(fd)
                continue
            }
            let connection = ClientConnection(
                fd: fd, number: number, peer: peer, limits: limits, wake: { [weak self] in self?.wakeUp() })
            number += 1
            let (stream, continuation) = AsyncStream<LineSplitter.Item>.makeStream()
            sessions[fd] = Session(connection: connection, input: continuation, limit: limits.maxLineBytes)
            startAnswering(connection, stream)
        }
    }

    private func refusal(peer: PeerCredentials?, clients: Int) -> ProtocolError? {
        guard let peer, access.allows(peer) else {
            let who = peer.map { "user \($0.uid)" } ?? "a client whose user is unknown"
            return ProtocolError(.permissionDenied, "\(who) may not use this daemon (see serve --group)")
        }
        guard clients < limits.maxClients else {
            return ProtocolError(.tooManyClients, "the daemon already has \(limits.maxClients) clients")
        }
        return nil
    }

    /// Answers a client's requests in order, one reply each.
    private func startAnswering(_ connection: ClientConnection, _ stream: AsyncStream<LineSplitter.Item>) {
        let handler = self.handler
        let limit = limits.maxLineBytes
        Task {
            for await item in stream {
                switch item {
                case .line(let line):
                    connection.sendReply(await handler(connection, line))
                case .tooLong:
                    let error = ProtocolError(
                        .lineTooLong, "the line is longer than \(limit) bytes; it was discarded")
                    connection.sendReply(ProtocolMessage.errorReply(.null, error))
                }
                connection.requestAnswered()
            }
            connection.finish()
        }
    }
}
