public import Foundation

/// A sink that writes everything it is given into one WAV file, atomically on `close`.
///
/// Prompts are appended one after another; the file appears under its final name only when
/// `close` succeeds (written to a temporary name and renamed), so a crash never leaves half a file.
/// A device, FIFO, symbolic link or `-` (standard output) is written through (see ``OutputFile``).
public final class WAVFileSink: AudioSink {
    private struct State {
        var format: AudioFormat?
        var samples: [Int16] = []
        var isOpen = false
    }

    /// Where the file goes.
    public let url: URL
    /// The path written (`-` is standard output).
    public let path: String
    private let state = Locked(State())

    public init(url: URL) {
        self.url = url
        path = url.path
    }

    /// A sink writing to `path`; `-` is standard output.
    public init(path: String) {
        url = URL(fileURLWithPath: path)
        self.path = path
    }

    public var name: String { "WAV file \(path == "-" ? "on standard output" : path)" }

    public func begin(_ format: AudioFormat) throws {
        try state.withLock { state in
            guard format.sampleRate > 0, format.channels > 0 else {
                throw AudioSinkError(.invalidUse, "\(name): unusable format \(format)")
            }
            if let existing = state.format, existing != format, !state.samples.isEmpty {
                throw AudioSinkError(
                    .invalidUse, "\(name): prompts in \(existing) and \(format) cannot share one WAV file")
            }
            state.format = format
            state.isOpen = true
        }
    }

    public func write(_ samples: [Int16]) throws {
        try state.withLock { state in
            guard state.isOpen else { throw AudioSinkError(.invalidUse, "\(name): write before begin") }
            state.samples.append(contentsOf: samples)
        }
    }

    public func finish() throws { state.withLock { $0.isOpen = false } }

    public func interrupt() { state.withLock { $0.isOpen = false } }

    public var delay: Double { 0 }

    /// Writes the file (atomically). Without any prompt, writes an empty WAV at 22,050 Hz.
    ///
    /// - Throws: `AudioSinkError.writeFailed` naming the path.
    public func close() throws {
        let (format, samples) = state.withLock { state in
            state.isOpen = false
            return (state.format ?? AudioFormat(sampleRate: 22_050), state.samples)
        }
        do {
            try OutputFile.write(
                WAVFile.encode(samples: samples, sampleRate: format.sampleRate, channels: format.channels),
                toPath: path)
        } catch {
            throw AudioSinkError(.writeFailed, "\(error)")
        }
    }
}
