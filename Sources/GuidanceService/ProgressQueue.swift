import Foundation
import Synchronization
import VoiceGuidance

/// Progress updates on their way to the voice controller, and the shape of the route they must
/// fit. Thread-safe and non-blocking, so that the socket's poll thread can take a `progress`
/// request and answer it at once; one task (`GuidanceService`'s pump) applies the updates in
/// order. Past `limit` waiting updates, the oldest are skipped and counted.
final class ProgressQueue: Sendable {
    private struct State {
        /// Steps of each leg of the route; nil without a route.
        var stepCounts: [Int]?
        var pending: [RouteProgress] = []
        var isPumping = false
        var queued = 0
        var done = 0
        var skipped = 0
        var applied: RouteProgress?
        var waiters: [(upTo: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let limit: Int
    private let state = Mutex(State())
    private let startPump: @Sendable () -> Void

    /// - Parameter startPump: starts the task that applies the updates (called when none runs).
    init(limit: Int, startPump: @escaping @Sendable () -> Void) {
        self.limit = max(1, limit)
        self.startPump = startPump
    }

    /// Takes a route's shape (nil: no route); updates still waiting are dropped.
    func setRoute(_ route: Route?) {
        let ready = state.withLock { state in
            state.stepCounts = route.map { $0.legs.map(\.steps.count) }
            state.applied = nil
            return Self.dropPending(&state)
        }
        for waiter in ready { waiter.resume() }
    }

    /// Checks an update against the route.
    ///
    /// - Throws: `no_route`, or `invalid_value` naming the leg or step past the route.
    func validate(_ progress: RouteProgress) throws(ProtocolError) {
        let error = state.withLock { state -> ProtocolError? in
            guard let steps = state.stepCounts else {
                return ProtocolError(.noRoute, "progress needs a route; send route first")
            }
            return Self.check(progress, steps)
        }
        if let error { throw error }
    }

    /// Checks an update against the route and queues it.
    ///
    /// - Throws: `no_route`, or `invalid_value` naming the leg or step past the route.
    func submit(_ progress: RouteProgress) throws(ProtocolError) {
        let (needsPump, error) = state.withLock { state -> (Bool, ProtocolError?) in
            guard let steps = state.stepCounts else {
                return (false, ProtocolError(.noRoute, "progress needs a route; send route first"))
            }
            if let error = Self.check(progress, steps) { return (false, error) }
            if state.pending.count >= limit {
                state.pending.removeFirst()
                state.skipped += 1
                state.done += 1
            }
            state.pending.append(progress)
            state.queued += 1
            defer { state.isPumping = true }
            return (!state.isPumping, nil)
        }
        if let error { throw error }
        if needsPump { startPump() }
    }

    private static func check(_ progress: RouteProgress, _ steps: [Int]) -> ProtocolError? {
        guard progress.legIndex < steps.count else {
            return ProtocolError(
                .invalidValue, "\"leg\" \(progress.legIndex) is past the route's \(steps.count) legs")
        }
        let count = steps[progress.legIndex]
        guard progress.stepIndex < count else {
            return ProtocolError(
                .invalidValue,
                "\"step\" \(progress.stepIndex) is past leg \(progress.legIndex)'s \(count) steps")
        }
        return nil
    }

    /// The next update to apply, or nil (and the pump stops) when none waits.
    func next() -> RouteProgress? {
        state.withLock { state in
            guard !state.pending.isEmpty else {
                state.isPumping = false
                return nil
            }
            return state.pending.removeFirst()
        }
    }

    /// Records that `progress` has been applied.
    func didApply(_ progress: RouteProgress) {
        let ready = state.withLock { state in
            state.applied = progress
            state.done += 1
            return Self.takeReady(&state)
        }
        for waiter in ready { waiter.resume() }
    }

    /// Returns when every update queued before the call has been applied or skipped.
    func settle() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                guard state.done < state.queued else { return true }
                state.waiters.append((state.queued, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Updates skipped because more than `limit` waited.
    var skipped: Int { state.withLock { $0.skipped } }
    /// The last update applied since the route was set.
    var applied: RouteProgress? { state.withLock { $0.applied } }

    /// Drops what waits (shutting down).
    func clear() {
        let ready = state.withLock { Self.dropPending(&$0) }
        for waiter in ready { waiter.resume() }
    }

    private static func dropPending(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        state.done += state.pending.count
        state.pending.removeAll()
        return takeReady(&state)
    }

    private static func takeReady(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let done = state.done
        let ready = state.waiters.filter { $0.upTo <= done }.map(\.continuation)
        state.waiters.removeAll { $0.upTo <= done }
        return ready
    }
}
