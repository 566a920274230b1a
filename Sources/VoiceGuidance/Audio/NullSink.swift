/// A sink that accepts everything and plays nothing, at once (for rendering without output).
public final class NullSink: AudioSink {
    public init() {}

    public var name: String { "null output" }
    public func begin(_ format: AudioFormat) throws {
        guard format.sampleRate > 0, format.channels > 0 else {
            throw AudioSinkError(.invalidUse, "null output: unusable format \(format)")
        }
    }
    public func write(_ samples: [Int16]) throws {}
    public func finish() throws {}
    public func interrupt() {}
    public var delay: Double { 0 }
    public func close() throws {}
}
