import Foundation

/// Turns GPS fixes into progress along a route: the step driven, meters to the next maneuver, and
/// a smoothed speed; detects leaving the route and coming back, a lost signal, reaching an
/// intermediate waypoint, and (on a route with `annotation.maxspeed`) driving over the limit
/// where the car is (`SpeedWatch`).
///
/// Each fix is matched on a stretch of route around where the car should be by now (last place +
/// speed × time), so a road driven twice or a route that doubles back is matched by continuity
/// and course, not to the nearest segment alone. A fix far from that prediction is an outlier and
/// ignored; several in a row say the car is elsewhere. The place is a filter of prediction and
/// fix (heavier on the prediction when standing still), and reported progress never moves back
/// except when the car is found somewhere else. Without a fix the progress is carried forward at
/// the last speed for up to `deadReckoningLimit` seconds.
///
/// - Complexity: O(segments within the searched stretch) per fix, and O(log n) to find it; a
///   search of the whole route (at the start, or to rejoin it) looks only at nearby grid cells.
public struct RouteMatcher: Sendable {
    /// Where the matcher stands.
    public enum State: String, Sendable, Equatable {
        /// No fix matched yet (or none since the car was last found off the route).
        case searching
        /// Following the route.
        case onRoute = "on_route"
        /// Off the route (too far from it, or against its direction).
        case offRoute = "off_route"
    }

    /// Something a driver may be told.
    public enum Event: String, Sendable, Equatable, CaseIterable {
        case offRoute = "off_route"
        case backOnRoute = "back_on_route"
        case signalLost = "gps_lost"
        case signalRecovered = "gps_recovered"
        /// Over the speed limit (see `SpeedWatch`); the update's `speedAlert` says by how much.
        case speedAlert = "speed_alert"
        /// An intermediate waypoint reached (the end of a leg but the last); the update's
        /// `waypoint` says which.
        case waypointReached = "waypoint_reached"
    }

    /// What one fix did.
    public struct Update: Sendable, Equatable {
        /// Progress after the fix; nil while searching or off the route.
        public var progress: RouteProgress?
        /// Events the fix caused.
        public var events: [Event]
        /// True when the fix was ignored as an outlier.
        public var isOutlier: Bool
        /// The speed alert the fix caused (with `Event.speedAlert` in `events`), if any.
        public var speedAlert: SpeedWatch.Alert?
        /// The waypoint the fix reached (with `Event.waypointReached` in `events`), counted from
        /// 1; when one fix reaches several, the last of them.
        public var waypoint: Int?

        public init(
            progress: RouteProgress?, events: [Event], isOutlier: Bool, speedAlert: SpeedWatch.Alert? = nil,
            waypoint: Int? = nil
        ) {
            self.progress = progress
            self.events = events
            self.isOutlier = isOutlier
            self.speedAlert = speedAlert
            self.waypoint = waypoint
        }
    }

    public let configuration: MatchingConfiguration
    /// The route's line.
    public let line: RouteLine
    /// The route's posted speed limits along the line (none without `annotation.maxspeed`).
    public let speedLimits: SpeedLimitLine
    public private(set) var state: State = .searching

    private var place = 0.0
    private var reported = 0.0
    private var speed = 0.0
    private var lastFixTime = -Double.infinity
    private var lastRawFix: Position?
    private var lastAccuracy: Double?
    private var suspects = 0
    private var farFixes = 0
    private var wrongWay = 0
    private var rejoins = 0
    private var signalLost = false
    private var speedWatch: SpeedWatch
    /// Meters along the line of each intermediate waypoint, and the first not yet reached.
    private let waypoints: [Double]
    private var nextWaypoint = 0

    /// A matcher for a route whose geometry is decoded.
    ///
    /// - Throws: `RouteLine.Error` when the route has no geometry.
    public init(route: Route, configuration: MatchingConfiguration = MatchingConfiguration()) throws(RouteLine
        .Error)
    {
        let line = try RouteLine(route: route)
        self.line = line
        self.configuration = configuration
        speedLimits = SpeedLimitLine(route: route, line: line)
        speedWatch = SpeedWatch(configuration: configuration)
        waypoints = line.waypoints
    }

    /// The posted limit where the car is reported, if known.
    public var speedLimit: SpeedLimit? { speedLimits.section(at: reported)?.limit }

    /// Meters along the route's line where the car is reported (never less than before while on route).
    public var distanceAlong: Double { reported }
    /// The smoothed speed in m/s.
    public var smoothedSpeed: Double { speed }

    /// Takes one fix (already through a `FixFilter`; times increasing).
    public mutating func update(_ fix: Position) -> Update {
        let wasOnRoute = state == .onRoute
        var update = match(fix)
        if state == .onRoute, let reached = passWaypoints(announcing: wasOnRoute) {
            update.events.append(.waypointReached)
            update.waypoint = reached
        }
        guard !speedLimits.sections.isEmpty else { return update }
        let limit = state == .onRoute ? speedLimit : nil
        if let alert = speedWatch.update(limit: limit, speed: speed, time: fix.time) {
            update.events.append(.speedAlert)
            update.speedAlert = alert
        }
        return update
    }

    private mutating func match(_ fix: Position) -> Update {
        var events: [Event] = []
        if signalLost {
            signalLost = false
            events.append(.signalRecovered)
        }
        let accuracy = max(fix.horizontalAccuracy ?? configuration.defaultAccuracy, 1)
        let course = fix.course ?? derivedCourse(to: fix)
        let moving = (fix.speed ?? speed) >= configuration.courseMinimumSpeed
        defer {
            lastRawFix = fix
            lastAccuracy = accuracy
        }
        switch state {
        case .searching, .offRoute:
            guard let found = locate(fix, accuracy: accuracy, course: moving ? course : nil) else {
                rejoins = 0
                return Update(progress: nil, events: events, isOutlier: false)
            }
            rejoins += 1
            let needed = state == .searching ? 1 : configuration.backOnRouteConfirmations
            guard rejoins >= needed else { return Update(progress: nil, events: events, isOutlier: false) }
            if state == .offRoute { events.append(.backOnRoute) }
            state = .onRoute
            anchor(at: found, fix: fix)
            return Update(progress: progress(fix.time), events: events, isOutlier: false)
        case .onRoute:
            return track(fix, accuracy: accuracy, course: moving ? course : nil, events: events)
        }
    }

    /// Moves past the waypoints the reported place has reached; returns the last of them when
    /// `announcing` (the car was followed there), else passes them without a word.
    private mutating func passWaypoints(announcing: Bool) -> Int? {
        var reached: Int?
        while nextWaypoint < waypoints.count,
            reported >= waypoints[nextWaypoint] - configuration.waypointArrivalDistance
        {
            nextWaypoint += 1
            if announcing { reached = nextWaypoint }
        }
        return reached
    }

    /// Progress at `time` without a new fix: carried forward at the last speed for up to
    /// `deadReckoningLimit` seconds; nil while not on the route.
    public func progress(at time: Double) -> RouteProgress? {
        guard state == .onRoute else { return nil }
        let elapsed = min(max(time - lastFixTime, 0), configuration.deadReckoningLimit)
        let meters = min(max(reported, place + speed * elapsed), line.length)
        return line.progress(at: meters, time: time, speed: speed, accuracy: lastAccuracy)
    }

    /// Tells the matcher the time when no fix came; reports the signal lost once it has been
    /// missing `signalLostAfter` seconds.
    public mutating func noFix(at time: Double) -> [Event] {
        guard !signalLost, lastFixTime.isFinite, time - lastFixTime >= configuration.signalLostAfter else {
            return []
        }
        signalLost = true
        return [.signalLost]
    }

    // MARK: Tracking

    private mutating func track(_ fix: Position, accuracy: Double, course: Double?, events: [Event]) -> Update
    {
        let elapsed = min(max(fix.time - lastFixTime, 0), 120)
        let predicted = min(place + speed * min(elapsed, configuration.deadReckoningLimit), line.length)
        let spread = configuration.searchBase + 3 * accuracy + 0.5 * max(speed, 10) * elapsed
        guard let best = bestProjection(fix, from: predicted - spread, to: predicted + spread, course: course)
        else {
            return lateralMiss(fix, events: events)
        }
        let offLimit = max(configuration.offRouteDistance, configuration.offRouteAccuracyFactor * accuracy)
        if best.distance > offLimit { return lateralMiss(fix, events: events) }
        farFixes = 0
        if let course,
            Coordinate.angle(between: course, and: line.bearings[best.segment]) > configuration.wrongWayAngle
        {
            wrongWay += 1
            if wrongWay >= configuration.offRouteConfirmations {
                return leave(fix, events: events)
            }
        } else {
            wrongWay = 0
        }
        if elapsed > 2 {
            anchor(at: best, fix: fix)  // after an outage, the car is where it is found
            return Update(progress: progress(fix.time), events: events, isOutlier: false)
        }
        let innovation = best.along - predicted
        let outlierLimit =
            max(configuration.outlierDistance, configuration.outlierAccuracyFactor * accuracy) + 1.5 * elapsed
            * elapsed
        let error = (best.distance * best.distance + innovation * innovation).squareRoot()
        if error > outlierLimit {
            suspects += 1
            if suspects < configuration.outlierConfirmations {
                advance(to: predicted, time: fix.time)
                return Update(progress: progress(fix.time), events: events, isOutlier: true)
            }
            // The car is not where it was predicted: start again from the fix.
            anchor(at: best, fix: fix)
            return Update(progress: progress(fix.time), events: events, isOutlier: false)
        }
        suspects = 0
        filter(measured: best.along, predicted: predicted, elapsed: elapsed, fix: fix)
        return Update(progress: progress(fix.time), events: events, isOutlier: false)
    }

    private mutating func lateralMiss(_ fix: Position, events: [Event]) -> Update {
        farFixes += 1
        if farFixes >= configuration.offRouteConfirmations { return leave(fix, events: events) }
        let elapsed = min(max(fix.time - lastFixTime, 0), configuration.deadReckoningLimit)
        advance(to: min(place + speed * elapsed, line.length), time: fix.time)
        return Update(progress: progress(fix.time), events: events, isOutlier: true)
    }

    private mutating func leave(_ fix: Position, events: [Event]) -> Update {
        state = .offRoute
        farFixes = 0
        wrongWay = 0
        rejoins = 0
        suspects = 0
        lastFixTime = fix.time
        return Update(progress: nil, events: events + [.offRoute], isOutlier: false)
    }

    /// Moves the place to the prediction (no usable fix), keeping the speed.
    private mutating func advance(to predicted: Double, time: Double) {
        place = predicted
        reported = max(reported, place)
        lastFixTime = time
    }

    /// Blends the fix's place with the prediction; updates the speed.
    private mutating func filter(measured: Double, predicted: Double, elapsed: Double, fix: Position) {
        let receiverSpeed = fix.speed
        let standing = (receiverSpeed ?? speed) < configuration.standingSpeed
        let gain = standing ? configuration.standingPositionGain : configuration.positionGain
        let innovation = measured - predicted
        place = min(max(predicted + gain * innovation, 0), line.length)
        if let receiverSpeed {
            speed += configuration.receiverSpeedGain * (receiverSpeed - speed)
        } else if elapsed > 0 {
            speed = max(0, speed + configuration.derivedSpeedGain * innovation / elapsed)
        }
        reported = max(reported, place)
        lastFixTime = fix.time
    }

    /// Starts again from a fix's place; progress moves back only when clearly behind (more than
    /// a fix's error), never for noise.
    private mutating func anchor(at projection: RouteLine.Projection, fix: Position) {
        let accuracy = fix.horizontalAccuracy ?? configuration.defaultAccuracy
        let noise = max(configuration.outlierDistance, configuration.outlierAccuracyFactor * accuracy)
        place = projection.along
        let isNoise = state == .onRoute && projection.along < reported && reported - projection.along < noise
        reported = isNoise ? reported : projection.along
        if let receiverSpeed = fix.speed {
            speed = receiverSpeed
        } else if let last = lastRawFix, fix.time > last.time {
            speed = min(last.coordinate.distance(to: fix.coordinate) / (fix.time - last.time), 70)
        }
        lastFixTime = fix.time
        suspects = 0
        farFixes = 0
        wrongWay = 0
    }

    private func progress(_ time: Double) -> RouteProgress {
        line.progress(at: reported, time: time, speed: speed, accuracy: lastAccuracy)
    }

    // MARK: Search

    /// The best projection on the stretch `from`…`to` meters: near the fix, near the middle of
    /// the stretch, and going the fix's way.
    private func bestProjection(_ fix: Position, from: Double, to: Double, course: Double?) -> RouteLine
        .Projection?
    {
        let middle = (from + to) / 2
        let halfWidth = max((to - from) / 2, 1)
        let cosLatitude = cos(fix.latitude * .pi / 180)
        var best: RouteLine.Projection?
        var bestCost = Double.infinity
        var index = line.segment(at: max(from, 0))
        while index < line.along.count - 1, line.along[index] <= to {
            let projection = line.project(fix.coordinate, onto: index, cosLatitude: cosLatitude)
            if projection.along >= from - 1 {
                let offset = (projection.along - middle) / halfWidth
                var cost = projection.distance + 10 * offset * offset
                if let course, Coordinate.angle(between: course, and: line.bearings[index]) > 90 {
                    cost += 40
                }
                if cost < bestCost {
                    bestCost = cost
                    best = projection
                }
            }
            index += 1
        }
        return best
    }

    /// Finds the route near a fix anywhere (start, or rejoining): close, going the fix's way,
    /// preferring the part ahead of where the car last was.
    private func locate(_ fix: Position, accuracy: Double, course: Double?) -> RouteLine.Projection? {
        let limit = max(configuration.backOnRouteDistance, 2 * accuracy)
        let cosLatitude = cos(fix.latitude * .pi / 180)
        var best: RouteLine.Projection?
        var bestCost = Double.infinity
        let last = state == .offRoute ? reported : nil
        line.forEachSegment(near: fix.coordinate, radius: limit) { index in
            let projection = line.project(fix.coordinate, onto: index, cosLatitude: cosLatitude)
            guard projection.distance <= limit else { return }
            if let course, Coordinate.angle(between: course, and: line.bearings[index]) > 90 { return }
            var cost = projection.distance
            if let last {
                if projection.along < last - configuration.rejoinBehindAllowance { cost += 1_000 }
                cost += abs(projection.along - last) * 1e-4
            } else {
                cost += projection.along * 1e-6  // the earliest pass of a road driven twice
            }
            if cost < bestCost {
                bestCost = cost
                best = projection
            }
        }
        return best
    }

    /// The course from the last fix to this one, when the car moved far enough to tell.
    private func derivedCourse(to fix: Position) -> Double? {
        guard let last = lastRawFix,
            last.coordinate.distance(to: fix.coordinate) >= configuration.derivedCourseDistance
        else { return nil }
        return last.coordinate.bearing(to: fix.coordinate)
    }
}
