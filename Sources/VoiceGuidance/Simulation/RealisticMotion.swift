import Foundation

/// A simulated driver on a route: starts from rest, cruises near each step's routed speed, brakes
/// before turns to a speed set by the turn's angle, accelerates after, and stops before some
/// maneuvers. Deterministic for a seed.
///
/// The result is the ground truth of the drive: where the car is and how fast, once a second,
/// and when it passes each maneuver.
public struct RealisticMotion: Sendable {
    /// One maneuver on the way, with what the driver does there.
    public struct ManeuverPass: Sendable, Equatable {
        public var legIndex: Int
        public var stepIndex: Int
        /// Meters along the route's line.
        public var along: Double
        /// Speed the driver takes the maneuver at (after a stop, if it stops; 0 at the arrival).
        public var speed: Double
        /// Whether the car stops before it.
        public var stops: Bool
        /// When the car passes it, seconds from the start.
        public var time: Double
        /// When the car last stood still before passing it (−∞ if never).
        public var lastStop: Double
    }

    /// Meters along the line, once a second from time 0.
    public private(set) var places: [Double] = []
    /// Speed in m/s, once a second.
    public private(set) var speeds: [Double] = []
    /// The maneuvers, in order.
    public private(set) var maneuvers: [ManeuverPass] = []
    /// The route's line.
    public let line: RouteLine

    /// Drives the whole route.
    ///
    /// - Complexity: O(drive time / time step + maneuvers).
    public init(
        route: Route, line: RouteLine, seed: UInt64,
        configuration: MotionConfiguration = MotionConfiguration()
    ) {
        self.line = line
        var random = SplitMix64(seed: seed ^ 0x5EED_CAFE)
        maneuvers = Self.plan(route: route, line: line, configuration: configuration, random: &random)
        let cruise = line.steps.map { span -> Double in
            let step = route.legs[span.legIndex].steps[span.stepIndex]
            let base = step.routedSpeed ?? configuration.defaultCruiseSpeed
            let factor = Double.random(in: configuration.cruiseFactor, using: &random)
            return min(max(base * factor, 3), configuration.maximumCruiseSpeed)
        }
        let decelerations = maneuvers.map { _ in Double.random(in: configuration.braking, using: &random) }
        drive(cruise: cruise, decelerations: decelerations, configuration: configuration, random: &random)
    }

    /// Seconds the drive lasts.
    public var duration: Double { Double(max(places.count - 1, 0)) }

    /// Meters along the line at `time` (interpolated).
    public func place(at time: Double) -> Double { sample(places, at: time) }
    /// Speed at `time` (interpolated).
    public func speed(at time: Double) -> Double { sample(speeds, at: time) }

    private func sample(_ values: [Double], at time: Double) -> Double {
        guard let last = values.last else { return 0 }
        guard time.isFinite, time > 0 else { return values[0] }
        let whole = time.rounded(.down)
        guard whole < Double(values.count - 1) else { return last }
        let index = Int(whole)
        return values[index] + (time - whole) * (values[index + 1] - values[index])
    }

    // MARK: Planning

    private static func plan(
        route: Route, line: RouteLine, configuration: MotionConfiguration, random: inout SplitMix64
    ) -> [ManeuverPass] {
        var passes: [ManeuverPass] = []
        for (index, span) in line.steps.enumerated() where index > 0 {
            let step = route.legs[span.legIndex].steps[span.stepIndex]
            let isArrival = step.maneuver.type == .arrive
            var speed: Double
            if isArrival {
                speed = 0
            } else if [.roundabout, .rotary, .roundaboutTurn].contains(step.maneuver.type) {
                speed = configuration.roundaboutSpeed
            } else {
                speed = configuration.turnSpeed(angle: turnAngle(step.maneuver, line: line, at: span.start))
            }
            let stops = !isArrival && Double.random(in: 0..<1, using: &random) < configuration.stopProbability
            passes.append(
                ManeuverPass(
                    legIndex: span.legIndex, stepIndex: span.stepIndex, along: span.start, speed: speed,
                    stops: stops, time: .infinity, lastStop: -.infinity))
        }
        return passes
    }

    /// The turn's angle in degrees: from the maneuver's bearings, or from the line around it.
    static func turnAngle(_ maneuver: Maneuver, line: RouteLine, at along: Double) -> Double {
        if let before = maneuver.bearingBefore, let after = maneuver.bearingAfter, before != 0 || after != 0 {
            return Coordinate.angle(between: before, and: after)
        }
        let before = line.bearing(at: max(along - 10, 0))
        let after = line.bearing(at: min(along + 10, line.length))
        return Coordinate.angle(between: before, and: after)
    }

    // MARK: Driving

    private mutating func drive(
        cruise: [Double], decelerations: [Double], configuration: MotionConfiguration,
        random: inout SplitMix64
    ) {
        let dt = configuration.timeStep
        var time = 0.0
        var place = 0.0
        var speed = 0.0
        var next = 0  // the next maneuver
        var stoppedUntil = -Double.infinity
        var lastStop = -Double.infinity
        var stopDone = Array(repeating: false, count: maneuvers.count)
        var nextSample = 0.0
        let end = line.length
        while time < 48 * 3_600 {
            if time >= nextSample - 1e-9 {
                places.append(place)
                speeds.append(speed)
                nextSample += 1
            }
            if place >= end - 0.05 { break }
            time += dt
            if time < stoppedUntil { continue }
            // The speed allowed: cruise on this step, and braking in time for what comes.
            var allowed = min(
                cruise[min(line.stepIndex(at: place), cruise.count - 1)],
                (2 * configuration.braking.lowerBound * (end - place)).squareRoot())
            var index = next
            while index < maneuvers.count, maneuvers[index].along - place < 3_000 {
                let pass = maneuvers[index]
                let target = pass.stops && !stopDone[index] ? 0 : pass.speed
                let distance = max(pass.along - place, 0)
                allowed = min(allowed, (target * target + 2 * decelerations[index] * distance).squareRoot())
                index += 1
            }
            let newSpeed = max(min(speed + configuration.acceleration * dt, allowed), 0)
            place = min(place + (speed + newSpeed) / 2 * dt, end)
            speed = newSpeed
            if next < maneuvers.count, maneuvers[next].stops, !stopDone[next], next < maneuvers.count - 1,
                maneuvers[next].along - place < 1, speed < 0.5
            {
                stopDone[next] = true
                speed = 0
                lastStop = time
                stoppedUntil = time + Double.random(in: configuration.stopDuration, using: &random)
                continue
            }
            while next < maneuvers.count, place >= maneuvers[next].along {
                maneuvers[next].time = time
                maneuvers[next].lastStop = lastStop
                next += 1
            }
        }
    }
}
