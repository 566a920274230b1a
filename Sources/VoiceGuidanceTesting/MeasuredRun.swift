public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process run alone and measured: its exit status and its own peak memory.
///
/// The peak is the kernel's high-water mark of the child's resident memory (`VmHWM` in
/// `/proc/PID/status`), read every few milliseconds until it exits; it is never more than the
/// true peak. Not `wait4`'s `ru_maxrss`: `posix_spawn` starts the child with `vfork`, and Linux
/// counts the parent's resident memory at the `exec` into the child's maximum. The libc calls of
/// this module live here.
public struct MeasuredRun: Sendable {
    /// Exit status (128 + signal when killed by one).
    public var status: Int32
    /// The child's peak resident memory in bytes.
    public var maxResidentBytes: Int

    /// Runs `executable` with `arguments` (output discarded) and waits for it.
    ///
    /// - Throws: `CocoaError` when it cannot be started.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String]) throws
        -> MeasuredRun
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in [0, 1, 2] {
            posix_spawn_file_actions_addopen(
                &actions, Int32(descriptor), "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        guard started == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSFilePathErrorKey: executable.path])
        }
        // posix_spawn returns after the child's exec: from here on its memory is its own.
        var status: Int32 = 0
        var peak = 0
        while true {
            peak = max(peak, highWaterMark(of: pid))
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid || (waited < 0 && errno != EINTR) { break }
            usleep(5_000)
        }
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return MeasuredRun(status: exit, maxResidentBytes: peak)
    }

    /// `VmHWM` of a running process in bytes (0 once it has exited).
    public static func highWaterMark(of pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first
        return (kilobytes.flatMap { Int($0) } ?? 0) * 1024
    }
}
