public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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
        var info = stat()
        let exists = stat(target, &info) == 0
        if exists && (info.st_mode & S_IFMT) == S_IFDIR {
            throw WAVError(.io, "cannot write \(path): it is a folder")
        }
        let isRegular = !exists || (info.st_mode & S_IFMT) == S_IFREG
        if isRegular && !isProcessPath {
            let slash = target.lastIndex(of: "/")
            let folder = slash.map { String(target[...$0]) } ?? ""
            let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
            let temporaryPath = folder + AtomicFile.temporaryName(for: name)
            descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw Self.failure(path, errorText()) }
            (temporary, ownsDescriptor, isSeekable) = ((temporaryPath, target), true, true)
        } else {
            descriptor = open(path, O_WRONLY | O_CLOEXEC | (isRegular ? O_TRUNC : 0))
            guard descriptor >= 0 else { throw Self.failure(path, errorText()) }
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
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Self.failure(path, errorText())
                }
                offset += written
            }
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
        try data.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let written = pwrite(
                    descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Self.failure(path, errorText())
                }
                done += written
            }
        }
    }

    /// Finishes the output: closes it and, for a regular file, renames it into place.
    ///
    /// - Throws: `WAVError.io` when closing or renaming fails (the temporary file is removed).
    public func commit() throws {
        guard !isClosed else { return }
        isClosed = true
        if ownsDescriptor, close(descriptor) != 0 {
            let reason = errorText()
            if let temporary { unlink(temporary.path) }
            throw Self.failure(path, reason)
        }
        if let temporary, rename(temporary.path, temporary.final) != 0 {
            let reason = errorText()
            unlink(temporary.path)
            throw Self.failure(path, reason)
        }
    }

    /// Abandons the output: closes it and removes the temporary file (a regular file keeps what
    /// it had; a device or FIFO has had what was written).
    public func discard() {
        guard !isClosed else { return }
        isClosed = true
        if ownsDescriptor { close(descriptor) }
        if let temporary { unlink(temporary.path) }
    }

    /// The descriptor `-`, `/dev/stdout` and `/dev/stderr` stand for, if `path` is one of them.
    private static func standardDescriptor(_ path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout": STDOUT_FILENO
        case "/dev/stderr": STDERR_FILENO
        default: nil
        }
    }

    /// The path a chain of symbolic links ends at (`path` itself when it is not a link).
    private static func finalTarget(of path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { throw failure(path, errorText()) }
            let link = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
        signal(SIGPIPE, SIG_IGN)
    }
}

private func errorText() -> String {
    String(cString: strerror(errno))
}
