/// Calendar arithmetic and ISO 8601 timestamps, without `Date` formatters (pure and `Sendable`).
enum Timestamp {
    /// Seconds since 1970-01-01T00:00:00Z of a UTC calendar time, or nil when a field is out of range.
    static func seconds(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Double = 0
    ) -> Double? {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), second >= 0, second < 61
        else { return nil }
        // Days from civil (Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Double(days) * 86_400 + Double(hour * 3_600 + minute * 60) + second
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff][Z|±HH:MM]` (a time without a zone is UTC).
    static func parseISO8601(_ text: Substring) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes.count <= 40 else { return nil }
        func integer(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<(start + count) {
                let byte = bytes[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x20,
            bytes[13] == 0x3A, bytes[16] == 0x3A,
            let year = integer(0, 4), let month = integer(5, 2), let day = integer(8, 2),
            let hour = integer(11, 2), let minute = integer(14, 2), let whole = integer(17, 2)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if index < bytes.count {
            if bytes[index] == 0x5A, index + 1 == bytes.count {
                index += 1
            } else if bytes[index] == 0x2B || bytes[index] == 0x2D, index + 6 == bytes.count,
                bytes[index + 3] == 0x3A, let hours = integer(index + 1, 2),
                let minutes = integer(index + 4, 2),
                hours <= 23, minutes <= 59
            {
                offset = (hours * 3_600 + minutes * 60) * (bytes[index] == 0x2D ? -1 : 1)
            } else {
                return nil
            }
        }
        guard
            let base = seconds(
                year: year, month: month, day: day, hour: hour, minute: minute,
                second: Double(whole) + fraction)
        else { return nil }
        return base - Double(offset)
    }
}
