import Foundation

/// Reads gpsd's JSON reports, one per line: TPV reports become positions, the rest is ignored.
///
/// A TPV with `mode` below 2 has no fix. A line that is not a JSON object, or a TPV without a
/// time or position, is skipped and counted in `statistics`, never fatal.
public struct GPSDReader: Sendable {
    /// The longest report line accepted, in bytes (a SKY report with many satellites is a few KiB).
    public static let maximumLineLength = 65_536

    /// What was read and skipped so far.
    public private(set) var statistics = TraceStatistics()

    public init() {}

    /// Reads one report line; returns its position, if it is a TPV with a fix.
    public mutating func read(line: Substring) -> Position? {
        let text = line.trimmingSpaces
        guard !text.isEmpty else { return nil }
        guard text.utf8.count <= Self.maximumLineLength else {
            statistics.overlong += 1
            return nil
        }
        guard text.first == "{", let report = try? JSONDecoder().decode(Report.self, from: Data(text.utf8))
        else {
            statistics.malformed += 1
            return nil
        }
        guard report.class == "TPV" else {
            statistics.ignored += 1
            return nil
        }
        guard let mode = report.mode else {
            statistics.malformed += 1
            return nil
        }
        if mode < 2 {
            statistics.noFix += 1
            return nil
        }
        return statistics.fix(
            latitude: report.lat, longitude: report.lon,
            time: report.time.flatMap { Timestamp.parseISO8601(Substring($0)) }, speed: report.speed,
            course: report.track, horizontalAccuracy: report.horizontalAccuracy)
    }

    /// Reads every line of a whole log.
    public mutating func read(text: String) -> [Position] {
        text.split(whereSeparator: \.isNewline).compactMap { read(line: $0) }
    }

    /// The fields of a gpsd report that matter here.
    private struct Report: Decodable {
        var `class`: String
        var mode: Int?
        var time: String?
        var lat: Double?
        var lon: Double?
        var speed: Double?
        var track: Double?
        var eph: Double?
        var epx: Double?
        var epy: Double?

        /// `eph`, else the larger of gpsd's longitude and latitude error estimates.
        var horizontalAccuracy: Double? {
            if let eph { return eph }
            switch (epx, epy) {
            case (let x?, let y?): return max(x, y)
            case (let x?, nil): return x
            default: return epy
            }
        }
    }
}
