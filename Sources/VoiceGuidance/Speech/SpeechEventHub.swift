import Foundation

/// Hands every event to every subscriber's own `AsyncStream`, in one order for all of them.
final class SpeechEventHub: Sendable {
    private let subscribers = Locked<[UUID: AsyncStream<SpeechEvent>.Continuation]>([:])

    /// A new stream of every event from now on; it unsubscribes itself when dropped or cancelled.
    func stream() -> AsyncStream<SpeechEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SpeechEvent.self, bufferingPolicy: .unbounded)
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    /// Sends `event` to every subscriber. Events sent from several threads reach every
    /// subscriber in the same order.
    func emit(_ event: SpeechEvent) {
        subscribers.withLock { subscribers in
            for continuation in subscribers.values { continuation.yield(event) }
        }
    }
}
