import Foundation
import Synchronization

/// Waiting for something with a time limit.
enum Deadline {
    /// Runs `work` and returns when it ends or after `seconds`, whichever is first (the work
    /// goes on in the background when the time is up).
    static func wait(seconds: Double, _ work: @escaping @Sendable () async -> Void) async {
        let resumed = Mutex(false)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finish: @Sendable () -> Void = {
                let first = resumed.withLock { done in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume() }
            }
            Task {
                await work()
                finish()
            }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                finish()
            }
        }
    }
}
