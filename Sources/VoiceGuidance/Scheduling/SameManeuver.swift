import Foundation

extension RouteStep {
    /// True when `other` is this step's maneuver on another route (after a reroute): the same
    /// type and modifier, at a place within `radius` meters (or, without coordinates, on the
    /// same road name).
    func isSameManeuver(as other: RouteStep, within radius: Double) -> Bool {
        guard maneuver.type == other.maneuver.type, maneuver.modifier == other.maneuver.modifier else {
            return false
        }
        let p = maneuver.location
        let q = other.maneuver.location
        if p.count >= 2, q.count >= 2 {
            let metersPerDegree = 111_320.0
            let dx = (p[0] - q[0]) * metersPerDegree * cos(p[1] * .pi / 180)
            let dy = (p[1] - q[1]) * metersPerDegree
            return (dx * dx + dy * dy).squareRoot() <= radius
        }
        return name == other.name
    }
}
