/// Keeps the fixes a matcher can use: finite, on the Earth, not at (0, 0), later than the last
/// one, and not an impossible jump from it.
///
/// A jump is impossible when reaching it would take more than `maximumSpeed`; the fix is
/// dropped, unless `jumpConfirmations` fixes in a row agree with each other at a possible speed,
/// in which case the receiver really is there (after a long outage, say) and the filter follows.
public struct FixFilter: Sendable {
    /// Why a fix was dropped.
    public enum Rejection: String, Sendable, Equatable, CaseIterable {
        /// A latitude or longitude that is not a finite number in range.
        case invalidCoordinate = "invalid_coordinate"
        /// Exactly (0, 0): what many receivers report before their first fix.
        case nullIsland = "null_island"
        /// A time that is not a finite number, or not after the last fix's.
        case timeNotIncreasing = "time_not_increasing"
        /// Farther from the last fix than any car could drive in the time between.
        case impossibleJump = "impossible_jump"
    }

    /// The numbers of the filter.
    public struct Configuration: Sendable, Equatable {
        /// Fastest plausible speed between two fixes, m/s (about 450 km/h).
        public var maximumSpeed = 125.0
        /// Distance always allowed between two fixes, whatever the time (GPS noise), meters.
        public var jumpAllowance = 100.0
        /// Fixes in a row that must agree to accept a jump.
        public var jumpConfirmations = 3

        public init() {}
    }

    public let configuration: Configuration
    /// How many fixes were dropped, by reason.
    public private(set) var rejected: [Rejection: Int] = [:]
    private var last: Position?
    private var candidates: [Position] = []

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The fix, cleaned (a speed, course or accuracy that is not a number is forgotten), or nil.
    public mutating func accept(_ position: Position) -> Position? {
        var fix = position
        if let speed = fix.speed, !(speed.isFinite && speed >= 0 && speed < 1_000) { fix.speed = nil }
        if let course = fix.course, !course.isFinite { fix.course = nil }
        if let accuracy = fix.horizontalAccuracy, !(accuracy.isFinite && accuracy > 0) {
            fix.horizontalAccuracy = nil
        }
        guard fix.coordinate.isValid else { return reject(.invalidCoordinate) }
        guard fix.latitude != 0 || fix.longitude != 0 else { return reject(.nullIsland) }
        guard fix.time.isFinite else { return reject(.timeNotIncreasing) }
        guard let previous = last else {
            last = fix
            return fix
        }
        guard fix.time > previous.time else { return reject(.timeNotIncreasing) }
        if isPossible(from: previous, to: fix) {
            candidates.removeAll()
            last = fix
            return fix
        }
        if let latest = candidates.last, fix.time <= latest.time || !isPossible(from: latest, to: fix) {
            candidates.removeAll()
        }
        candidates.append(fix)
        if candidates.count >= configuration.jumpConfirmations {
            candidates.removeAll()
            last = fix
            return fix
        }
        return reject(.impossibleJump)
    }

    private func isPossible(from a: Position, to b: Position) -> Bool {
        a.coordinate.distance(to: b.coordinate)
            <= configuration.jumpAllowance + configuration.maximumSpeed * (b.time - a.time)
    }

    private mutating func reject(_ reason: Rejection) -> Position? {
        rejected[reason, default: 0] += 1
        return nil
    }
}
