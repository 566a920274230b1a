/// How much louder prompts get with speed (road and wind noise), as car audio does for music:
/// a curve of gains in decibels by speed, straight between its points and flat beyond its ends.
///
/// The default is 0 dB up to 50 km/h, rising to +6 dB at 110 km/h and above. The gain is applied
/// with the voice's own gain, through the renderer's limiter, so a louder prompt never clips.
public struct SpeedLoudness: Sendable, Equatable, Codable {
    /// One point of the curve.
    public struct Point: Sendable, Equatable, Codable {
        /// Speed in km/h.
        public var kmh: Double
        /// Gain in decibels at that speed.
        public var gainDB: Double

        public init(kmh: Double, gainDB: Double) {
            self.kmh = kmh
            self.gainDB = gainDB
        }
    }

    /// The points, in increasing speed.
    public var points: [Point]

    /// Gains allowed on a point, in decibels.
    public static let gainRange = -24.0...12.0

    /// A curve through `points` (sorted by speed here).
    public init(points: [Point]) {
        self.points = points.sorted { $0.kmh < $1.kmh }
    }

    /// Reads `{"points": [{"kmh": 50, "gainDB": 0}, …]}`, in any order.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(points: try container.decode([Point].self, forKey: .points))
    }

    /// 0 dB up to 50 km/h, +6 dB from 110 km/h.
    public static let standard = SpeedLoudness(points: [
        Point(kmh: 50, gainDB: 0), Point(kmh: 110, gainDB: 6),
    ])

    /// No change at any speed.
    public static let flat = SpeedLoudness(points: [])

    /// The gain in decibels at `metersPerSecond` (0 for an unusable speed or an empty curve).
    public func gainDB(atSpeed metersPerSecond: Double) -> Double {
        let kmh = metersPerSecond * 3.6
        guard kmh.isFinite, let first = points.first, let last = points.last else { return 0 }
        if kmh <= first.kmh { return first.gainDB }
        if kmh >= last.kmh { return last.gainDB }
        for (low, high) in zip(points, points.dropFirst()) where kmh <= high.kmh {
            guard high.kmh > low.kmh else { return high.gainDB }
            return low.gainDB + (high.gainDB - low.gainDB) * (kmh - low.kmh) / (high.kmh - low.kmh)
        }
        return last.gainDB
    }

    /// What is wrong with the curve, or nil: speeds must be finite and at least 0, gains within
    /// `gainRange`.
    public var problem: String? {
        for point in points {
            guard point.kmh.isFinite, point.kmh >= 0 else { return "speed \(point.kmh) km/h is not a speed" }
            guard Self.gainRange.contains(point.gainDB) else {
                return
                    "gain \(point.gainDB) dB is outside \(Self.gainRange.lowerBound)…\(Self.gainRange.upperBound) dB"
            }
        }
        return nil
    }
}
