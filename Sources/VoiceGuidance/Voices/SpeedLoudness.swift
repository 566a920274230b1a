/// How much louder prompts get with speed (road and wind noise), as car audio does for music:
/// a curve of gains in decibels by speed, straight between its points and flat beyond its ends.
///
/// The default is 0 dB up to 50 km/h, rising to +6 dB at 110 km/h and above. A voice at its
/// loudness target already has its peaks at the ceiling, so a plain gain would be taken back by
/// the limiter; the gain is made as car audio makes it, by `compression`: at speed the voice is
/// compressed (the ratio grows with the gain), so quieter syllables come up to the loud ones,
/// then raised by make-up gain, with a limiter keeping every peak under the ceiling.
public struct SpeedLoudness: Sendable, Equatable, Codable {
    /// How the speed gain is made: a compressor whose strength grows with the gain.
    public struct Compression: Sendable, Equatable, Codable {
        /// RMS level above which the voice is compressed, in dBFS.
        public var thresholdDB: Double
        /// The ratio is 1 + gain × this (3:1 at +6 dB with the default 1/3).
        public var ratioPerDB: Double
        /// Make-up gain per dB of speed gain: what the compression takes from the loud syllables
        /// and the gain itself (2.55: +15.3 dB of make-up at +6 dB, 3:1 above −20 dBFS).
        public var makeupPerDB: Double
        /// Width of the soft knee, in dB.
        public var kneeWidthDB: Double
        /// Time for the level detector to follow a rise, in seconds.
        public var attack: Double
        /// Time for it to follow a fall, in seconds.
        public var release: Double
        /// The highest output peak, in dBFS (the renderer's limiter ceiling).
        public var ceilingDB: Double
        /// How long the final limiter takes to recover, in seconds.
        public var limiterRelease: Double

        public init(
            thresholdDB: Double = -20, ratioPerDB: Double = 1.0 / 3, makeupPerDB: Double = 2.55,
            kneeWidthDB: Double = 6, attack: Double = 0.01, release: Double = 0.1, ceilingDB: Double = -0.3,
            limiterRelease: Double = 0.02
        ) {
            self.thresholdDB = thresholdDB
            self.ratioPerDB = ratioPerDB
            self.makeupPerDB = makeupPerDB
            self.kneeWidthDB = kneeWidthDB
            self.attack = attack
            self.release = release
            self.ceilingDB = ceilingDB
            self.limiterRelease = limiterRelease
        }

        /// Measured over corpus prompts at −16 LUFS: +6 dB of speed gain made this way reads
        /// +5.8…+6.5 LU louder per profile and +4 dB reads +4.2…+4.7 LU (a plain +6 dB into the
        /// limiter: +2.7…+3.2 LU).
        public static let standard = Compression()
    }

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
    /// How a gain above 0 dB is made without clipping (`compression` in the JSON; absent: the
    /// standard values).
    public var compression: Compression

    /// Gains allowed on a point, in decibels.
    public static let gainRange = -24.0...12.0

    /// A curve through `points` (sorted by speed here).
    public init(points: [Point], compression: Compression = .standard) {
        self.points = points.sorted { $0.kmh < $1.kmh }
        self.compression = compression
    }

    /// Reads `{"points": [{"kmh": 50, "gainDB": 0}, …]}`, in any order, and an optional
    /// `compression` object (every field of `Compression`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            points: try container.decode([Point].self, forKey: .points),
            compression: try container.decodeIfPresent(Compression.self, forKey: .compression) ?? .standard)
    }

    /// The compressor that makes `gainDB` of speed gain (nil for 0 dB: the voice unchanged). A cut
    /// is a plain make-up below 0 dB, with no compression.
    public func compressor(forGainDB gainDB: Double) -> DynamicRangeCompressor? {
        guard gainDB.isFinite, gainDB != 0 else { return nil }
        let settings = compression
        let ratio = 1 + max(0, gainDB) * max(0, settings.ratioPerDB)
        var compressor = DynamicRangeCompressor(
            thresholdDB: settings.thresholdDB, ratio: ratio, kneeWidthDB: settings.kneeWidthDB,
            attack: settings.attack, release: settings.release, makeupGainDB: gainDB,
            ceilingDB: settings.ceilingDB, limiterLookahead: 0.002, limiterRelease: settings.limiterRelease)
        compressor.makeupGainDB = gainDB > 0 ? gainDB * settings.makeupPerDB : gainDB
        return compressor
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
        let settings = compression
        let times = [settings.attack, settings.release, settings.limiterRelease]
        guard settings.thresholdDB.isFinite, settings.thresholdDB <= 0, settings.makeupPerDB.isFinite,
            (1...10).contains(settings.makeupPerDB),
            settings.kneeWidthDB.isFinite, settings.kneeWidthDB >= 0,
            times.allSatisfy({ $0.isFinite && $0 > 0 && $0 <= 10 })
        else { return "compression: levels must be finite dBFS and times between 0 and 10 s" }
        guard settings.ratioPerDB.isFinite, (0...10).contains(settings.ratioPerDB) else {
            return "compression: ratioPerDB \(settings.ratioPerDB) is outside 0…10"
        }
        guard settings.ceilingDB.isFinite, (-24...0).contains(settings.ceilingDB) else {
            return "compression: ceilingDB \(settings.ceilingDB) is outside −24…0 dBFS"
        }
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
