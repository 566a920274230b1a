public import Foundation

/// A sink that writes each prompt to a WAV file of its own in a folder: `0001.wav`,
/// `0002.wav`, … in the order they were spoken (an interrupted prompt holds what was heard,
/// ending in its fade). Each file is written atomically when the prompt ends.
public final class PromptFileSink: AudioSink {
    private struct State {
        var format: AudioFormat?
        var samples: [Int16] = []
        var written = 0
    }

    /// The folder the files go to (created if missing).
    public let folder: URL
    private let state = Locked(State())

    /// - Throws: `AudioSinkError.unavailable` when the folder cannot be made.
    public init(folder: URL) throws {
        self.folder = folder
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw AudioSinkError(
                .unavailable, "cannot make the folder \(folder.path): \(error.localizedDescription)")
        }
    }

    public var name: String { "prompt files in \(folder.path)" }

    /// Files written so far.
    public var fileCount: Int { state.withLock { $0.written } }

    public func begin(_ format: AudioFormat) throws {
        guard format.sampleRate > 0, format.channels > 0 else {
            throw AudioSinkError(.invalidUse, "\(name): unusable format \(format)")
        }
        state.withLock { state in
            state.format = format
            state.samples = []
        }
    }

    public func write(_ samples: [Int16]) throws {
        try state.withLock { state in
            guard state.format != nil else {
                throw AudioSinkError(.invalidUse, "\(name): write before begin")
            }
            state.samples.append(contentsOf: samples)
        }
    }

    public func finish() throws { try writeFile() }

    public func interrupt() { try? writeFile() }

    public var delay: Double { 0 }

    public func close() throws {}

    private func writeFile() throws {
        let taken = state.withLock { state -> (AudioFormat, [Int16], Int)? in
            guard let format = state.format else { return nil }
            state.format = nil
            state.written += 1
            defer { state.samples = [] }
            return (format, state.samples, state.written)
        }
        guard let (format, samples, number) = taken else { return }
        let url = folder.appendingPathComponent(String(format: "%04d.wav", number))
        do {
            try WAVFile.write(
                samples: samples, sampleRate: format.sampleRate, channels: format.channels, to: url)
        } catch {
            throw AudioSinkError(.writeFailed, "\(error)")
        }
    }
}
