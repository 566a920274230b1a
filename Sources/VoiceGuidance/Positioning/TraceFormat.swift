/// The kinds of recorded position trace, told apart by their content.
public enum TraceFormat: String, Sendable, Equatable, CaseIterable {
    /// NMEA 0183 sentences (`$GPRMC,…`).
    case nmea
    /// A GPX 1.1 document.
    case gpx
    /// gpsd JSON reports, one per line (`{"class":"TPV",…}`).
    case gpsdJSON = "gpsd-json"

    /// The format of a trace, from its first non-blank characters; nil when it is none of them.
    public static func detect(_ text: String) -> TraceFormat? {
        var start = text.utf8.startIndex
        let bytes = text.utf8
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = bytes.index(start, offsetBy: 3) }
        while start < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) {
            start = bytes.index(after: start)
        }
        guard start < bytes.endIndex else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "$"): return .nmea
        case UInt8(ascii: "{"): return .gpsdJSON
        case UInt8(ascii: "<"):
            let head = text.utf8[start...].prefix(4_096)
            return String(decoding: head, as: UTF8.self).contains("<gpx") ? .gpx : nil
        default: return nil
        }
    }
}

/// A recorded trace read whole: its format, positions in order, and what was skipped.
public struct RecordedTrace: Sendable, Equatable {
    public var format: TraceFormat
    public var positions: [Position]
    public var statistics: TraceStatistics

    /// The largest trace file read, in bytes: 32 MiB, about 60 hours of 1 Hz NMEA (RMC and
    /// GGA) or 6 hours at 10 Hz; at most one byte more is read.
    public static let maximumFileBytes = 32 << 20

    /// Why a trace cannot be used at all.
    public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Reads a trace whose format is detected from its content.
    ///
    /// - Throws: `RecordedTrace.Error` when the content is no known format.
    public init(text: String) throws(Error) {
        guard let format = TraceFormat.detect(text) else {
            throw Error(description: "not a trace: expected NMEA 0183, GPX 1.1 or gpsd JSON")
        }
        self.format = format
        switch format {
        case .nmea:
            var reader = NMEAReader()
            positions = reader.read(text: text)
            statistics = reader.statistics
        case .gpx:
            var reader = GPXReader()
            positions = reader.read(text: text)
            statistics = reader.statistics
        case .gpsdJSON:
            var reader = GPSDReader()
            positions = reader.read(text: text)
            statistics = reader.statistics
        }
    }
}
