public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process run alone and measured by the kernel: its exit status and its own peak
/// memory (`wait4`'s rusage, not the maximum over every child this process ever had). The libc
/// calls of this module live here.
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
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return MeasuredRun(status: exit, maxResidentBytes: usage.ru_maxrss * 1024)
    }
}
