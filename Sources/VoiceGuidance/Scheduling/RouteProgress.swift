/// Where the vehicle is on a route, as an app (or the simulator) reports it.
public struct RouteProgress: Sendable, Equatable {
    /// When the fix was taken, in seconds on the scheduler's clock.
    public var time: Double
    /// Index of the leg driven.
    public var legIndex: Int
    /// Index of the step driven (its maneuver is behind; the next step's maneuver is ahead).
    public var stepIndex: Int
    /// Meters left to the end of the step, that is to the next maneuver.
    public var distanceRemaining: Double
    /// Speed over ground in m/s, if known.
    public var speed: Double?
    /// Horizontal accuracy of the fix in meters, if known.
    public var horizontalAccuracy: Double?

    public init(
        time: Double, legIndex: Int, stepIndex: Int, distanceRemaining: Double, speed: Double? = nil,
        horizontalAccuracy: Double? = nil
    ) {
        self.time = time
        self.legIndex = legIndex
        self.stepIndex = stepIndex
        self.distanceRemaining = distanceRemaining
        self.speed = speed
        self.horizontalAccuracy = horizontalAccuracy
    }
}
