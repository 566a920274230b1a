extension Route {
    /// Decodes every encoded `geometry` of the route and its steps at the route's polyline
    /// precision: `routeOptions.geometries` when present, otherwise the precision whose first
    /// point lies on the first maneuver's location.
    ///
    /// - Parameter path: where this route sits in the document (`routes[0]`, or empty).
    /// - Throws: `RouteDecodingError` naming the first geometry that cannot be decoded.
    public mutating func resolveGeometry(path: String = "") throws {
        func join(_ field: String) -> String { path.isEmpty ? field : "\(path).\(field)" }
        let precision = polylinePrecision
        if let geometry {
            self.geometry = try Self.resolve(geometry, precision: precision, path: join("geometry"))
        }
        for legIndex in legs.indices {
            for stepIndex in legs[legIndex].steps.indices {
                guard let geometry = legs[legIndex].steps[stepIndex].geometry else { continue }
                legs[legIndex].steps[stepIndex].geometry = try Self.resolve(
                    geometry, precision: precision,
                    path: join("legs[\(legIndex)].steps[\(stepIndex)].geometry"))
            }
            try Self.checkAnnotationLength(
                legs[legIndex], path: join("legs[\(legIndex)].annotation.maxspeed"))
        }
    }

    /// `annotation.maxspeed` has one entry per segment of the leg's geometry, when the steps
    /// carry the geometry to count them (a leg with only the route's overview is not checked).
    private static func checkAnnotationLength(_ leg: RouteLeg, path: String) throws {
        guard let limits = leg.maxSpeeds, let points = leg.geometryPoints, points.count >= 2 else { return }
        if limits.count != points.count - 1 {
            throw RouteDecodingError(
                path: path,
                message:
                    "\(limits.count) entries for the \(points.count - 1) segments of the leg's geometry")
        }
    }

    /// The precision of this route's encoded polylines (5 or 6).
    var polylinePrecision: Int {
        if let named = RouteGeometry.precision(named: routeOptions?.geometries) { return named }
        let encoded: String? = {
            if case .encoded(let text) = geometry { return text }
            for leg in legs {
                for step in leg.steps {
                    if case .encoded(let text) = step.geometry { return text }
                }
            }
            return nil
        }()
        guard let encoded else { return 5 }
        let location = legs.first?.steps.first?.maneuver.location ?? []
        let anchor =
            location.count >= 2 ? Coordinate(latitude: location[1], longitude: location[0]) : nil
        return RouteGeometry.detectPrecision(of: encoded, near: anchor)
    }

    private static func resolve(_ geometry: RouteGeometry, precision: Int, path: String) throws
        -> RouteGeometry
    {
        guard case .encoded(let text) = geometry else { return geometry }
        do {
            return .line(try Polyline.decode(text, precision: precision))
        } catch {
            throw RouteDecodingError(path: path, message: error.description)
        }
    }
}
