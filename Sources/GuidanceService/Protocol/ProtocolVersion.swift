/// The version and limits of the guidance protocol (docs/protocol.md).
public struct ProtocolLimits: Sendable, Equatable {
    /// The protocol version `hello` reports; it changes when a reply or request changes meaning.
    public static let version = 1

    /// Longest request line in bytes (without its newline); longer ones are answered and discarded.
    public var maxLineBytes: Int
    /// Bytes of events kept for a subscriber that does not read; past this, events are dropped.
    public var maxEventBacklogBytes: Int
    /// Bytes of replies kept for a client that does not read; past this, the client is dropped.
    public var maxReplyBacklogBytes: Int
    /// Requests of one client read ahead of their replies; past this its socket is not read.
    public var maxPendingRequests: Int
    /// Clients connected at once.
    public var maxClients: Int
    /// Progress updates waiting for the voice controller; past this the oldest are skipped.
    public var maxQueuedProgress: Int

    public init(
        maxLineBytes: Int = 1 << 20, maxEventBacklogBytes: Int = 256 << 10,
        maxReplyBacklogBytes: Int = 8 << 20,
        maxPendingRequests: Int = 64, maxClients: Int = 128, maxQueuedProgress: Int = 1024
    ) {
        self.maxLineBytes = maxLineBytes
        self.maxEventBacklogBytes = maxEventBacklogBytes
        self.maxReplyBacklogBytes = maxReplyBacklogBytes
        self.maxPendingRequests = maxPendingRequests
        self.maxClients = maxClients
        self.maxQueuedProgress = maxQueuedProgress
    }
}
