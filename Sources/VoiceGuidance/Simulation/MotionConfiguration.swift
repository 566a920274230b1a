/// The numbers of a simulated driver and GPS receiver (meters, seconds, m/s, m/s², degrees).
public struct MotionConfiguration: Sendable {
    /// Cruise speed as a share of each step's routed speed: a random factor in this range per step.
    public var cruiseFactor: ClosedRange<Double> = 0.9...1.1
    /// Cruise speed when a step has no routed speed.
    public var defaultCruiseSpeed = 13.9
    /// Highest cruise speed (a long motorway step can carry an optimistic routed speed).
    public var maximumCruiseSpeed = 36.0
    /// Comfortable braking, a random value in this range per maneuver.
    public var braking: ClosedRange<Double> = 1.5...2.5
    /// Acceleration.
    public var acceleration = 1.5
    /// Speed through a turn, by the turn's angle: up to the first angle, at most the second speed…
    public var turnSpeeds: [(angle: Double, speed: Double)] = [
        (20, 40), (45, 13.9), (100, 6.4), (150, 4.5), (180, 3.0),
    ]
    /// Speed through a roundabout or rotary.
    public var roundaboutSpeed = 6.0
    /// Share of maneuvers (not arrivals) where the car stops first (a red light, a give-way).
    public var stopProbability = 0.25
    /// How long a stop lasts.
    public var stopDuration: ClosedRange<Double> = 5...30
    /// Simulation step.
    public var timeStep = 0.1

    /// GPS error: standard deviation of each coordinate, meters.
    public var gpsNoise = 4.0
    /// How much of the last fix's error carries into the next (errors drift, they do not jump).
    public var noiseCorrelation = 0.7
    /// Chance per fix of an outlier…
    public var outlierProbability = 0.01
    /// …this far off.
    public var outlierDistance: ClosedRange<Double> = 30...80
    /// One signal outage of this length per drive (0 for none)…
    public var outageDuration = 20.0
    /// …starting after at least this long.
    public var outageEarliest = 60.0
    /// Error of the receiver's speed (standard deviation, m/s) and course (degrees).
    public var speedNoise = 0.2
    /// See `speedNoise`.
    public var courseNoise = 3.0
    /// Whether the receiver reports speed and course (otherwise only places and times).
    public var reportsMotion = true
    /// Unix time of the drive's start.
    public var startTime = 1_764_565_200.0

    public init() {}

    /// The speed through a turn of `angle` degrees.
    public func turnSpeed(angle: Double) -> Double {
        for entry in turnSpeeds where angle <= entry.angle { return entry.speed }
        return turnSpeeds.last?.speed ?? 3
    }
}
