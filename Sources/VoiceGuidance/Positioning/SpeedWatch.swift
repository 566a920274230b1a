/// Decides when the driver is told that the car is over the speed limit.
///
/// The rule, meant to be heard rarely and only when it matters: the smoothed speed must stay
/// above the limit by the tolerance (`MatchingConfiguration.speedToleranceKmh`, or
/// `speedToleranceFraction` of the limit when larger) on every fix for `speedAlertAfter` seconds.
/// Then the alert is said once for that limit. Entering a stretch with a different limit re-arms
/// it (a stretch whose limit is unknown in between changes nothing). On the same limit it is
/// re-armed only after the car has kept to the limit itself (not just the tolerance) for
/// `speedRearmAfter` seconds, so hovering around the limit is never nagged about.
public struct SpeedWatch: Sendable, Equatable {
    /// The car is over the limit.
    public struct Alert: Sendable, Equatable {
        /// The posted limit.
        public var limit: SpeedLimit
        /// The limit in km/h.
        public var limitKmh: Double
        /// The smoothed speed in km/h when the alert was decided.
        public var speedKmh: Double

        public init(limit: SpeedLimit, limitKmh: Double, speedKmh: Double) {
            self.limit = limit
            self.limitKmh = limitKmh
            self.speedKmh = speedKmh
        }
    }

    public let configuration: MatchingConfiguration
    private var limit: SpeedLimit?
    private var armed = true
    private var overSince: Double?
    private var keptSince: Double?

    public init(configuration: MatchingConfiguration = MatchingConfiguration()) {
        self.configuration = configuration
    }

    /// The speed above which a limit is exceeded, km/h.
    public func threshold(for limitKmh: Double) -> Double {
        limitKmh + max(configuration.speedToleranceKmh, configuration.speedToleranceFraction * limitKmh)
    }

    /// Takes the limit where the car is (nil: none known) and its speed (m/s) at a fix's time;
    /// returns the alert to give now, if any.
    public mutating func update(limit here: SpeedLimit?, speed: Double, time: Double) -> Alert? {
        guard let here, let limitKmh = here.kilometersPerHour, speed.isFinite, time.isFinite else {
            overSince = nil
            keptSince = nil
            return nil
        }
        if here != limit {
            limit = here
            armed = true
            overSince = nil
            keptSince = nil
        }
        let speedKmh = speed * 3.6
        if speedKmh > threshold(for: limitKmh) {
            keptSince = nil
            let since = overSince ?? time
            overSince = since
            guard armed, time - since >= configuration.speedAlertAfter else { return nil }
            armed = false
            return Alert(limit: here, limitKmh: limitKmh, speedKmh: speedKmh)
        }
        overSince = nil
        guard speedKmh <= limitKmh else {
            keptSince = nil
            return nil
        }
        let kept = keptSince ?? time
        keptSince = kept
        if !armed, time - kept >= configuration.speedRearmAfter { armed = true }
        return nil
    }
}
