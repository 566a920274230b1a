import Foundation

/// A value behind a lock, with the same `withLock` shape as `Synchronization.Mutex`: the one
/// lock primitive of the package (core, backends, testing support, command line).
///
/// Why not `Mutex`: on Linux (Swift 6.3) Thread Sanitizer does not see `Mutex`'s futex-based
/// locking and reports every access it protects as a race (measured with a two-thread
/// counter); this lock is a pthread mutex (`NSLock`), which the sanitizer understands, so the
/// playback path can be checked with `swift test --sanitize=thread`.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result)
        throws(Failure)
        -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
