/// The largest values a route may hold: past anything a road has, so a value beyond them is a
/// mistake in the data (or an attack), reported where it is instead of driven for days.
public struct RouteLimits: Sendable, Equatable {
    /// The longest distance a route, leg, step or prompt position may have, in meters: the
    /// Earth's circumference (40,075 km). The longest road routes are under 20,000 km.
    public var maximumDistance = 40_075_000.0
    /// The longest duration a route, leg or step may have, in seconds: 30 days (a ferry's wait
    /// included, a drive across a continent takes under two weeks).
    public var maximumDuration = 30 * 86_400.0
    /// The fastest a step may be driven on average (its distance over its duration), in m/s:
    /// 300 m/s, 1,080 km/h, faster than anything on a road. Steps without a duration are not
    /// checked.
    public var maximumSpeed = 300.0
    /// The highest roundabout exit number: 1,000.
    public var maximumExit = 1_000
    /// The highest posted speed limit (`annotation.maxspeed`), in km/h: 250 km/h (no road posts
    /// more than 160 km/h; a road without a limit says `{"none": true}`).
    public var maximumSpeedLimit = 250.0

    /// The largest route file read, in bytes: 16 MiB, 15 times the 44-hour, 4,532 km route of
    /// the test corpus (1.1 MB). Decoding takes about 7 times the file's size in memory, so the
    /// limit keeps a route under the 200 MB any input may take; at most one byte more is read.
    public var maximumFileBytes = 16 << 20

    /// The slowest a simulated or estimated drive goes, in m/s: slower speeds are raised to this.
    public static let minimumSpeed = 0.1

    public init() {}
}
