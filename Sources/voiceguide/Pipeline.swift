import Foundation
import VoiceGuidance

/// Runs a batch in two overlapping halves: `produce` on a thread of its own, one item after
/// another, and `consume` on the calling thread, in the same order, with at most `depth`
/// products waiting between them.
///
/// `render` uses it to keep eSpeak NG synthesizing the next prompt while this thread finishes
/// the audio of the previous one and writes its file.
func pipelined<Item: Sendable, Product: Sendable>(
    _ items: [Item], depth: Int = 4, produce: @escaping @Sendable (Item) -> Product,
    consume: (Product) -> Void
) {
    let remaining = Locked(items[...])
    pipelined(
        depth: depth, produceNext: { remaining.withLock { $0.popFirst() }.map(produce) }, consume: consume)
}

/// The same, with the items taken one at a time by `produceNext` (on the producing thread) until
/// it returns nil: from a queue that other processes or threads take from too.
func pipelined<Product: Sendable>(
    depth: Int = 4, produceNext: @escaping @Sendable () -> Product?, consume: (Product) -> Void
) {
    let channel = Channel<Product>(capacity: max(1, depth))
    Thread.detachNewThread {
        while let product = produceNext() { channel.send(product) }
        channel.close()
    }
    while let product = channel.receive() { consume(product) }
}

/// A bounded first-in first-out queue between one sending and one receiving thread.
///
/// All state is guarded by `condition`.
private final class Channel<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var elements: [Element] = []
    private var isClosed = false
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Waits for room, then appends.
    func send(_ element: Element) {
        condition.lock()
        defer { condition.unlock() }
        while elements.count >= capacity { condition.wait() }
        elements.append(element)
        condition.broadcast()
    }

    /// No more elements will come.
    func close() {
        condition.lock()
        defer { condition.unlock() }
        isClosed = true
        condition.broadcast()
    }

    /// The next element, waiting for it; nil once the channel is closed and empty.
    func receive() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while elements.isEmpty && !isClosed { condition.wait() }
        guard !elements.isEmpty else { return nil }
        condition.broadcast()
        return elements.removeFirst()
    }
}
