public import Foundation

/// Splits a byte stream into lines, holding at most `limit` bytes of an unfinished line.
///
/// A line longer than the limit is reported once as `.tooLong` and its bytes are thrown away up
/// to its newline, so memory stays bounded whatever a client sends. Empty lines (and a trailing
/// `\r`) are ignored.
public struct LineSplitter: Sendable {
    /// What a chunk of input held.
    public enum Item: Sendable, Equatable {
        case line(Data)
        case tooLong
    }

    public let limit: Int
    private var partial: [UInt8] = []
    private var discarding = false

    public init(limit: Int) { self.limit = max(1, limit) }

    /// Bytes of an unfinished line held now (at most `limit`).
    public var heldBytes: Int { partial.count }

    /// Takes the next bytes read and returns the items they complete, in order.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) -> [Item] {
        var items: [Item] = []
        var start = 0
        while start < bytes.count {
            guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
                take(bytes[start..<bytes.count], into: &items)
                break
            }
            take(bytes[start..<newline], into: &items)
            if discarding {
                discarding = false
            } else {
                if partial.last == 0x0D { partial.removeLast() }
                if !partial.isEmpty { items.append(.line(Data(partial))) }
            }
            partial.removeAll(keepingCapacity: partial.capacity <= 65_536)
            start = newline + 1
        }
        return items
    }

    /// Appends part of a line, switching to discarding when it grows past the limit.
    private mutating func take(_ piece: Slice<UnsafeRawBufferPointer>, into items: inout [Item]) {
        guard !discarding else { return }
        if partial.count + piece.count > limit {
            partial.removeAll()
            discarding = true
            items.append(.tooLong)
        } else {
            partial.append(contentsOf: piece)
        }
    }

    /// Convenience for tests and clients: appends `data`.
    public mutating func append(_ data: Data) -> [Item] {
        data.withUnsafeBytes { append($0) }
    }
}
