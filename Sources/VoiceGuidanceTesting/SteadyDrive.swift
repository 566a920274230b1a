public import VoiceGuidance

/// GPS fixes of a car on a route's line, without noise, one a second, at a speed that may depend
/// on where it is: for tests of what happens at a known place and speed (speed limits).
public enum SteadyDrive {
    /// The route with maxspeed annotations the speed-alert tests drive (Tokyo, 1.47 km: no
    /// limit known for 219 m, then 50, 40, 50, 40 and 60 km/h).
    public static let limitedRouteName = "directions-swift_instructionComponentsWithSubType.json"

    /// Fixes from the start of the line to its end, each with the receiver's speed and course;
    /// `speed(meters)` in m/s (at least 0.5), time 0 at the first.
    public static func fixes(on line: RouteLine, speed: (Double) -> Double) -> [Position] {
        var fixes: [Position] = []
        var meters = 0.0
        var time = 0.0
        while meters <= line.length, fixes.count < 100_000 {
            let now = max(speed(meters), 0.5)
            fixes.append(
                Position(
                    coordinate: line.coordinate(at: meters), time: time, speed: now,
                    course: line.bearing(at: meters), horizontalAccuracy: 5))
            meters += now
            time += 1
        }
        return fixes
    }

    /// The same at one speed, m/s.
    public static func fixes(on line: RouteLine, speed: Double) -> [Position] {
        fixes(on: line) { _ in speed }
    }
}
