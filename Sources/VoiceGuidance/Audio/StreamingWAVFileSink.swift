public import Foundation

/// A sink that streams everything it is given into one WAV file as it comes, holding none of it
/// in memory; the file appears under its name when `close` succeeds (see `AtomicFile`).
///
/// Up to RIFF's limit (4 GiB) the file is a plain WAV; past it the header becomes RF64
/// (EBU Tech 3306) with its `ds64` chunk, in the room a `JUNK` chunk kept for it, so a file of
/// any length is written without a trap and read by RF64-aware tools.
public final class StreamingWAVFileSink: AudioSink {
    private struct State {
        var format: AudioFormat?
        var output: StreamingWAVWriter?
        var isOpen = false
    }

    /// Where the file goes.
    public let url: URL
    private let riffLimit: UInt64
    private let state = Locked(State())

    /// Makes a sink writing to `url`.
    ///
    /// - Parameter riffLimit: the most data bytes a RIFF header may describe (RIFF's own limit
    ///   unless a test lowers it).
    public init(url: URL, riffLimit: UInt64 = StreamingWAVWriter.riffDataLimit) {
        self.url = url
        self.riffLimit = riffLimit
    }

    public var name: String { "WAV file \(url.path)" }

    public func begin(_ format: AudioFormat) throws {
        try state.withLock { state in
            guard format.sampleRate > 0, format.channels > 0 else {
                throw AudioSinkError(.invalidUse, "\(name): unusable format \(format)")
            }
            if let existing = state.format, existing != format {
                throw AudioSinkError(
                    .invalidUse, "\(name): prompts in \(existing) and \(format) cannot share one WAV file")
            }
            if state.output == nil {
                do {
                    state.output = try StreamingWAVWriter(
                        path: url.path, format: format, riffLimit: riffLimit)
                } catch {
                    throw AudioSinkError(.unavailable, "\(error)")
                }
            }
            state.format = format
            state.isOpen = true
        }
    }

    public func write(_ samples: [Int16]) throws {
        try state.withLock { state in
            guard state.isOpen, let output = state.output else {
                throw AudioSinkError(.invalidUse, "\(name): write before begin")
            }
            do {
                try output.append(samples)
            } catch {
                throw AudioSinkError(.writeFailed, "\(error)")
            }
        }
    }

    public func finish() throws { state.withLock { $0.isOpen = false } }

    public func interrupt() { state.withLock { $0.isOpen = false } }

    public var delay: Double { 0 }

    /// Completes the header and puts the file in place. Without any prompt, writes an empty WAV
    /// at 22,050 Hz.
    ///
    /// - Throws: `AudioSinkError.writeFailed` naming the path.
    public func close() throws {
        try state.withLock { state in
            state.isOpen = false
            do {
                let output =
                    try state.output
                    ?? StreamingWAVWriter(
                        path: url.path, format: AudioFormat(sampleRate: 22_050), riffLimit: riffLimit)
                state.output = nil
                try output.complete()
            } catch {
                throw AudioSinkError(.writeFailed, "\(error)")
            }
        }
    }
}
