import Foundation
import Synchronization
import VoiceGuidance

/// GPS fixes matched to the route with the library's `FixFilter` and `RouteMatcher`, on any
/// thread (the socket's poll thread answers `position` requests itself).
final class PositionMatching: Sendable {
    /// What one fix did.
    struct Outcome: Sendable {
        /// Progress to hand to the controller; nil while searching, off the route or rejected.
        var progress: RouteProgress?
        /// Progress carried forward for each whole second without a fix before this one.
        var gap: [RouteProgress]
        /// Route-matching events the fix caused.
        var events: [RouteMatcher.Event]
        var state: RouteMatcher.State
        /// Why the fix filter threw the fix away, if it did.
        var rejection: FixFilter.Rejection?
        /// True when the matcher ignored the fix as an outlier.
        var isOutlier: Bool
        /// The limit and speed of a `speed_alert` in `events`.
        var speedAlert: SpeedWatch.Alert?
        /// The number of the waypoint of a `waypoint_reached` in `events`, from 1.
        var waypoint: Int?
    }

    private struct State {
        var hasRoute = false
        var filter = FixFilter()
        var matcher: RouteMatcher?
        /// Why the route cannot be matched (it has no geometry).
        var unusable: String?
        var lastFixTime: Double?
        /// The last whole second checked for a lost signal (by `tick` or a fix's catch-up).
        var lastTick: Double?
    }

    private let state = Mutex(State())

    /// Takes a new route (nil: none); what was learnt of the old one is forgotten.
    func setRoute(_ route: Route?) {
        var next = State()
        if let route {
            next.hasRoute = true
            do {
                next.matcher = try RouteMatcher(route: route)
            } catch {
                next.unusable = error.description
            }
        }
        state.withLock { $0 = next }
    }

    /// Fails when a fix cannot be matched now: no route, or a route without geometry.
    func checkReady() throws(ProtocolError) {
        let (hasRoute, unusable) = state.withLock { ($0.hasRoute, $0.unusable) }
        guard hasRoute else { throw ProtocolError(.noRoute, "position needs a route; send route first") }
        if let unusable {
            throw ProtocolError(
                .noGeometry,
                "the route has no geometry to match positions on (\(unusable)); send progress instead")
        }
    }

    /// Filters and matches one fix. Whole seconds without a fix since the last one are caught up
    /// first (as `tick` would have, on the fixes' clock), so that a trace replayed faster than
    /// real time is matched as it was driven.
    func match(_ fix: Position) throws(ProtocolError) -> Outcome {
        try checkReady()
        return state.withLock { state in
            let before = state.filter.rejected
            guard let clean = state.filter.accept(fix) else {
                let reason = state.filter.rejected.first { before[$0.key, default: 0] < $0.value }?.key
                return Outcome(
                    progress: nil, gap: [], events: [], state: state.matcher?.state ?? .searching,
                    rejection: reason,
                    isOutlier: false)
            }
            guard var matcher = state.matcher else {
                return Outcome(
                    progress: nil, gap: [], events: [], state: .searching, rejection: nil, isOutlier: false)
            }
            var gap: [RouteProgress] = []
            var events: [RouteMatcher.Event] = []
            if let last = state.lastFixTime {
                var second = (max(last, state.lastTick ?? last) + 1).rounded(.down)
                while second < clean.time, second - last <= Self.longestCatchUp {
                    events += matcher.noFix(at: second)
                    if matcher.state == .onRoute, let progress = matcher.progress(at: second) {
                        gap.append(progress)
                    }
                    state.lastTick = second
                    second += 1
                }
            }
            state.lastFixTime = clean.time
            let update = matcher.update(clean)
            state.matcher = matcher
            return Outcome(
                progress: update.progress, gap: gap, events: events + update.events, state: matcher.state,
                rejection: nil, isOutlier: update.isOutlier, speedAlert: update.speedAlert,
                waypoint: update.waypoint)
        }
    }

    /// Most seconds of a gap between two fixes caught up (a longer one is a new drive).
    static let longestCatchUp = 600.0

    /// With no fix for a second or more: the events of a lost signal, and progress carried
    /// forward at the last speed (dead reckoning, as long as the matcher allows).
    func tick(at time: Double) -> (events: [RouteMatcher.Event], progress: RouteProgress?) {
        state.withLock { state in
            guard var matcher = state.matcher, let last = state.lastFixTime, time - last >= 1 else {
                return ([], nil)
            }
            let events = matcher.noFix(at: time)
            state.matcher = matcher
            state.lastTick = time.rounded(.down)
            return (events, matcher.state == .onRoute ? matcher.progress(at: time) : nil)
        }
    }
}
