/// One fix from a GPS receiver: where, when, and what else the receiver knew.
public struct Position: Sendable, Equatable {
    /// Where the receiver was.
    public var coordinate: Coordinate
    /// When, in seconds (Unix time when the source gives a date, otherwise seconds of its day).
    public var time: Double
    /// Speed over ground in m/s, if the receiver gave one.
    public var speed: Double?
    /// Course over ground in degrees (0 north, clockwise), if the receiver gave one.
    public var course: Double?
    /// Horizontal accuracy in meters (about one standard deviation), if known.
    public var horizontalAccuracy: Double?

    public init(
        coordinate: Coordinate, time: Double, speed: Double? = nil, course: Double? = nil,
        horizontalAccuracy: Double? = nil
    ) {
        self.coordinate = coordinate
        self.time = time
        self.speed = speed
        self.course = course
        self.horizontalAccuracy = horizontalAccuracy
    }

    public init(
        latitude: Double, longitude: Double, time: Double, speed: Double? = nil, course: Double? = nil,
        horizontalAccuracy: Double? = nil
    ) {
        self.init(
            coordinate: Coordinate(latitude: latitude, longitude: longitude), time: time, speed: speed,
            course: course, horizontalAccuracy: horizontalAccuracy)
    }

    /// Degrees north.
    public var latitude: Double { coordinate.latitude }
    /// Degrees east.
    public var longitude: Double { coordinate.longitude }
}
