public import Foundation

/// Files replaced whole: written under a hidden temporary name beside the target, then renamed
/// over it, so a crash, a kill or a full disk never leaves half a file under the final name.
///
/// There is no `fsync`: what is written here (WAV files, manifests) is derived data that a
/// later run checks and writes again, like the output of `espeak-ng -w`, sox or cp. A per-file
/// sync made a 157-prompt `render-route` spend 0.17 s of its 1.27 s waiting for the disk.
public enum AtomicFile {
    /// Writes `data` to `url`, replacing whatever was there only once all of it is written.
    ///
    /// - Throws: `WAVError.io` naming the path and the reason; the temporary file is removed.
    public static func write(_ data: Data, to url: URL) throws {
        try write(data, toPath: url.path)
    }

    /// Writes `data` to the file at `path`, atomically (as ``write(_:to:)``).
    public static func write(_ data: Data, toPath path: String) throws {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = folder + temporaryName(for: name)
        if let reason = writeNew(data, at: temporary) {
            throw WAVError(.io, "cannot write \(path): \(reason)")
        }
        try commit(temporary, to: path)
    }

    /// A hidden temporary path beside `path`, unique to this process and this write.
    public static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return folder + temporaryName(for: name)
    }

    /// Puts a finished temporary file (from `temporaryPath(for:)`) in place under `path`.
    ///
    /// - Throws: `WAVError.io` naming the path; the temporary file is removed.
    public static func commit(_ temporary: String, to path: String) throws {
        do {
            try SystemCalls.rename(temporary, to: path)
        } catch {
            SystemCalls.removeFile(temporary)
            throw WAVError(.io, "cannot write \(path): \(error.reason)")
        }
    }

    /// Removes the temporary files that an interrupted write left in `folder` for any of `names`.
    public static func removeLeftovers(of names: some Sequence<String>, in folder: URL) {
        let wanted = Set(names)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for entry in entries where entry.hasPrefix(".") && entry.hasSuffix(".tmp") {
            // .NAME.TAG.tmp, where TAG has no dot.
            let middle = entry.dropFirst().dropLast(4)
            guard let dot = middle.lastIndex(of: "."), wanted.contains(String(middle[..<dot])) else {
                continue
            }
            SystemCalls.removeFile(folder.path + "/" + entry)
        }
    }

    /// `.NAME.PID-N.tmp`: hidden, beside the target, unique to this process and this write.
    static func temporaryName(for name: String) -> String {
        ".\(name).\(SystemCalls.processID())-\(writeCounter.next()).tmp"
    }

    /// Creates `path` (it must not exist) holding `data`; returns why it failed, having removed it.
    private static func writeNew(_ data: Data, at path: String) -> String? {
        let descriptor: Int32
        do {
            descriptor = try SystemCalls.createNew(path)
        } catch {
            return error.reason
        }
        var failure: SystemError?
        do {
            try SystemCalls.writeAll(data, to: descriptor)
        } catch {
            failure = error
        }
        do {
            try SystemCalls.close(descriptor)
        } catch {
            if failure == nil { failure = error }
        }
        if failure != nil { SystemCalls.removeFile(path) }
        return failure?.reason
    }
}

/// Numbers the temporary files of this process.
private let writeCounter = WriteCounter()

private final class WriteCounter: Sendable {
    private let value = Locked(0)

    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}
