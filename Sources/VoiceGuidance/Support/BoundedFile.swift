public import Foundation

/// A whole input read into memory, never more of it than a limit: a file, a pipe, a device or
/// standard input (`-`).
///
/// At most `limit + 1` bytes are ever read, so `/dev/zero`, an endless pipe or a file far over
/// the limit is refused at once instead of filling memory.
public enum BoundedFile {
    /// Why an input could not be read, with its path.
    public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Reason: Sendable, Equatable {
            case noSuchFile
            case folder
            /// A device, FIFO or socket where only a regular file is taken.
            case notRegularFile
            case tooLarge(limit: Int)
            /// The system's words for a failed `open` or `read` ("Permission denied").
            case system(String)
        }

        public var path: String
        public var reason: Reason

        public init(path: String, reason: Reason) {
            self.path = path
            self.reason = reason
        }

        /// True when nothing readable is at the path (as opposed to something too large or of
        /// the wrong kind).
        public var isMissing: Bool {
            switch reason {
            case .noSuchFile, .folder, .system: true
            case .notRegularFile, .tooLarge: false
            }
        }

        public var description: String {
            let path = path == "-" ? "<stdin>" : path
            return switch reason {
            case .noSuchFile: "cannot read \(path): no such file"
            case .folder: "cannot read \(path): it is a folder, not a file"
            case .notRegularFile: "cannot read \(path): it is a device, pipe or socket, not a regular file"
            case .tooLarge(let limit): "\(path) is over the limit of \(BoundedFile.describe(bytes: limit))"
            case .system(let words):
                "cannot read \(path): \(words.prefix(1).lowercased() + words.dropFirst())"
            }
        }
    }

    /// Reads `path` (`-`: standard input) to its end.
    ///
    /// - Parameters:
    ///   - limit: the most bytes taken; a longer input is a `tooLarge` error.
    ///   - regularFilesOnly: refuse devices, FIFOs and sockets (a daemon must not block on
    ///     one, or read `/dev/zero`), and standard input.
    public static func read(_ path: String, limit: Int, regularFilesOnly: Bool = false) throws(ReadError)
        -> Data
    {
        func failure(_ reason: ReadError.Reason) -> ReadError { ReadError(path: path, reason: reason) }
        let descriptor: Int32
        if path == "-", !regularFilesOnly {
            descriptor = 0
        } else {
            let kind: FileKind
            do { kind = try SystemCalls.kind(of: path) } catch {
                // Not only a missing file: a folder on the way that may not be searched, a loop of links.
                let missing = error.code == ENOENT || error.code == ENOTDIR
                throw failure(missing ? .noSuchFile : .system(error.reason))
            }
            switch kind {
            case .directory: throw failure(.folder)
            case .other where regularFilesOnly: throw failure(.notRegularFile)
            default: break
            }
            // Where only a regular file is taken, the open must not wait for a FIFO's writer
            // either: one can be swapped in between the stat and the open.
            do { descriptor = try SystemCalls.openForReading(path, waiting: !regularFilesOnly) } catch {
                throw failure(.system(error.reason))
            }
            if regularFilesOnly, let refusal = refusal(ofOpened: descriptor) {
                try? SystemCalls.close(descriptor)
                throw failure(refusal)
            }
        }
        defer { if descriptor != 0 { try? SystemCalls.close(descriptor) } }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while data.count <= limit {
            // One byte past the limit at most: enough to tell that the input is longer.
            let wanted = limit - data.count < chunk.count ? limit - data.count + 1 : chunk.count
            let result = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) -> Int in
                    try SystemCalls.read(
                        descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(wanted)))
                }
            }
            let count: Int
            switch result {
            case .success(let read): count = read
            case .failure(let error): throw failure(.system(error.reason))
            }
            guard count > 0 else { return data }
            data.append(contentsOf: chunk[..<count])
        }
        throw failure(.tooLarge(limit: limit))
    }

    /// Why the open `descriptor` is not read where only a regular file is taken, or nil.
    package static func refusal(ofOpened descriptor: Int32) -> ReadError.Reason? {
        switch Result(catching: { () throws(SystemError) in try SystemCalls.kind(of: descriptor) }) {
        case .success(.regular): nil
        case .success(.directory): .folder
        case .success: .notRegularFile
        case .failure(let error): .system(error.reason)
        }
    }

    /// A byte count for messages: "16 MiB (16777216 bytes)", or "900 bytes".
    static func describe(bytes: Int) -> String {
        guard bytes >= 1 << 20, bytes % (1 << 20) == 0 else { return "\(bytes) bytes" }
        return "\(bytes >> 20) MiB (\(bytes) bytes)"
    }
}
