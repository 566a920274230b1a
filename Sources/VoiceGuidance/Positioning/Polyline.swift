/// The encoded polyline format of Directions APIs (precision 5 or 6 decimal places).
public enum Polyline {
    /// Why an encoded polyline cannot be read.
    public enum DecodingError: Error, Sendable, Equatable, CustomStringConvertible {
        /// A character outside `?`…`~` at this offset.
        case invalidCharacter(offset: Int)
        /// The text ends inside a number.
        case truncated
        /// A latitude without its longitude.
        case oddNumberOfValues
        /// A number longer than any coordinate can be, at this offset.
        case numberTooLong(offset: Int)
        /// A point outside −90…90 / −180…180, by its index.
        case outOfRange(point: Int)

        public var description: String {
            switch self {
            case .invalidCharacter(let offset): "invalid polyline character at offset \(offset)"
            case .truncated: "polyline ends inside a number"
            case .oddNumberOfValues: "polyline has a latitude without its longitude"
            case .numberTooLong(let offset): "polyline number too long at offset \(offset)"
            case .outOfRange(let point): "point \(point) is outside the valid latitude/longitude range"
            }
        }
    }

    /// Decodes `text` at `precision` decimal places (5 or 6).
    ///
    /// - Throws: `Polyline.DecodingError` for anything but a well-formed polyline of valid points.
    /// - Complexity: O(n) in the length of `text`.
    public static func decode(_ text: String, precision: Int) throws(DecodingError) -> [Coordinate] {
        let factor = precision == 6 ? 1e6 : 1e5
        var values: [Int64] = []
        values.reserveCapacity(text.utf8.count / 3)
        var result: Int64 = 0
        var shift: Int64 = 0
        var chunks = 0
        for (offset, byte) in text.utf8.enumerated() {
            guard byte >= 63, byte <= 126 else { throw .invalidCharacter(offset: offset) }
            let chunk = Int64(byte) - 63
            chunks += 1
            // 7 chunks of 5 bits hold any coordinate at precision 6 (±180e6 < 2^29).
            guard chunks <= 7 else { throw .numberTooLong(offset: offset) }
            result |= (chunk & 0x1F) << shift
            shift += 5
            if chunk < 0x20 {
                values.append((result & 1) != 0 ? ~(result >> 1) : result >> 1)
                result = 0
                shift = 0
                chunks = 0
            }
        }
        guard chunks == 0 else { throw .truncated }
        guard values.count % 2 == 0 else { throw .oddNumberOfValues }
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(values.count / 2)
        var latitude: Int64 = 0
        var longitude: Int64 = 0
        var index = 0
        while index < values.count {
            latitude &+= values[index]
            longitude &+= values[index + 1]
            let point = Coordinate(
                latitude: Double(latitude) / factor, longitude: Double(longitude) / factor)
            guard point.isValid else { throw .outOfRange(point: index / 2) }
            coordinates.append(point)
            index += 2
        }
        return coordinates
    }

    /// Encodes coordinates at `precision` decimal places (5 or 6).
    public static func encode(_ coordinates: [Coordinate], precision: Int) -> String {
        let factor = precision == 6 ? 1e6 : 1e5
        var out: [UInt8] = []
        var previousLatitude: Int64 = 0
        var previousLongitude: Int64 = 0
        for point in coordinates where point.isValid {
            let latitude = Int64((point.latitude * factor).rounded())
            let longitude = Int64((point.longitude * factor).rounded())
            append(latitude - previousLatitude, to: &out)
            append(longitude - previousLongitude, to: &out)
            previousLatitude = latitude
            previousLongitude = longitude
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func append(_ value: Int64, to out: inout [UInt8]) {
        var rest = value < 0 ? ~(value << 1) : value << 1
        while rest >= 0x20 {
            out.append(UInt8((0x20 | (rest & 0x1F)) + 63))
            rest >>= 5
        }
        out.append(UInt8(rest + 63))
    }
}
