public import Foundation
import Synchronization

/// One client of the daemon: its socket, its unanswered requests and what waits to be written.
///
/// Replies and events are written at once when the socket takes them, from whichever thread
/// produced them; what the socket does not take waits in a buffer the poll loop drains. Events
/// are dropped (and counted) while more than `maxEventBacklogBytes` wait; a client whose replies
/// pile up past `maxReplyBacklogBytes` is disconnected. All writes and the close happen under
/// one lock, so a descriptor is never written after it was closed.
public final class ClientConnection: EventReceiver, Sendable {
    private struct State {
        var fd: Int32
        var output: [UInt8] = []
        var outputStart = 0
        var isClosed = false
        var isBroken = false
        var droppedEvents = 0
        var droppedTotal = 0
        var pendingRequests = 0
        var isFinished = false
    }

    /// A number for logs.
    public let number: Int
    /// Who is at the other end.
    public let peer: PeerCredentials?
    private let limits: ProtocolLimits
    private let state: Mutex<State>
    private let wake: @Sendable () -> Void

    init(
        fd: Int32, number: Int, peer: PeerCredentials?, limits: ProtocolLimits,
        wake: @escaping @Sendable () -> Void
    ) {
        self.number = number
        self.peer = peer
        self.limits = limits
        self.state = Mutex(State(fd: fd))
        self.wake = wake
    }

    /// Events dropped for this client because it did not read them.
    public var droppedEvents: Int { state.withLock { $0.droppedTotal } }

    // MARK: Writing

    /// Queues a reply and writes what the socket takes now.
    public func sendReply(_ line: Data) {
        let needsPoll = state.withLock { state -> Bool in
            guard !state.isClosed, !state.isBroken else { return false }
            if state.output.count - state.outputStart + line.count > limits.maxReplyBacklogBytes {
                state.isBroken = true
                return true
            }
            state.output.append(contentsOf: line)
            return Self.flush(&state)
        }
        if needsPoll { wake() }
    }

    public func deliverEvent(_ line: Data) {
        let needsPoll = state.withLock { state -> Bool in
            guard !state.isClosed, !state.isBroken else { return false }
            let waiting = state.output.count - state.outputStart
            if waiting + line.count > limits.maxEventBacklogBytes {
                state.droppedEvents += 1
                state.droppedTotal += 1
                return false
            }
            if state.droppedEvents > 0 {
                let notice = ProtocolMessage.event(
                    "dropped",
                    [
                        ("count", .number(Double(state.droppedEvents))),
                        ("total", .number(Double(state.droppedTotal))),
                    ])
                state.output.append(contentsOf: notice)
                state.droppedEvents = 0
            }
            state.output.append(contentsOf: line)
            return Self.flush(&state)
        }
        if needsPoll { wake() }
    }

    /// Writes what the socket takes; true when something is left (or the socket broke), so the
    /// poll loop must look at this client.
    private static func flush(_ state: inout State) -> Bool {
        while state.outputStart < state.output.count {
            let result = state.output.withUnsafeBytes { raw in
                SocketCalls.send(state.fd, UnsafeRawBufferPointer(rebasing: raw[state.outputStart...]))
            }
            switch result {
            case .bytes(let count): state.outputStart += count
            case .wouldBlock: return true
            case .closed:
                state.isBroken = true
                return true
            }
        }
        state.output.removeAll(keepingCapacity: state.output.capacity <= 65_536)
        state.outputStart = 0
        return false
    }

    // MARK: Poll loop

    /// Writes what waits (called by the poll loop when the socket is writable).
    func flushWaiting() { state.withLock { _ = Self.flush(&$0) } }

    var descriptor: Int32 { state.withLock { $0.fd } }
    var hasWaitingOutput: Bool { state.withLock { $0.outputStart < $0.output.count } }
    var isBroken: Bool { state.withLock { $0.isBroken } }
    /// True while fewer requests than the limit wait for their replies.
    var acceptsMoreRequests: Bool { state.withLock { $0.pendingRequests < limits.maxPendingRequests } }

    /// True once every request read has been answered and no more will come.
    var isFinished: Bool { state.withLock { $0.isFinished } }

    func finish() {
        state.withLock { $0.isFinished = true }
        wake()
    }

    /// True when every request read has been answered.
    var hasNoPendingRequests: Bool { state.withLock { $0.pendingRequests == 0 } }

    func requestReceived() { state.withLock { $0.pendingRequests += 1 } }

    /// A request was answered; wakes the poll loop if the client may be read again.
    func requestAnswered() {
        let resume = state.withLock { state -> Bool in
            state.pendingRequests -= 1
            return state.pendingRequests == limits.maxPendingRequests - 1
        }
        if resume { wake() }
    }

    /// Closes the socket (once); later writes are dropped.
    func close() {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.isClosed = true
            SocketCalls.close(state.fd)
            state.output = []
            state.outputStart = 0
        }
    }
}
