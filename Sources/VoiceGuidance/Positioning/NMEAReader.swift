/// Reads NMEA 0183 sentences (RMC, GGA, VTG from any talker) into positions, one epoch at a time.
///
/// Sentences of one epoch (same time of day) are merged: RMC gives the date, speed and course,
/// GGA the fix quality and HDOP, VTG the speed and course (it has no time, so it joins the epoch
/// it is sent with). An epoch is complete once it holds every kind of sentence the previous epoch
/// held, or when a sentence of a later time arrives. A sentence with a missing or wrong checksum,
/// bad syntax or out-of-range fields is skipped and counted in `statistics`, never fatal.
public struct NMEAReader: Sendable {
    /// The numbers of the reader.
    public struct Configuration: Sendable, Equatable {
        /// Horizontal accuracy per unit of HDOP, in meters (a consumer receiver's range error).
        public var metersPerHDOP = 4.0
        /// Longest sentence accepted, in bytes (the standard says 82; some receivers send more).
        public var maximumSentenceLength = 200

        public init() {}
    }

    /// What was read and skipped so far.
    public private(set) var statistics = TraceStatistics()
    /// The reader's numbers.
    public let configuration: Configuration

    private var open: Epoch?
    private var pendingVTG: Motion?
    private var previousKinds: Set<Kind> = []
    private var date: Double?
    private var dayOffset = 0.0
    private var lastTimeOfDay: Double?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Reads one line (a sentence, with or without its line ending); returns the positions it completes.
    public mutating func read(line: Substring) -> [Position] {
        let text = line.trimmingSpaces
        guard !text.isEmpty else { return [] }
        guard text.utf8.count <= configuration.maximumSentenceLength else {
            statistics.overlong += 1
            return []
        }
        guard let body = checkedBody(text) else { return [] }
        let fields = body.split(separator: ",", omittingEmptySubsequences: false)
        guard let address = fields.first, address.utf8.count == 5 else {
            statistics.malformed += 1
            return []
        }
        switch address.suffix(3) {
        case "RMC": return readRMC(fields)
        case "GGA": return readGGA(fields)
        case "VTG": return readVTG(fields)
        default:
            statistics.ignored += 1
            return []
        }
    }

    /// Reads every line of a whole text.
    public mutating func read(text: String) -> [Position] {
        var positions: [Position] = []
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            positions += read(line: line)
        }
        return positions + finish()
    }

    /// Ends the stream: the last epoch, if it holds a position.
    public mutating func finish() -> [Position] {
        defer { open = nil }
        return close()
    }

    // MARK: Sentences

    /// The text between `$` and `*` when the checksum matches; counts what is wrong otherwise.
    private mutating func checkedBody(_ text: Substring) -> Substring? {
        guard text.first == "$", let star = text.lastIndex(of: "*") else {
            if text.first == "$" { statistics.badChecksum += 1 } else { statistics.malformed += 1 }
            return nil
        }
        let body = text[text.index(after: text.startIndex)..<star]
        let digits = text[text.index(after: star)...]
        guard digits.utf8.count == 2, let expected = UInt8(digits, radix: 16) else {
            statistics.badChecksum += 1
            return nil
        }
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        guard sum == expected else {
            statistics.badChecksum += 1
            return nil
        }
        return body
    }

    private mutating func readRMC(_ fields: [Substring]) -> [Position] {
        guard fields.count >= 10, let timeOfDay = Self.timeOfDay(fields[1]) else {
            statistics.malformed += 1
            return []
        }
        if fields[2] != "A" {
            statistics.noFix += 1
            return []
        }
        guard let coordinate = Self.coordinate(fields[3], fields[4], fields[5], fields[6]),
            let day = Self.date(fields[9])
        else {
            statistics.malformed += 1
            return []
        }
        var motion = Motion()
        motion.speed = Self.number(fields[7]).map { $0 * Self.metersPerSecondPerKnot }
        motion.course = Self.number(fields[8])
        return add(.rmc, timeOfDay: timeOfDay, date: day, coordinate: coordinate, motion: motion, hdop: nil)
    }

    private mutating func readGGA(_ fields: [Substring]) -> [Position] {
        guard fields.count >= 9, let timeOfDay = Self.timeOfDay(fields[1]),
            let quality = Int(fields[6])
        else {
            statistics.malformed += 1
            return []
        }
        if quality == 0 {
            statistics.noFix += 1
            return []
        }
        guard let coordinate = Self.coordinate(fields[2], fields[3], fields[4], fields[5]) else {
            statistics.malformed += 1
            return []
        }
        return add(
            .gga, timeOfDay: timeOfDay, date: nil, coordinate: coordinate, motion: Motion(),
            hdop: Self.number(fields[8]))
    }

    private mutating func readVTG(_ fields: [Substring]) -> [Position] {
        guard fields.count >= 8 else {
            statistics.malformed += 1
            return []
        }
        var motion = Motion()
        motion.course = Self.number(fields[1])
        motion.speed =
            Self.number(fields[7]).map { $0 / 3.6 }
            ?? Self.number(fields[5]).map {
                $0 * Self.metersPerSecondPerKnot
            }
        if fields.count > 9, fields[9] == "N" {
            statistics.noFix += 1
            return []
        }
        if var epoch = open, !epoch.kinds.contains(.vtg) {
            epoch.motion.merge(motion)
            epoch.kinds.insert(.vtg)
            open = epoch
            return completeIfDone()
        }
        pendingVTG = motion
        return []
    }

    // MARK: Epochs

    private enum Kind: Sendable { case rmc, gga, vtg }

    private struct Motion: Sendable {
        var speed: Double?
        var course: Double?
        mutating func merge(_ other: Motion) {
            speed = speed ?? other.speed
            course = course ?? other.course
        }
    }

    private struct Epoch: Sendable {
        var timeOfDay: Double
        var date: Double?
        var coordinate: Coordinate
        var motion: Motion
        var hdop: Double?
        var kinds: Set<Kind>
    }

    private mutating func add(
        _ kind: Kind, timeOfDay: Double, date: Double?, coordinate: Coordinate, motion: Motion, hdop: Double?
    ) -> [Position] {
        var done: [Position] = []
        if let epoch = open, epoch.timeOfDay != timeOfDay || epoch.kinds.contains(kind) {
            done = close()
        }
        if var epoch = open {
            epoch.date = epoch.date ?? date
            epoch.motion.merge(motion)
            epoch.hdop = epoch.hdop ?? hdop
            epoch.kinds.insert(kind)
            if kind == .gga { epoch.coordinate = coordinate }
            open = epoch
        } else {
            var kinds: Set<Kind> = [kind]
            var merged = motion
            if let vtg = pendingVTG {
                merged.merge(vtg)
                kinds.insert(.vtg)
                pendingVTG = nil
            }
            open = Epoch(
                timeOfDay: timeOfDay, date: date, coordinate: coordinate, motion: merged, hdop: hdop,
                kinds: kinds)
        }
        return done + completeIfDone()
    }

    private mutating func completeIfDone() -> [Position] {
        guard let epoch = open, !previousKinds.isEmpty, epoch.kinds.isSuperset(of: previousKinds) else {
            return []
        }
        return close()
    }

    /// Turns the open epoch into a position.
    private mutating func close() -> [Position] {
        guard let epoch = open else { return [] }
        open = nil
        previousKinds = epoch.kinds
        if let day = epoch.date {
            date = day
            dayOffset = 0
        } else if let last = lastTimeOfDay, epoch.timeOfDay < last - 43_200 {
            dayOffset += 86_400  // midnight passed without a date
        }
        lastTimeOfDay = epoch.timeOfDay
        let time = (date ?? 0) + dayOffset + epoch.timeOfDay
        statistics.fixes += 1
        return [
            Position(
                coordinate: epoch.coordinate, time: time, speed: epoch.motion.speed,
                course: epoch.motion.course,
                horizontalAccuracy: epoch.hdop.map { $0 * configuration.metersPerHDOP })
        ]
    }

    // MARK: Fields

    static let metersPerSecondPerKnot = 1_852.0 / 3_600

    /// A plain decimal number (digits, one point, a sign), finite; nil when empty or anything else.
    static func number(_ field: Substring) -> Double? {
        guard !field.isEmpty, field.utf8.count <= 20,
            field.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B }),
            let value = Double(field), value.isFinite
        else { return nil }
        return value
    }

    /// `hhmmss[.sss]` as seconds of the day.
    static func timeOfDay(_ field: Substring) -> Double? {
        guard field.utf8.count >= 6, let value = number(field), value >= 0 else { return nil }
        let hours = (value / 10_000).rounded(.down)
        let minutes = ((value - hours * 10_000) / 100).rounded(.down)
        let seconds = value - hours * 10_000 - minutes * 100
        guard hours < 24, minutes < 60, seconds < 61 else { return nil }
        return hours * 3_600 + minutes * 60 + seconds
    }

    /// `ddmmyy` as the Unix time of that day's midnight.
    static func date(_ field: Substring) -> Double? {
        guard field.utf8.count == 6, let value = Int(field), value >= 0 else { return nil }
        let yy = value % 100
        return Timestamp.seconds(
            year: yy < 80 ? 2000 + yy : 1900 + yy, month: value / 100 % 100, day: value / 10_000)
    }

    /// `ddmm.mmmm,N,dddmm.mmmm,E` as a coordinate.
    static func coordinate(
        _ latitude: Substring, _ north: Substring, _ longitude: Substring, _ east: Substring
    ) -> Coordinate? {
        guard let lat = angle(latitude, maximum: 90), let lon = angle(longitude, maximum: 180),
            north == "N" || north == "S", east == "E" || east == "W"
        else { return nil }
        return Coordinate(latitude: north == "S" ? -lat : lat, longitude: east == "W" ? -lon : lon)
    }

    private static func angle(_ field: Substring, maximum: Double) -> Double? {
        guard let value = number(field), value >= 0 else { return nil }
        let degrees = (value / 100).rounded(.down)
        let minutes = value - degrees * 100
        guard minutes < 60 else { return nil }
        let result = degrees + minutes / 60
        return result <= maximum ? result : nil
    }
}

extension Substring {
    /// The text without leading and trailing spaces, tabs and line endings.
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return self[first...last]
    }
}
