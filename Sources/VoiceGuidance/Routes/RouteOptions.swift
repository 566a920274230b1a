/// The request options a Directions response echoes (`routeOptions`), as far as they matter here.
public struct RouteOptions: Sendable, Equatable, Codable {
    /// The geometry format asked for: `polyline`, `polyline6` or `geojson`.
    public var geometries: String?

    public init(geometries: String? = nil) {
        self.geometries = geometries
    }
}
