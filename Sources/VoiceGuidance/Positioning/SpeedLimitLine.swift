/// The posted speed limits along a route's line (`annotation.maxspeed`), as sections of one
/// limit found by the meters along the line where the car is.
///
/// Each leg's entries are laid on the leg's geometry (its steps' lines joined, one entry per
/// segment), from where the leg starts on the line; a route whose steps have no geometry lays
/// them on its overview when the counts agree. Runs of equal limits are one section; a stretch
/// that is unknown or has no limit is no section. A route without `maxspeed` has no sections.
public struct SpeedLimitLine: Sendable, Equatable {
    /// A stretch of road with one posted limit.
    public struct Section: Sendable, Equatable {
        /// Meters along the line where the stretch starts and ends.
        public var start: Double
        public var end: Double
        /// The posted limit (`SpeedLimit.posted`).
        public var limit: SpeedLimit
    }

    /// The sections in driving order.
    public let sections: [Section]

    /// Lays the route's speed limits on its line.
    public init(route: Route, line: RouteLine) {
        var builder = Builder()
        if route.legs.allSatisfy({ $0.maxSpeeds == nil || $0.geometryPoints != nil }) {
            for (legIndex, leg) in route.legs.enumerated() {
                guard let limits = leg.maxSpeeds, let points = leg.geometryPoints,
                    limits.count == points.count - 1,
                    let start = line.steps.first(where: { $0.legIndex == legIndex })?.start
                else { continue }
                builder.lay(limits, on: points, from: start)
            }
        } else if let overview = route.geometry?.coordinates {
            var points: [Coordinate] = []
            for point in overview where points.last != point { points.append(point) }
            let limits = route.legs.flatMap { $0.maxSpeeds ?? [] }
            if limits.count == points.count - 1 { builder.lay(limits, on: points, from: 0) }
        }
        sections = builder.sections
    }

    /// The section holding the point `meters` along the line, if it has a posted limit.
    public func section(at meters: Double) -> Section? {
        var low = 0
        var high = sections.count
        while low < high {
            let middle = (low + high) / 2
            if sections[middle].end <= meters { low = middle + 1 } else { high = middle }
        }
        guard low < sections.count, sections[low].start <= meters else { return nil }
        return sections[low]
    }

    /// Joins the segments' limits into sections.
    private struct Builder {
        var sections: [Section] = []

        mutating func lay(_ limits: [SpeedLimit], on points: [Coordinate], from start: Double) {
            var along = start
            for (index, limit) in limits.enumerated() {
                let length = points[index].distance(to: points[index + 1])
                defer { along += length }
                guard case .posted = limit, length > 0 else { continue }
                if let last = sections.last, last.limit == limit, last.end >= along - 0.01 {
                    sections[sections.count - 1].end = along + length
                } else {
                    sections.append(Section(start: along, end: along + length, limit: limit))
                }
            }
        }
    }
}
