import Foundation
import Synchronization
public import VoiceGuidance

/// The daemon's guidance time: the time of the latest fix a client sent, plus the time passed
/// since it arrived (so that `repeat` and `announce` are timed on the same clock as the fixes).
///
/// Before any fix with a time, it is the monotonic clock it is given.
public final class FollowingClock: GuidanceClock {
    private struct Anchor {
        var fixTime: Double
        var arrival: Double
    }

    private let base: any GuidanceClock
    private let anchor = Mutex<Anchor?>(nil)

    public init(base: any GuidanceClock = SystemGuidanceClock()) { self.base = base }

    public var now: Double {
        let current = base.now
        return anchor.withLock { anchor in
            guard let anchor else { return current }
            return anchor.fixTime + max(0, current - anchor.arrival)
        }
    }

    /// The time a fix carries; fixes without one are stamped with `now`. Never goes backwards.
    public func stamp(_ fixTime: Double?) -> Double {
        let current = base.now
        return anchor.withLock { anchor in
            let following = anchor.map { $0.fixTime + max(0, current - $0.arrival) } ?? current
            guard let fixTime else { return following }
            anchor = Anchor(fixTime: fixTime, arrival: current)
            return fixTime
        }
    }

    /// Forgets the client's time (a new route starts a new drive).
    public func reset() { anchor.withLock { $0 = nil } }
}
