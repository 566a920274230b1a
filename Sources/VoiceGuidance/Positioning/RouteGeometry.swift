import Foundation

/// The shape of a route or step: a polyline as the server sent it, or its decoded points.
///
/// A Directions v5 `geometry` is an encoded polyline (precision 5 or 6) or a GeoJSON LineString.
/// An encoded one is kept as text until the route knows its precision (`Route.resolveGeometry`),
/// then it holds its points; it is written back as GeoJSON.
public enum RouteGeometry: Sendable, Equatable, Codable {
    /// An encoded polyline whose precision is not known yet.
    case encoded(String)
    /// The points, in driving order.
    case line([Coordinate])

    /// The points, or nil while the geometry is still encoded.
    public var coordinates: [Coordinate]? {
        if case .line(let points) = self { return points }
        return nil
    }

    private enum Keys: String, CodingKey { case type, coordinates }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
            self = .encoded(text)
            return
        }
        let container = try decoder.container(keyedBy: Keys.self)
        let type = try container.decode(String.self, forKey: .type)
        guard type == "LineString" else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "expected a LineString, found \(type)")
        }
        let pairs = try container.decode([[Double]].self, forKey: .coordinates)
        var points: [Coordinate] = []
        points.reserveCapacity(pairs.count)
        for (index, pair) in pairs.enumerated() {
            let point = pair.count >= 2 ? Coordinate(latitude: pair[1], longitude: pair[0]) : nil
            guard let point, point.isValid else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: container.codingPath + [Keys.coordinates, IndexKey(index)],
                        debugDescription: "not a valid [longitude, latitude] pair"))
            }
            points.append(point)
        }
        self = .line(points)
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .encoded(let text):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case .line(let points):
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode("LineString", forKey: .type)
            try container.encode(points.map { [$0.longitude, $0.latitude] }, forKey: .coordinates)
        }
    }

    /// The polyline precision (5 or 6) that `geometries` names (`polyline`, `polyline6`), or nil.
    static func precision(named geometries: String?) -> Int? {
        switch geometries {
        case "polyline": 5
        case "polyline6": 6
        default: nil
        }
    }

    /// The precision whose first point lies nearest `anchor` (the first maneuver's location);
    /// the one that decodes at all when only one does; 5 when nothing tells.
    static func detectPrecision(of text: String, near anchor: Coordinate?) -> Int {
        let five = try? Polyline.decode(text, precision: 5)
        let six = try? Polyline.decode(text, precision: 6)
        switch (five?.first, six?.first) {
        case (nil, .some): return 6
        case (.some(let p5), .some(let p6)):
            guard let anchor else { return 5 }
            return anchor.distance(to: p6) < anchor.distance(to: p5) ? 6 : 5
        default: return 5
        }
    }
}

/// A coding key for an array index (to name `coordinates[3]` in an error).
private struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String
    init(_ index: Int) {
        intValue = index
        stringValue = "\(index)"
    }
    init?(intValue: Int) { self.init(intValue) }
    init?(stringValue: String) { nil }
}
