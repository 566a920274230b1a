public import Foundation
import VoiceGuidance

#if canImport(Glibc)
    import Glibc
#endif

/// A child process run alone and measured: its exit status and its own peak memory.
///
/// The peak is the kernel's high-water mark of the child's resident memory (`VmHWM` in
/// `/proc/PID/status`), read every few milliseconds until it exits; it is never more than the
/// true peak. Not `wait4`'s `ru_maxrss`: `posix_spawn` starts the child with `vfork`, and Linux
/// counts the parent's resident memory at the `exec` into the child's maximum. Started through
/// `ChildProcess`, as every program the package starts.
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
        let child: ChildProcess
        do {
            child = try ChildProcess(
                executable.path, arguments, environment: environment, input: .null, output: .null,
                error: .null)
        } catch {
            throw CocoaError(.executableLoad, userInfo: [NSFilePathErrorKey: executable.path])
        }
        // posix_spawn returns after the child's exec: from here on its memory is its own.
        var peak = 0
        while true {
            peak = max(peak, highWaterMark(of: child.pid))
            if let ended = child.exitStatus {
                return MeasuredRun(status: ended.shellCode, maxResidentBytes: peak)
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
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
