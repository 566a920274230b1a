/// Cuts a byte stream into lines, with a bound on a line's length (so memory stays flat).
///
/// A line longer than `maximumLength` is dropped whole and counted; CR, LF and CR LF all end a line.
public struct LineBuffer: Sendable {
    /// The longest line kept, in bytes.
    public let maximumLength: Int
    /// Lines dropped for being too long.
    public private(set) var overlong = 0
    private var pending: [UInt8] = []
    private var discarding = false

    public init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// Takes the next bytes; returns the lines they complete (without their line ending).
    public mutating func append(_ bytes: some Sequence<UInt8>) -> [String] {
        var lines: [String] = []
        for byte in bytes {
            if byte == 0x0A || byte == 0x0D {
                if discarding {
                    discarding = false
                } else if !pending.isEmpty {
                    lines.append(String(decoding: pending, as: UTF8.self))
                }
                pending.removeAll(keepingCapacity: true)
            } else if !discarding {
                if pending.count >= maximumLength {
                    overlong += 1
                    discarding = true
                    pending.removeAll(keepingCapacity: true)
                } else {
                    pending.append(byte)
                }
            }
        }
        return lines
    }

    /// The last line when the stream ends without a line ending, if any.
    public mutating func finish() -> String? {
        defer {
            pending.removeAll()
            discarding = false
        }
        return pending.isEmpty || discarding ? nil : String(decoding: pending, as: UTF8.self)
    }
}
