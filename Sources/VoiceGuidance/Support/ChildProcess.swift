package import Foundation

/// A program started by this one (`posix_spawn`, as a shell starts it: every signal unblocked and
/// at its default), with its standard streams where asked, waited for once.
///
/// The one way the package starts processes: the command engine, `render-route`'s workers and
/// the benchmarks. Not Foundation's `Process`: its `run` took 7 ms of this process's time, its
/// `waitUntilExit` polls in 50 ms steps, and its children inherit the spawning thread's blocked
/// signals.
package final class ChildProcess: Sendable {
    /// The process id.
    package let pid: Int32
    /// The write end of the child's standard input, when it is `.pipe`.
    package let input: FileHandle?
    /// The read end of the child's standard output, when it is `.pipe`.
    package let output: FileHandle?
    private let status = Locked<ExitStatus?>(nil)

    /// Starts `executable` (a path) with `arguments`.
    ///
    /// - Parameter environment: the child's environment; this process's when nil.
    /// - Throws: `SystemError` when a pipe cannot be made or the program cannot be started.
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        input: ChildStream = .inherit, output: ChildStream = .inherit, error: ChildStream = .inherit
    ) throws(SystemError) {
        let envp = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        let started = try SystemCalls.spawn(
            executable, arguments, environment: envp, streams: (input, output, error))
        pid = started.pid
        self.input = started.input.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        self.output = started.output.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    }

    /// Waits until the program ends.
    @discardableResult
    package func wait() -> ExitStatus {
        if let known = status.withLock({ $0 }) { return known }
        let ended = SystemCalls.reap(pid, blocking: true) ?? .signalled(0)
        status.withLock { $0 = ended }
        return ended
    }

    /// Waits up to `seconds` for the program to end; nil when it still runs.
    package func wait(timeout seconds: Double) -> ExitStatus? {
        let deadline = ContinuousClock.now + .seconds(max(0, seconds))
        var pause = 200
        while true {
            if let ended = exitStatus { return ended }
            if ContinuousClock.now >= deadline { return nil }
            SystemCalls.sleep(microseconds: pause)
            pause = min(pause * 2, 2_000)
        }
    }

    /// How the program ended, or nil while it runs (never blocks).
    package var exitStatus: ExitStatus? {
        status.withLock { known in
            if known == nil { known = SystemCalls.reap(pid, blocking: false) }
            return known
        }
    }

    /// Asks the program to end (SIGTERM).
    package func terminate() {
        if exitStatus == nil { SystemCalls.stop(pid, force: false) }
    }

    /// Ends the program (SIGKILL) and waits for it.
    @discardableResult
    package func kill() -> ExitStatus {
        if exitStatus == nil { SystemCalls.stop(pid, force: true) }
        return wait()
    }
}
