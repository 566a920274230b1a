/// What a position source read: fixes taken, and what it skipped and why.
public struct TraceStatistics: Sendable, Equatable {
    /// Positions produced.
    public var fixes = 0
    /// Reports that said the receiver had no fix (NMEA status `V` or quality 0, gpsd `mode` < 2).
    public var noFix = 0
    /// NMEA sentences whose checksum was missing or wrong.
    public var badChecksum = 0
    /// Sentences, lines, points or reports that could not be read (bad syntax, missing fields).
    public var malformed = 0
    /// Well-formed input of a kind that carries no position (other NMEA sentences, gpsd `SKY`…).
    public var ignored = 0
    /// Track points without a time (GPX), which cannot be placed on the drive's clock.
    public var missingTime = 0
    /// Lines longer than any valid record, dropped without being read.
    public var overlong = 0

    public init() {}

    /// Everything skipped as bad (not counting `ignored` input or no-fix reports).
    public var rejected: Int { badChecksum + malformed + missingTime + overlong }

    /// The position a report or track point gives, counted as a fix; nil, counted as
    /// `malformed`, without a latitude and longitude, and nil, counted as `missingTime`, without
    /// a time. The one place a reader of GPX or gpsd reports assembles a fix.
    mutating func fix(
        latitude: Double?, longitude: Double?, time: Double?, speed: Double?, course: Double?,
        horizontalAccuracy: Double?
    ) -> Position? {
        guard let latitude, let longitude else {
            malformed += 1
            return nil
        }
        guard let time else {
            missingTime += 1
            return nil
        }
        fixes += 1
        return Position(
            latitude: latitude, longitude: longitude, time: time, speed: speed, course: course,
            horizontalAccuracy: horizontalAccuracy)
    }
}
