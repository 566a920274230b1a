/// A route flattened for the scheduler: every maneuver with its position along the route.
///
/// Built once per route, so that a progress update costs a few comparisons.
struct ManeuverPlan: Sendable {
    /// One maneuver to announce: the start of step `stepIndex` (never a leg's depart step).
    struct Point: Sendable {
        var legIndex: Int
        var stepIndex: Int
        /// Meters from the route's start.
        var position: Double
        /// Where the drive to it starts: the previous maneuver, or the leg's start.
        var previousPosition: Double
        /// True when the previous point is the leg's depart.
        var followsDepart: Bool
    }

    var points: [Point] = []
    /// Meters from the route's start to each step's start, by global step index.
    var stepStart: [Double] = []
    /// Each step's length, by global step index.
    var stepLength: [Double] = []
    /// Each step's routed speed (distance / duration), or 0 when unknown, by global step index.
    var stepSpeed: [Double] = []
    /// Global index of each leg's first step.
    var legOffset: [Int] = []
    /// For each global step, the index of the first maneuver ahead of a vehicle on that step.
    var nextPoint: [Int] = []
    /// Total length in meters.
    var length: Double = 0

    init(route: Route) {
        var position = 0.0
        for (legIndex, leg) in route.legs.enumerated() {
            legOffset.append(stepStart.count)
            let legStart = position
            for (stepIndex, step) in leg.steps.enumerated() {
                if stepIndex > 0 {
                    let previous =
                        points.last.flatMap { $0.legIndex == legIndex ? $0.position : nil } ?? legStart
                    points.append(
                        Point(
                            legIndex: legIndex, stepIndex: stepIndex, position: position,
                            previousPosition: previous, followsDepart: stepIndex == 1))
                }
                stepStart.append(position)
                let length = step.distance.isFinite ? max(0, step.distance) : 0
                stepLength.append(length)
                stepSpeed.append(step.routedSpeed ?? 0)
                nextPoint.append(points.count)
                position += length
            }
        }
        length = position
    }

    /// Global index of a step, or nil when the indices are out of range.
    func globalStep(leg: Int, step: Int) -> Int? {
        guard leg >= 0, leg < legOffset.count, step >= 0 else { return nil }
        let index = legOffset[leg] + step
        let end = leg + 1 < legOffset.count ? legOffset[leg + 1] : stepStart.count
        return index < end ? index : nil
    }
}
