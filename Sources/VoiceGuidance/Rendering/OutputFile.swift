public import Foundation

/// An output path opened for writing without destroying what is there.
///
/// - A regular file (or a path that does not exist yet) is written under a temporary name beside
///   it and renamed over it by ``commit()``, as ``AtomicFile`` does: a crash, a kill or a full disk
///   never leaves half a file under the final name.
/// - A symbolic link is followed: its target is written (atomically when it is a regular file),
///   and the link stays.
/// - A device (`/dev/null`, `/dev/full`), a FIFO, anything else that is not a regular file, a
///   path under `/dev/fd/` or `/proc/`, and `-` (standard output) are written directly: never
///   replaced, never renamed over. `-` and `/dev/stdout` are this process's standard output.
///
/// Every failed `write`, `close` and `rename` is an error naming the path (`/dev/full` reports
/// "No space left on device"). Writing to a pipe or FIFO ignores `SIGPIPE` from then on, so a
/// reader that goes away is an error ("Broken pipe"), not the end of the process.
///
/// Used for every file a command writes: WAV files, manifests, and streamed output (open, then
/// ``write(_:)`` chunk by chunk, ``write(_:at:)`` to patch a header when ``isSeekable``, then
/// ``commit()``; ``discard()`` on failure).
public final class OutputFile {
    /// The path as given (`-` for standard output).
    public let path: String
    /// Whether the output is a regular file, so that ``write(_:at:)`` can patch bytes already
    /// written (a header); false for devices, FIFOs and standard output.
    public let isSeekable: Bool
    private var descriptor: Int32
    /// For atomic output: the temporary file and the final path.
    private let temporary: (path: String, final: String)?
    private let ownsDescriptor: Bool
    private var isClosed = false

    /// Opens `path` for writing, as described above.
    ///
    /// - Throws: `WAVError.io` naming the path and the reason (a folder, no permission, a
    ///   missing folder, a symbolic link loop).
    public init(path: String) throws {
        self.path = path
        if let standard = Self.standardDescriptor(path) {
            (descriptor, temporary, ownsDescriptor) = (standard, nil, false)
            isSeekable = false
            Self.ignoreBrokenPipes()
            return
        }
        let isProcessPath = path.hasPrefix("/dev/fd/") || path.hasPrefix("/proc/")
        let target = isProcessPath ? path : try Self.finalTarget(of: path)
        let kind = SystemCalls.fileKind(target)
        if kind == .directory {
            throw WAVError(.io, "cannot write \(path): it is a folder")
        }
        let isRegular = kind == nil || kind == .regular
        if isRegular && !isProcessPath {
            let slash = target.lastIndex(of: "/")
            let folder = slash.map { String(target[...$0]) } ?? ""
            let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
            let temporaryPath = folder + AtomicFile.temporaryName(for: name)
            do {
                descriptor = try SystemCalls.createNew(temporaryPath)
            } catch {
                throw Self.failure(path, error.reason)
            }
            (temporary, ownsDescriptor, isSeekable) = ((temporaryPath, target), true, true)
        } else {
            do {
                descriptor = try SystemCalls.openForWriting(path, truncate: isRegular)
            } catch {
                throw Self.failure(path, error.reason)
            }
            (temporary, ownsDescriptor, isSeekable) = (nil, true, isRegular)
            if !isRegular { Self.ignoreBrokenPipes() }
        }
    }

    deinit {
        if !isClosed { discard() }
    }

    /// Writes `data` whole to `path`, as described above (open, write, commit).
    ///
    /// - Throws: `WAVError.io` naming the path and the reason; nothing is left under a
    ///   temporary name.
    public static func write(_ data: Data, toPath path: String) throws {
        let file = try OutputFile(path: path)
        do {
            try file.write(data)
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }

    /// Writes `data` whole to the file at `url` (see ``write(_:toPath:)``).
    public static func write(_ data: Data, to url: URL) throws {
        try write(data, toPath: url.path)
    }

    /// Appends `data`.
    ///
    /// - Throws: `WAVError.io` with the reason (`No space left on device`, `Broken pipe`).
    public func write(_ data: Data) throws {
        do {
            try SystemCalls.writeAll(data, to: descriptor)
        } catch {
            throw Self.failure(path, error.reason)
        }
    }

    /// Writes `data` at `offset` from the start (a header patched at the end of a stream).
    ///
    /// - Throws: `WAVError.io` when the output is not seekable (check ``isSeekable``) or the
    ///   write fails.
    public func write(_ data: Data, at offset: Int) throws {
        guard isSeekable else {
            throw Self.failure(path, "it is not a regular file, so it cannot be patched")
        }
        do {
            try SystemCalls.writeAll(data, to: descriptor, at: offset)
        } catch {
            throw Self.failure(path, error.reason)
        }
    }

    /// Finishes the output: closes it and, for a regular file, renames it into place.
    ///
    /// - Throws: `WAVError.io` when closing or renaming fails (the temporary file is removed).
    public func commit() throws {
        guard !isClosed else { return }
        isClosed = true
        do {
            if ownsDescriptor { try SystemCalls.close(descriptor) }
        } catch {
            if let temporary { SystemCalls.removeFile(temporary.path) }
            throw Self.failure(path, error.reason)
        }
        guard let temporary else { return }
        do {
            try SystemCalls.rename(temporary.path, to: temporary.final)
        } catch {
            SystemCalls.removeFile(temporary.path)
            throw Self.failure(path, error.reason)
        }
    }

    /// Abandons the output: closes it and removes the temporary file (a regular file keeps what
    /// it had; a device or FIFO has had what was written).
    public func discard() {
        guard !isClosed else { return }
        isClosed = true
        if ownsDescriptor { try? SystemCalls.close(descriptor) }
        if let temporary { SystemCalls.removeFile(temporary.path) }
    }

    /// The descriptor `-`, `/dev/stdout` and `/dev/stderr` stand for, if `path` is one of them.
    private static func standardDescriptor(_ path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout": 1
        case "/dev/stderr": 2
        default: nil
        }
    }

    /// The path a chain of symbolic links ends at (`path` itself when it is not a link).
    private static func finalTarget(of path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            guard SystemCalls.fileKind(current, followingLinks: false) == .symbolicLink else {
                return current
            }
            let link: String
            do {
                link = try SystemCalls.linkTarget(current)
            } catch {
                throw failure(path, error.reason)
            }
            if link.hasPrefix("/") {
                current = link
            } else {
                let folder = current.lastIndex(of: "/").map { String(current[...$0]) } ?? ""
                current = folder + link
            }
        }
        throw failure(path, "too many levels of symbolic links")
    }

    private static func failure(_ path: String, _ reason: String) -> WAVError {
        WAVError(.io, "cannot write \(path == "-" ? "standard output" : path): \(reason)")
    }

    /// Makes a write to a pipe whose reader is gone fail with EPIPE instead of killing the process.
    private static func ignoreBrokenPipes() {
        SystemCalls.ignoreBrokenPipes()
    }
}
