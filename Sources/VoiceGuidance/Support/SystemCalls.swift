package import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A libc call that failed: which call and its `errno`, with the system's words for it.
package struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed (`open`, `rename`, `posix_spawn`).
    package var call: String
    /// The `errno` value.
    package var code: Int32
    /// `strerror`'s text ("No space left on device").
    package var reason: String

    package var description: String { "\(call): \(reason)" }
}

/// What is at a path, by `stat` or `lstat`.
package enum FileKind: Sendable, Equatable {
    case regular, directory, symbolicLink, other
}

/// Where a child process's standard stream goes.
package enum ChildStream: Sendable, Equatable {
    /// This process's own stream.
    case inherit
    /// `/dev/null`.
    case null
    /// A file read from the start (standard input).
    case readFile(String)
    /// A file created or emptied, then written (standard output or error).
    case writeFile(String)
    /// A pipe to this process (`ChildProcess.input` / `.output`).
    case pipe
}

/// Every libc call of the core, each a small Swift function; nothing else in the module calls
/// libc. A failure becomes a `SystemError` through ``error(_:code:)``.
package enum SystemCalls {
    /// The one place an errno becomes a typed, readable error.
    package static func error(_ call: String, code: Int32 = errno) -> SystemError {
        SystemError(call: call, code: code, reason: String(cString: strerror(code)))
    }

    /// Passes `result` through, or throws the `SystemError` of `errno` when it is -1.
    @discardableResult
    static func check<T: BinaryInteger>(_ result: T, _ call: String) throws(SystemError) -> T {
        guard result == -1 else { return result }
        throw error(call)
    }

    // MARK: Files

    /// Creates `path` for writing; it must not exist (mode 0644, close-on-exec).
    package static func createNew(_ path: String) throws(SystemError) -> Int32 {
        try check(open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644), "open")
    }

    /// Opens an existing `path` for writing (emptied first when `truncate`), close-on-exec.
    package static func openForWriting(_ path: String, truncate: Bool) throws(SystemError) -> Int32 {
        try check(open(path, O_WRONLY | O_CLOEXEC | (truncate ? O_TRUNC : 0)), "open")
    }

    /// Opens an existing `path` for reading, close-on-exec; unless `waiting`, without waiting
    /// for a FIFO's writer (`O_NONBLOCK`, which changes nothing for a regular file).
    package static func openForReading(_ path: String, waiting: Bool = true) throws(SystemError) -> Int32 {
        try check(open(path, O_RDONLY | O_CLOEXEC | (waiting ? 0 : O_NONBLOCK)), "open")
    }

    /// Reads at most `buffer.count` bytes from `descriptor` into `buffer`, retrying on EINTR;
    /// 0 at the end of the input.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer)
        throws(SystemError) -> Int
    {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw error("read") }
        }
    }

    /// Writes all of `data` to `descriptor` (at `offset` when given), retrying on EINTR.
    package static func writeAll(_ data: Data, to descriptor: Int32, at offset: Int? = nil)
        throws(SystemError)
    {
        let failure: SystemError? = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var done = 0
            while done < buffer.count {
                let written =
                    if let offset {
                        pwrite(descriptor, base + done, buffer.count - done, off_t(offset + done))
                    } else {
                        write(descriptor, base + done, buffer.count - done)
                    }
                if written < 0 {
                    if errno == EINTR { continue }
                    return error(offset == nil ? "write" : "pwrite")
                }
                done += written
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Closes `descriptor`.
    package static func close(_ descriptor: Int32) throws(SystemError) {
        try check(Glibc.close(descriptor), "close")
    }

    /// Renames `source` over `destination`.
    package static func rename(_ source: String, to destination: String) throws(SystemError) {
        try check(Glibc.rename(source, destination), "rename")
    }

    /// Removes the file at `path`, if it can.
    package static func removeFile(_ path: String) {
        unlink(path)
    }

    /// What `path` is, following symbolic links unless `followingLinks` is false; nil when
    /// nothing is there (or it cannot be looked at).
    package static func fileKind(_ path: String, followingLinks: Bool = true) -> FileKind? {
        try? kind(of: path, followingLinks: followingLinks)
    }

    /// What `path` is, following symbolic links unless `followingLinks` is false; the error of
    /// `stat` when it cannot be looked at (ENOENT: nothing there; EACCES: a folder on the way
    /// that may not be searched).
    package static func kind(of path: String, followingLinks: Bool = true) throws(SystemError) -> FileKind {
        var info = stat()
        try check(followingLinks ? stat(path, &info) : lstat(path, &info), followingLinks ? "stat" : "lstat")
        return kind(mode: info.st_mode)
    }

    /// What the open `descriptor` is (`fstat`).
    package static func kind(of descriptor: Int32) throws(SystemError) -> FileKind {
        var info = stat()
        try check(fstat(descriptor, &info), "fstat")
        return kind(mode: info.st_mode)
    }

    private static func kind(mode: mode_t) -> FileKind {
        switch mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .directory
        case S_IFLNK: .symbolicLink
        default: .other
        }
    }

    /// The target a symbolic link holds, as written in it.
    package static func linkTarget(_ path: String) throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { throw error("readlink") }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Makes a write to a pipe whose reader is gone fail with EPIPE instead of killing the process.
    package static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    // MARK: Clocks and this process

    /// This process's id.
    package static func processID() -> Int32 { getpid() }

    /// CPU time consumed so far by the calling thread, in seconds.
    package static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// Sleeps `microseconds` (at most one second).
    package static func sleep(microseconds: Int) {
        if microseconds > 0 { usleep(UInt32(min(microseconds, 1_000_000))) }
    }
}

// MARK: Processes

/// How a child process ended.
package enum ExitStatus: Sendable, Equatable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)

    /// As a shell reports it: the exit status, or 128 + the signal.
    package var shellCode: Int32 {
        switch self {
        case .exited(let code): code
        case .signalled(let signal): 128 + signal
        }
    }

    /// Decodes a `waitpid` status.
    init(waitStatus status: Int32) {
        self = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
    }
}

extension SystemCalls {
    /// A pipe, both ends close-on-exec (so no other child inherits them).
    static func makePipe() throws(SystemError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        try check(pipe(&ends), "pipe")
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Starts `executable` (a path) with `arguments`, `environment` (this process's when nil)
    /// and its standard input, output and error as `streams` says, every signal unblocked and at
    /// its default, as a shell starts a program. Returns its process id and, for each stream that
    /// is a `.pipe`, this process's end of it.
    static func spawn(
        _ executable: String, _ arguments: [String], environment: [String]?,
        streams: (input: ChildStream, output: ChildStream, error: ChildStream)
    ) throws(SystemError) -> (pid: Int32, input: Int32?, output: Int32?) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var ends: [(parent: Int32, child: Int32)?] = [nil, nil, nil]
        defer { for end in ends { if let end { Glibc.close(end.child) } } }
        do {
            for (target, stream) in [(Int32(0), streams.input), (1, streams.output), (2, streams.error)] {
                ends[Int(target)] = try addStream(stream, as: target, to: &actions)
            }
            let pid = try spawn(executable, arguments, environment: environment, actions: &actions)
            return (pid, ends[0]?.parent, ends[1]?.parent)
        } catch {
            for end in ends { if let end { Glibc.close(end.parent) } }
            throw error
        }
    }

    /// Adds what descriptor `target` of the child is made of; returns the ends of a pipe.
    private static func addStream(
        _ stream: ChildStream, as target: Int32, to actions: inout posix_spawn_file_actions_t
    ) throws(SystemError) -> (parent: Int32, child: Int32)? {
        let flags: Int32
        let path: String
        switch stream {
        case .inherit: return nil
        case .null: (path, flags) = ("/dev/null", target == 0 ? O_RDONLY : O_WRONLY)
        case .readFile(let file): (path, flags) = (file, O_RDONLY)
        case .writeFile(let file): (path, flags) = (file, O_WRONLY | O_CREAT | O_TRUNC)
        case .pipe:
            let pipe = try makePipe()
            let ends =
                target == 0 ? (parent: pipe.write, child: pipe.read) : (parent: pipe.read, child: pipe.write)
            posix_spawn_file_actions_adddup2(&actions, ends.child, target)
            return ends
        }
        posix_spawn_file_actions_addopen(&actions, target, path, flags, 0o644)
        return nil
    }

    /// `posix_spawn` with every signal unblocked and at its default in the child.
    private static func spawn(
        _ executable: String, _ arguments: [String], environment: [String]?,
        actions: inout posix_spawn_file_actions_t
    ) throws(SystemError) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var envp = environment.map { $0.map { strdup($0) } + [nil] }
        defer { for pointer in envp ?? [] { free(pointer) } }
        var pid: pid_t = 0
        let status =
            if envp != nil {
                posix_spawn(&pid, executable, &actions, &attributes, argv, &envp!)
            } else {
                posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
            }
        guard status == 0 else { throw error("posix_spawn", code: status) }
        return pid
    }

    /// Reaps `pid` if it has ended (waiting for it when `blocking`); nil while it runs.
    static func reap(_ pid: Int32, blocking: Bool) -> ExitStatus? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if result == pid { return ExitStatus(waitStatus: status) }
            if result == 0 { return nil }
            // ECHILD (reaped elsewhere) or an error: the process is gone.
            if errno != EINTR { return .signalled(0) }
        }
    }

    /// Asks `pid` to end (SIGTERM), or ends it (SIGKILL) when `force`.
    static func stop(_ pid: Int32, force: Bool) {
        kill(pid, force ? SIGKILL : SIGTERM)
    }
}
