import Foundation

/// A route's road as one line: its points with the distance along it, the step each part
/// belongs to, and a grid of its segments for finding the nearest part of a large route quickly.
///
/// Built from the steps' geometries when every step that has a length has one, otherwise from
/// the route's overview geometry (each maneuver placed at its projection on the line).
public struct RouteLine: Sendable {
    /// Why a route cannot be matched.
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// One step of the route on the line.
    struct StepSpan: Sendable {
        var legIndex: Int
        var stepIndex: Int
        /// Meters along the line where the step starts and ends.
        var start: Double
        var end: Double
        /// The step's own length in the route (what the scheduler counts in).
        var routeLength: Double
    }

    /// Latitudes and longitudes of the points, in degrees.
    let latitudes: [Double]
    let longitudes: [Double]
    /// Meters along the line to each point.
    let along: [Double]
    /// Bearing of each segment (point i to i + 1), degrees.
    let bearings: [Double]
    /// The steps, in order.
    private(set) var steps: [StepSpan] = []
    /// Total length in meters.
    public var length: Double { along.last ?? 0 }
    /// Segment grid: cell key to the segments crossing it.
    private let grid: [Int64: [Int32]]
    private let cellDegrees: Double

    /// Meters per degree of latitude on the sphere.
    static let metersPerDegree = Coordinate.earthRadius * .pi / 180

    /// Builds the line of a route whose geometry has been decoded.
    ///
    /// - Throws: `RouteLine.Error` when the route has no usable geometry.
    public init(route: Route, cellSize: Double = 250) throws(Error) {
        var points: [Coordinate] = []
        var spans: [StepSpan] = []
        let stepLines = route.legs.flatMap { $0.steps.map { $0.geometry?.coordinates } }
        let allSteps = route.legs.enumerated().flatMap { leg in
            leg.element.steps.indices.map { (leg.offset, $0) }
        }
        let stepsHaveLines = zip(stepLines, route.legs.flatMap(\.steps)).allSatisfy {
            ($0.0?.count ?? 0) >= 2 || $0.1.distance <= 0
        }
        if stepsHaveLines {
            for (index, (legIndex, stepIndex)) in allSteps.enumerated() {
                let line = stepLines[index] ?? []
                if let last = points.last, let first = line.first, last == first {
                    points.append(contentsOf: line.dropFirst())
                } else {
                    points.append(contentsOf: line)
                }
                spans.append(
                    StepSpan(
                        legIndex: legIndex, stepIndex: stepIndex, start: 0, end: Double(points.count - 1),
                        routeLength: route.legs[legIndex].steps[stepIndex].distance))
            }
        } else if let overview = route.geometry?.coordinates, overview.count >= 2 {
            points = overview
        } else {
            throw Error(
                description: "the route has no geometry (neither for each step nor for the whole route)")
        }
        guard points.count >= 2 else {
            throw Error(description: "the route's geometry has fewer than two points")
        }
        latitudes = points.map(\.latitude)
        longitudes = points.map(\.longitude)
        var along = [0.0]
        var bearings: [Double] = []
        along.reserveCapacity(points.count)
        for index in 1..<points.count {
            along.append(along[index - 1] + points[index - 1].distance(to: points[index]))
            bearings.append(points[index - 1].bearing(to: points[index]))
        }
        self.along = along
        self.bearings = bearings
        if stepsHaveLines {
            // `end` held the index of each step's last point: turn indices into meters.
            var start = 0.0
            for index in spans.indices {
                let end = along[min(max(Int(spans[index].end), 0), along.count - 1)]
                spans[index].start = start
                spans[index].end = max(end, start)
                start = spans[index].end
            }
        }
        cellDegrees = cellSize / Self.metersPerDegree
        grid = Self.buildGrid(latitudes: latitudes, longitudes: longitudes, cellDegrees: cellDegrees)
        steps = stepsHaveLines ? spans : placeSteps(of: route)
    }

    /// A maneuver on the line: where it is (every step's start but each leg's depart).
    public struct ManeuverSpan: Sendable, Equatable {
        public var legIndex: Int
        public var stepIndex: Int
        /// Meters along the line.
        public var along: Double
    }

    /// The maneuvers in driving order.
    public var maneuverSpans: [ManeuverSpan] {
        steps.filter { $0.stepIndex > 0 }.map {
            ManeuverSpan(legIndex: $0.legIndex, stepIndex: $0.stepIndex, along: $0.start)
        }
    }

    /// Where each intermediate waypoint is, meters along the line: the start of the arrive step
    /// of every leg but the last, in driving order (waypoint 1 first).
    public var waypoints: [Double] {
        let lastLeg = steps.last?.legIndex ?? 0
        return steps.indices.compactMap { index in
            let span = steps[index]
            let endsLeg = index + 1 == steps.count || steps[index + 1].legIndex != span.legIndex
            return endsLeg && span.legIndex < lastLeg ? span.start : nil
        }
    }

    // MARK: Geometry

    /// Where a point projects onto one segment: meters along the line, and meters away from it.
    struct Projection: Sendable {
        var segment: Int
        var along: Double
        var distance: Double
    }

    /// Projects `point` onto segment `index`, in a plane tangent at the point (meters).
    func project(_ point: Coordinate, onto index: Int, cosLatitude: Double) -> Projection {
        let k = Self.metersPerDegree
        let ax = (longitudes[index] - point.longitude) * cosLatitude * k
        let ay = (latitudes[index] - point.latitude) * k
        let bx = (longitudes[index + 1] - point.longitude) * cosLatitude * k
        let by = (latitudes[index + 1] - point.latitude) * k
        let dx = bx - ax
        let dy = by - ay
        let squared = dx * dx + dy * dy
        var t = squared > 0 ? -(ax * dx + ay * dy) / squared : 0
        t = min(max(t, 0), 1)
        let px = ax + t * dx
        let py = ay + t * dy
        let length = along[index + 1] - along[index]
        return Projection(
            segment: index, along: along[index] + t * length, distance: (px * px + py * py).squareRoot())
    }

    /// The segment that holds the point `meters` along the line.
    func segment(at meters: Double) -> Int {
        var low = 0
        var high = along.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if along[middle] <= meters { low = middle } else { high = middle }
        }
        return min(low, along.count - 2)
    }

    /// The point `meters` along the line.
    public func coordinate(at meters: Double) -> Coordinate {
        let index = segment(at: meters)
        let length = along[index + 1] - along[index]
        let t = length > 0 ? min(max((meters - along[index]) / length, 0), 1) : 0
        return Coordinate(
            latitude: latitudes[index] + t * (latitudes[index + 1] - latitudes[index]),
            longitude: longitudes[index] + t * (longitudes[index + 1] - longitudes[index]))
    }

    /// The road's bearing `meters` along the line, degrees.
    public func bearing(at meters: Double) -> Double { bearings[segment(at: meters)] }

    /// Calls `body` with each segment that may lie within `radius` meters of `point` (each once).
    func forEachSegment(near point: Coordinate, radius: Double, _ body: (Int) -> Void) {
        let span = Int((radius / Self.metersPerDegree / cellDegrees).rounded(.up))
        let cosLatitude = max(cos(point.latitude * .pi / 180), 0.01)
        let lonSpan = min(Int((Double(span) / cosLatitude).rounded(.up)), 64)
        let row = Int((point.latitude / cellDegrees).rounded(.down))
        let column = Int((point.longitude / cellDegrees).rounded(.down))
        var seen = Set<Int32>()
        for r in (row - span)...(row + span) {
            for c in (column - lonSpan)...(column + lonSpan) {
                for index in grid[Self.key(r, c)] ?? [] where seen.insert(index).inserted { body(Int(index)) }
            }
        }
    }

    /// The step span holding `meters` along the line (the last one that starts at or before it).
    func stepIndex(at meters: Double) -> Int {
        var low = 0
        var high = steps.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if steps[middle].start <= meters { low = middle } else { high = middle }
        }
        // A zero-length step (arrive, or a waypoint) is skipped for the one that follows it
        // when the point is exactly at its end.
        while low + 1 < steps.count, steps[low].end <= meters, steps[low].end < length { low += 1 }
        return low
    }

    /// Progress on the route `meters` along the line: the step driven and the route's meters left in it.
    func progress(at meters: Double, time: Double, speed: Double?, accuracy: Double?) -> RouteProgress {
        let index = stepIndex(at: meters)
        let span = steps[index]
        let lineLength = span.end - span.start
        let fraction = lineLength > 0 ? min(max((span.end - meters) / lineLength, 0), 1) : 0
        return RouteProgress(
            time: time, legIndex: span.legIndex, stepIndex: span.stepIndex,
            distanceRemaining: fraction * span.routeLength, speed: speed, horizontalAccuracy: accuracy)
    }

    // MARK: Building

    private static func key(_ row: Int, _ column: Int) -> Int64 {
        Int64(truncatingIfNeeded: row) &* 4_000_037 &+ Int64(truncatingIfNeeded: column)
    }

    private static func buildGrid(latitudes: [Double], longitudes: [Double], cellDegrees: Double) -> [Int64:
        [Int32]]
    {
        var grid: [Int64: [Int32]] = [:]
        for index in 0..<(latitudes.count - 1) {
            let rows =
                Int(
                    (min(latitudes[index], latitudes[index + 1]) / cellDegrees).rounded(.down))...Int(
                    (max(latitudes[index], latitudes[index + 1]) / cellDegrees).rounded(.down))
            let columns =
                Int(
                    (min(longitudes[index], longitudes[index + 1]) / cellDegrees).rounded(.down))...Int(
                    (max(longitudes[index], longitudes[index + 1]) / cellDegrees).rounded(.down))
            // A segment across the antimeridian or longer than the grid can hold goes in its end cells only.
            let cells = rows.count * columns.count
            if cells > 4_096 {
                for end in [index, index + 1] {
                    let r = Int((latitudes[end] / cellDegrees).rounded(.down))
                    let c = Int((longitudes[end] / cellDegrees).rounded(.down))
                    grid[key(r, c), default: []].append(Int32(index))
                }
                continue
            }
            for r in rows {
                for c in columns { grid[key(r, c), default: []].append(Int32(index)) }
            }
        }
        return grid
    }

    /// Places each step on an overview line: its maneuver's projection, searched forward.
    private func placeSteps(of route: Route) -> [StepSpan] {
        var spans: [StepSpan] = []
        var cursor = 0.0
        for (legIndex, leg) in route.legs.enumerated() {
            for (stepIndex, step) in leg.steps.enumerated() {
                var start = cursor
                let location = step.maneuver.location
                if !(legIndex == 0 && stepIndex == 0), location.count >= 2 {
                    let point = Coordinate(latitude: location[1], longitude: location[0])
                    let cosLatitude = cos(point.latitude * .pi / 180)
                    let limit = cursor + 2 * step.distance + 2 * (spans.last?.routeLength ?? 0) + 200
                    var best: Projection?
                    var index = segment(at: cursor)
                    while index < along.count - 1, along[index] <= limit {
                        let projection = project(point, onto: index, cosLatitude: cosLatitude)
                        if projection.along >= cursor, projection.distance < (best?.distance ?? .infinity) {
                            best = projection
                        }
                        index += 1
                    }
                    start = best?.along ?? cursor
                }
                if var previous = spans.popLast() {
                    previous.end = start
                    spans.append(previous)
                }
                spans.append(
                    StepSpan(
                        legIndex: legIndex, stepIndex: stepIndex, start: start, end: length,
                        routeLength: step.distance))
                cursor = start
            }
        }
        return spans
    }
}
