import Foundation

/// Checks one route's numbers against `RouteLimits`, throwing a `RouteDecodingError` at the
/// path of the first that is not finite, negative, or past a limit.
struct RouteValueCheck {
    var limits: RouteLimits

    /// A length in meters: finite, not negative, at most the longest distance.
    func distance(_ value: Double, _ path: String) throws {
        try finite(value, path)
        try atMost(value, limits.maximumDistance, path, in: Self.kilometers) {
            "\($0) is longer than any road route (the limit is \($1))"
        }
    }

    /// A time in seconds: finite, not negative, at most the longest duration.
    func duration(_ value: Double, _ path: String) throws {
        try finite(value, path)
        try atMost(value, limits.maximumDuration, path, in: Self.days) {
            "\($0) is longer than any drive takes (the limit is \($1))"
        }
    }

    /// A step: its distance, duration, average speed, exit number and prompt positions.
    func step(_ step: RouteStep, _ path: String) throws {
        try distance(step.distance, "\(path).distance")
        try duration(step.duration, "\(path).duration")
        if step.duration > 0, step.distance / step.duration > limits.maximumSpeed {
            let speed = step.distance / step.duration * 3.6
            throw RouteDecodingError(
                path: "\(path).duration",
                message:
                    "\(step.distance) m in \(step.duration) s is \(Self.rounded(speed)) km/h, faster than anything on a road (the limit is \(Self.rounded(limits.maximumSpeed * 3.6)) km/h)"
            )
        }
        for (index, voice) in step.voiceInstructions.enumerated() {
            try distance(
                voice.distanceAlongGeometry, "\(path).voiceInstructions[\(index)].distanceAlongGeometry")
        }
        if let exit = step.maneuver.exit {
            if exit < 0 {
                throw RouteDecodingError(
                    path: "\(path).maneuver.exit", message: "negative exit number \(exit)")
            }
            if exit > limits.maximumExit {
                throw RouteDecodingError(
                    path: "\(path).maneuver.exit",
                    message: "exit \(exit) is past any roundabout's (the limit is \(limits.maximumExit))")
            }
        }
        for (name, bearing) in [
            ("bearing_after", step.maneuver.bearingAfter), ("bearing_before", step.maneuver.bearingBefore),
        ] {
            if let bearing, !(0...360).contains(bearing) {
                throw RouteDecodingError(
                    path: "\(path).maneuver.\(name)",
                    message: "\(bearing) is not a bearing from 0 to 360 degrees")
            }
        }
    }

    /// A leg's `annotation.maxspeed`: each posted limit above 0 and at most the highest limit.
    func speedLimits(_ limits: [SpeedLimit], _ path: String) throws {
        for (index, limit) in limits.enumerated() {
            guard case .posted(let speed, let unit) = limit else { continue }
            let field = "\(path)[\(index)].speed"
            try finite(speed, field)
            if speed == 0 {
                throw RouteDecodingError(path: field, message: "a speed limit of 0 \(unit.rawValue)")
            }
            if let kmh = limit.kilometersPerHour, kmh > self.limits.maximumSpeedLimit {
                throw RouteDecodingError(
                    path: field,
                    message:
                        "\(Self.rounded(speed)) \(unit.rawValue) is above any posted limit (the limit is \(Self.rounded(self.limits.maximumSpeedLimit)) km/h)"
                )
            }
        }
    }

    /// The steps' distances added up over a whole route.
    func total(_ value: Double, _ path: String) throws {
        try atMost(value, limits.maximumDistance, path, in: Self.kilometers) {
            "the steps add up to \($0), longer than any road route (the limit is \($1))"
        }
    }

    /// How long a drive at the route's own speeds takes (steps slower than the simulator's
    /// slowest are driven at it): at most the longest duration.
    func driveTime(_ seconds: Double, _ path: String) throws {
        try atMost(seconds, limits.maximumDuration, path, in: Self.days) {
            "driven at its own speeds the route takes \($0), longer than any drive (the limit is \($1))"
        }
    }

    /// Throws at `path` unless `value` is at most `limit` (a NaN is not); `message` says why from
    /// both, written by `unit`.
    private func atMost(
        _ value: Double, _ limit: Double, _ path: String, in unit: (Double) -> String,
        _ message: (String, String) -> String
    ) throws {
        if !(value <= limit) {
            throw RouteDecodingError(path: path, message: message(unit(value), unit(limit)))
        }
    }

    private func finite(_ value: Double, _ path: String) throws {
        if value.isNaN || value.isInfinite {
            throw RouteDecodingError(path: path, message: "not a finite number")
        }
        if value < 0 {
            throw RouteDecodingError(path: path, message: "negative value \(value)")
        }
    }

    private static func kilometers(_ meters: Double) -> String { "\(rounded(meters / 1000)) km" }
    static func days(_ seconds: Double) -> String { "\(rounded(seconds / 86_400)) days" }

    /// A number for a message: whole when large, else up to three significant decimals.
    private static func rounded(_ value: Double) -> String {
        if value >= 1e15 { return String(format: "%.3g", value) }
        if value >= 100 { return String(Int(value.rounded())) }
        return String(format: "%.3g", value)
    }
}
