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

    public init(steps: [RouteStep], distance: Double? = nil, duration: Double? = nil, summary: String? = nil)
    {
        self.steps = steps
        self.distance = distance ?? steps.reduce(0) { $0 + $1.distance }
        self.duration = duration ?? steps.reduce(0) { $0 + $1.duration }
        self.summary = summary
    }
}
