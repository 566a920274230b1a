public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process run alone and measured by the kernel: its exit status and its own peak
/// memory. The libc calls of this module live here.
///
/// The peak is the child's `VmHWM` from `/proc/PID/status`, read every few milliseconds until it
/// exits (the high-water mark only grows, so the last reading is the peak unless the child grew
/// in its last milliseconds). `wait4`'s `ru_maxrss` is not used: Linux records the parent's
/// resident size in it when the child execs from the parent's memory (posix_spawn and fork
/// both), so a test process of 150 MB would see every child as at least 150 MB.
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
        var status: Int32 = 0
        var peak = 0
        while true {
            peak = max(peak, highWaterMark(of: pid) ?? 0)
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { break }
            if waited < 0 && errno != EINTR { break }
            usleep(2_000)
        }
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return MeasuredRun(status: exit, maxResidentBytes: peak)
    }

    /// The `VmHWM` line of `/proc/PID/status` in bytes, nil when the process has no memory (not
    /// yet exec'd into its own, or already exiting).
    static func highWaterMark(of pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        return kilobytes.map { $0 * 1024 }
    }
}
