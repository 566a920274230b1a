import Foundation

/// The part of a route between two consecutive waypoints.
public struct RouteLeg: Sendable, Equatable, Codable {
    /// Steps in driving order; the first departs, the last arrives.
    public var steps: [RouteStep]
    /// Length in meters.
    public var distance: Double
    /// Expected travel time in seconds.
    public var duration: Double
    /// The server's short summary of the roads taken, if any.
    public var summary: String?
    /// The posted speed limit of each segment of the leg's geometry (`annotation.maxspeed`), if
    /// the server sent them.
    public var maxSpeeds: [SpeedLimit]?

    public init(
        steps: [RouteStep], distance: Double? = nil, duration: Double? = nil, summary: String? = nil,
        maxSpeeds: [SpeedLimit]? = nil
    ) {
        self.steps = steps
        self.distance = distance ?? steps.reduce(0) { $0 + $1.distance }
        self.duration = duration ?? steps.reduce(0) { $0 + $1.duration }
        self.summary = summary
        self.maxSpeeds = maxSpeeds
    }

    enum CodingKeys: String, CodingKey {
        case steps, distance, duration, summary, annotation
    }

    /// The part of `annotation` read here (the other annotations are ignored).
    private enum AnnotationKeys: String, CodingKey {
        case maxspeed
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        steps = try container.decode([RouteStep].self, forKey: .steps)
        distance = try container.decode(Double.self, forKey: .distance)
        duration = try container.decode(Double.self, forKey: .duration)
        summary = try container.decodeIfPresent(String.self, forKey: .summary)
        if container.contains(.annotation), try !container.decodeNil(forKey: .annotation) {
            let annotation = try container.nestedContainer(keyedBy: AnnotationKeys.self, forKey: .annotation)
            maxSpeeds = try annotation.decodeIfPresent([SpeedLimit].self, forKey: .maxspeed)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(steps, forKey: .steps)
        try container.encode(distance, forKey: .distance)
        try container.encode(duration, forKey: .duration)
        try container.encodeIfPresent(summary, forKey: .summary)
        if let maxSpeeds {
            var annotation = container.nestedContainer(keyedBy: AnnotationKeys.self, forKey: .annotation)
            try annotation.encode(maxSpeeds, forKey: .maxspeed)
        }
    }

    /// The leg's road as one line: its steps' geometries joined, each point once (the points
    /// `annotation` counts its segments between); nil when a step with a length has no geometry.
    public var geometryPoints: [Coordinate]? {
        var points: [Coordinate] = []
        for step in steps {
            guard let line = step.geometry?.coordinates else {
                if step.distance > 0 { return nil }
                continue
            }
            for point in line where points.last != point { points.append(point) }
        }
        return points
    }
}
