/// Reads the track points of a GPX 1.1 file: position, time, and the speed and course of the
/// Garmin TrackPointExtension when present.
///
/// Points without a time or with a bad `lat`/`lon` are skipped and counted in `statistics`. A
/// file that stops being well-formed XML (truncated, corrupt) keeps the points read before the
/// fault; the fault is counted as one malformed record. No DTD is accepted (no entity expansion).
public struct GPXReader: Sendable {
    /// What was read and skipped so far.
    public private(set) var statistics = TraceStatistics()
    /// The fault that ended reading early, if any (line and column, and what is wrong).
    public private(set) var fault: String?

    public init() {}

    /// Reads a whole GPX document.
    public mutating func read(text: String) -> [Position] {
        var tokenizer = SSMLTokenizer(text)
        var positions: [Position] = []
        var point: PointBuilder?
        var path: [String] = []
        var characters = ""
        while true {
            let token: SSMLToken?
            do {
                token = try tokenizer.next()
            } catch {
                fault = "\(error.location.map { "\($0): " } ?? "")not well-formed XML"
                statistics.malformed += 1
                break
            }
            guard let token else { break }
            switch token {
            case .startTag(let name, let attributes, let isEmpty, _):
                let local = Self.localName(name)
                if local == "trkpt" {
                    point = PointBuilder(attributes: attributes)
                    if isEmpty { finish(&point, into: &positions) }
                } else if !isEmpty {
                    path.append(local)
                }
                characters = ""
            case .endTag(let name, _):
                let local = Self.localName(name)
                if local == "trkpt" {
                    finish(&point, into: &positions)
                } else {
                    point?.set(local, to: characters)
                    if path.last == local { path.removeLast() }
                }
                characters = ""
            case .text(let text, _):
                if point != nil, characters.utf8.count < 256 { characters += text }
            }
        }
        if point != nil { statistics.malformed += 1 }
        return positions
    }

    private mutating func finish(_ point: inout PointBuilder?, into positions: inout [Position]) {
        defer { point = nil }
        guard let built = point,
            let position = statistics.fix(
                latitude: built.latitude, longitude: built.longitude, time: built.time, speed: built.speed,
                course: built.course, horizontalAccuracy: built.accuracy)
        else { return }
        positions.append(position)
    }

    private static func localName(_ name: String) -> String {
        if let colon = name.lastIndex(of: ":") { return String(name[name.index(after: colon)...]) }
        return name
    }

    /// The fields of one `<trkpt>` as they are read.
    private struct PointBuilder {
        var latitude: Double?
        var longitude: Double?
        var time: Double?
        var speed: Double?
        var course: Double?
        var accuracy: Double?

        init(attributes: [SSMLAttribute]) {
            for attribute in attributes {
                switch GPXReader.localName(attribute.name) {
                case "lat": latitude = GPXReader.number(attribute.value)
                case "lon": longitude = GPXReader.number(attribute.value)
                default: break
                }
            }
        }

        mutating func set(_ element: String, to text: String) {
            let value = Substring(text).trimmingSpaces
            switch element {
            case "time": time = Timestamp.parseISO8601(value)
            case "speed": speed = GPXReader.number(String(value))
            case "course": course = GPXReader.number(String(value))
            case "hdop":
                accuracy = GPXReader.number(String(value)).map {
                    $0 * NMEAReader.Configuration().metersPerHDOP
                }
            default: break
            }
        }
    }

    /// A decimal number as GPX writes it (`xsd:decimal`): no `NaN`, no `inf`.
    private static func number(_ text: String) -> Double? {
        let trimmed = Substring(text).trimmingSpaces
        guard !trimmed.isEmpty, trimmed.utf8.count <= 32,
            trimmed.utf8.allSatisfy({
                ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B || $0 == 0x65
                    || $0 == 0x45
            }),
            let value = Double(trimmed), value.isFinite
        else { return nil }
        return value
    }
}
