/// The numbers of route matching (meters, seconds, m/s, degrees).
public struct MatchingConfiguration: Sendable, Equatable {
    /// Accuracy assumed for a fix that does not say its own.
    public var defaultAccuracy = 5.0
    /// A fix farther than max(this, `offRouteAccuracyFactor` × accuracy) from the road is off it…
    public var offRouteDistance = 50.0
    /// …see `offRouteDistance`.
    public var offRouteAccuracyFactor = 3.0
    /// …and this many such fixes in a row (or against the route's direction) mean off route.
    public var offRouteConfirmations = 3
    /// Back on route: within max(this, 2 × accuracy) of the road, going its way…
    public var backOnRouteDistance = 25.0
    /// …for this many fixes in a row.
    public var backOnRouteConfirmations = 2
    /// A course this far from the road's bearing, at `courseMinimumSpeed` or more, is against it.
    public var wrongWayAngle = 135.0
    /// Below this speed the course of a fix is not trusted.
    public var courseMinimumSpeed = 3.0
    /// A fix farther than max(this, `outlierAccuracyFactor` × accuracy) from where the car should
    /// be is an outlier: ignored, unless `outlierConfirmations` in a row say the car is elsewhere.
    public var outlierDistance = 25.0
    /// See `outlierDistance`.
    public var outlierAccuracyFactor = 2.5
    /// See `outlierDistance`.
    public var outlierConfirmations = 3
    /// Half-width of the stretch of route searched around the predicted place, before speed and
    /// accuracy widen it.
    public var searchBase = 60.0
    /// Weight of a fix's place against the prediction, while moving and while standing still.
    public var positionGain = 0.5
    /// See `positionGain`.
    public var standingPositionGain = 0.1
    /// Below this speed the car is standing still.
    public var standingSpeed = 0.7
    /// How fast a speed from the receiver replaces the estimate (per fix).
    public var receiverSpeedGain = 0.7
    /// How fast a speed from successive places corrects the estimate (per fix).
    public var derivedSpeedGain = 0.25
    /// Progress is carried forward at the last speed for at most this long without a fix.
    public var deadReckoningLimit = 30.0
    /// The signal is lost after this long without a fix.
    public var signalLostAfter = 5.0
    /// A fix that moved at least this far from the last one gives a course when it has none.
    public var derivedCourseDistance = 10.0
    /// A rejoin earlier than this many meters behind the last place costs extra (a loop or a
    /// road driven twice is taken at its later pass only when nothing better fits).
    public var rejoinBehindAllowance = 150.0
    /// Over the speed limit: the smoothed speed above limit + max(this many km/h, …
    public var speedToleranceKmh = 5.0
    /// … this fraction of the limit) …
    public var speedToleranceFraction = 0.10
    /// … on every fix for this many seconds (one noisy fix is no alert).
    public var speedAlertAfter = 3.0
    /// After an alert, the same limit is alerted again only once the car has kept to it (at or
    /// under the limit itself) for this many seconds; a different limit re-arms it at once.
    public var speedRearmAfter = 60.0
    /// An intermediate waypoint is reached when the car, following the route, is this close to
    /// it or past it (one it was not seen to drive to, starting or rejoining beyond it, is passed
    /// without a word).
    public var waypointArrivalDistance = 25.0

    public init() {}
}
