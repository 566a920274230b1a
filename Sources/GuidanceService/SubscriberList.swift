public import Foundation
import Synchronization

/// Where the daemon sends a connection's events: queued without blocking, dropped past a bound.
public protocol EventReceiver: AnyObject, Sendable {
    /// Queues one event line; returns at once whatever the client does.
    func deliverEvent(_ line: Data)
}

/// The connections that asked for events.
public final class SubscriberList: Sendable {
    private let receivers = Mutex<[ObjectIdentifier: any EventReceiver]>([:])

    public init() {}

    public func add(_ receiver: any EventReceiver) {
        receivers.withLock { $0[ObjectIdentifier(receiver)] = receiver }
    }

    public func remove(_ receiver: any EventReceiver) {
        _ = receivers.withLock { $0.removeValue(forKey: ObjectIdentifier(receiver)) }
    }

    public var count: Int { receivers.withLock { $0.count } }

    /// Sends one event line to every subscriber.
    public func broadcast(_ line: Data) {
        let all = receivers.withLock { Array($0.values) }
        for receiver in all { receiver.deliverEvent(line) }
    }
}
