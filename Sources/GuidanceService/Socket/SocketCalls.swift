import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A system call on a socket that failed, with the call and errno.
public struct SocketError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var errno: Int32

    public init(_ message: String, errno: Int32 = 0) {
        self.message = message
        self.errno = errno
    }

    public var description: String { message }
}

/// The credentials of the process at the other end of a Unix socket (SO_PEERCRED).
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

/// What is at a socket path before the daemon binds it.
enum SocketFileState: Equatable {
    case absent
    /// A socket no daemon answers on (left by a crash).
    case stale
    /// A socket a daemon answers on.
    case live
    /// Something that is not a socket (never removed).
    case notSocket
}

/// Every libc call of the guidance service, each turned into a small Swift result.
enum SocketCalls {
    /// `-1` → `SocketError` naming the call and the errno text.
    @discardableResult
    static func check<T: BinaryInteger>(_ result: T, _ what: String) throws(SocketError) -> T {
        guard result == -1 else { return result }
        let code = Glibc.errno
        throw SocketError("\(what): \(String(cString: strerror(code)))", errno: code)
    }

    /// A SOCK_STREAM Unix socket, close-on-exec, optionally non-blocking.
    static func makeSocket(nonBlocking: Bool) throws(SocketError) -> Int32 {
        var type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        return try check(socket(AF_UNIX, type, 0), "socket")
    }

    private static func withAddress<R>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R
    ) throws(SocketError) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity, !bytes.isEmpty, !bytes.contains(0) else {
            throw SocketError("socket path must be 1 to \(capacity - 1) bytes: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// A listening socket at `path`, created with mode `mode` (umask set around bind).
    static func listen(path: String, mode: mode_t, backlog: Int32 = 128) throws(SocketError) -> Int32 {
        let fd = try makeSocket(nonBlocking: true)
        let old = umask(~mode & 0o777)
        let bound = try withAddress(path) { bind(fd, $0, $1) }
        umask(old)
        do {
            try check(bound, "bind \(path)")
            try check(chmod(path, mode), "chmod \(path)")
            try check(Glibc.listen(fd, backlog), "listen \(path)")
        } catch {
            Glibc.close(fd)
            throw error
        }
        return fd
    }

    /// Connects to the socket at `path` (blocking).
    static func connect(path: String) throws(SocketError) -> Int32 {
        let fd = try makeSocket(nonBlocking: false)
        let result = try withAddress(path) { Glibc.connect(fd, $0, $1) }
        do {
            try check(result, "connect \(path)")
        } catch {
            Glibc.close(fd)
            throw error
        }
        return fd
    }

    /// Whether `path` is absent, a stale socket, a live one, or something else.
    static func probe(path: String) -> SocketFileState {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .absent }
        guard info.st_mode & S_IFMT == S_IFSOCK else { return .notSocket }
        do {
            Glibc.close(try connect(path: path))
            return .live
        } catch {
            return error.errno == ECONNREFUSED || error.errno == ENOENT ? .stale : .live
        }
    }

    /// The inode of `path`, or nil.
    static func inode(of path: String) -> UInt64? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return UInt64(info.st_ino)
    }

    static func unlink(_ path: String) { _ = Glibc.unlink(path) }

    /// Gives the socket file to a group and opens it to that group (mode 0660).
    static func shareWithGroup(path: String, gid: UInt32) throws(SocketError) {
        try check(chown(path, uid_t.max, gid), "chown \(path)")
        try check(chmod(path, 0o660), "chmod \(path)")
    }

    /// A new connection, or nil when none is waiting.
    static func accept(_ fd: Int32) -> Int32? {
        let client = Glibc.accept(fd, nil, nil)
        guard client >= 0 else { return nil }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        return client
    }

    static func peerCredentials(_ fd: Int32) -> PeerCredentials? {
        // struct ucred (pid_t, uid_t, gid_t); Glibc hides it without _GNU_SOURCE.
        var credentials = (pid: Int32(0), uid: UInt32(0), gid: UInt32(0))
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }

    /// What a non-blocking read or write did.
    enum Transfer: Equatable {
        case bytes(Int)
        case wouldBlock
        /// End of file (read) or a broken connection.
        case closed
    }

    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .closed }
            if Glibc.errno == EINTR { continue }
            return Glibc.errno == EAGAIN || Glibc.errno == EWOULDBLOCK ? .wouldBlock : .closed
        }
    }

    /// Sends without blocking and without SIGPIPE.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Transfer {
        while true {
            let count = Glibc.send(
                fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            if count >= 0 { return .bytes(count) }
            if Glibc.errno == EINTR { continue }
            return Glibc.errno == EAGAIN || Glibc.errno == EWOULDBLOCK ? .wouldBlock : .closed
        }
    }

    /// Sends everything, blocking (clients).
    static func sendAll(_ fd: Int32, _ data: Data) throws(SocketError) {
        var offset = 0
        while offset < data.count {
            let count = data.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count < 0, Glibc.errno == EINTR { continue }
            offset += Int(try check(count, "send"))
        }
    }

    /// Reads what is there (blocking up to `timeout` seconds); nil on timeout, empty at end of file.
    static func receive(_ fd: Int32, timeout: Double) throws(SocketError) -> Data? {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = try check(Glibc.poll(&descriptor, 1, Int32(min(timeout, 86_400) * 1000)), "poll")
        guard ready > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = try check(
            buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }, "recv")
        return Data(buffer[0..<count])
    }

    static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    static func shutDown(_ fd: Int32) { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    /// Waits for the descriptors (timeout in milliseconds, -1 forever).
    static func poll(_ descriptors: inout [pollfd], timeout: Int32) -> Int32 {
        let result = descriptors.withUnsafeMutableBufferPointer {
            Glibc.poll($0.baseAddress, nfds_t($0.count), timeout)
        }
        return result
    }

    /// A non-blocking pipe for waking the poll loop.
    static func makePipe() throws(SocketError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        try check(pipe(&fds), "pipe")
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        return (fds[0], fds[1])
    }

    static func wake(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = Glibc.write(fd, &byte, 1)
    }

    static func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ Glibc.read(fd, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// SIGPIPE is ignored for the whole process (a vanished client is an error, not death).
    static func ignoreSIGPIPE() { _ = signal(SIGPIPE, SIG_IGN) }

    /// The default action of `number` is replaced by nothing, so a dispatch source can take it.
    static func takeOverSignal(_ number: Int32) { _ = signal(number, SIG_IGN) }

    static var userID: UInt32 { getuid() }

    /// A group's id and the names of its members, or nil when there is no such group.
    static func group(named name: String) -> (gid: UInt32, members: [String])? {
        guard let entry = getgrnam(name) else { return nil }
        var members: [String] = []
        var cursor = entry.pointee.gr_mem
        while let member = cursor?.pointee {
            members.append(String(cString: member))
            cursor = cursor?.advanced(by: 1)
        }
        return (entry.pointee.gr_gid, members)
    }

    /// The login name of a user id, or nil.
    static func userName(_ uid: UInt32) -> String? {
        guard let entry = getpwuid(uid) else { return nil }
        return String(cString: entry.pointee.pw_name)
    }

    /// Resident set size of this process in kB (VmRSS of /proc/self/status), or nil.
    static func residentKilobytes(pid: Int32? = nil) -> Int? {
        let path = pid.map { "/proc/\($0)/status" } ?? "/proc/self/status"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "")
        }
        return nil
    }
}
