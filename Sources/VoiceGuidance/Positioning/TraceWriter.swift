import Foundation

/// Writes positions as a recorded trace (NMEA 0183, GPX 1.1 or gpsd JSON), as a receiver or a
/// logger would; what `RecordedTrace` reads back.
public enum TraceWriter {
    /// The whole trace in `format`, one record per position (NMEA: RMC and GGA per fix).
    public static func write(_ positions: [Position], as format: TraceFormat) -> String {
        switch format {
        case .nmea: positions.map { nmea($0) }.joined()
        case .gpsdJSON: positions.map { gpsdJSON($0) + "\n" }.joined()
        case .gpx: gpx(positions)
        }
    }

    /// `$GPRMC` and `$GPGGA` sentences for one fix, each with its checksum and CR LF.
    public static func nmea(_ position: Position, talker: String = "GP") -> String {
        let time = utcParts(position.time)
        let clock = String(format: "%02d%02d%06.3f", time.hour, time.minute, time.second)
        let date = String(format: "%02d%02d%02d", time.day, time.month, time.year % 100)
        let latitude = angle(abs(position.latitude), degreeDigits: 2) + (position.latitude < 0 ? ",S" : ",N")
        let longitude =
            angle(abs(position.longitude), degreeDigits: 3) + (position.longitude < 0 ? ",W" : ",E")
        let knots =
            position.speed.map { String(format: "%.2f", $0 / NMEAReader.metersPerSecondPerKnot) } ?? ""
        let course = position.course.map { String(format: "%.1f", $0) } ?? ""
        let hdop = String(
            format: "%.1f", (position.horizontalAccuracy ?? 4) / NMEAReader.Configuration().metersPerHDOP)
        let rmc = "\(talker)RMC,\(clock),A,\(latitude),\(longitude),\(knots),\(course),\(date),,,A"
        let gga = "\(talker)GGA,\(clock),\(latitude),\(longitude),1,08,\(hdop),50.0,M,0.0,M,,"
        return sentence(rmc) + sentence(gga)
    }

    /// `$` + body + `*` + checksum + CR LF.
    public static func sentence(_ body: String) -> String {
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        return "$\(body)*\(String(format: "%02X", sum))\r\n"
    }

    /// One gpsd TPV report.
    public static func gpsdJSON(_ position: Position) -> String {
        var fields = [
            #""class":"TPV""#, #""device":"/dev/ttyUSB0""#, #""mode":2"#,
            #""time":"\#(iso8601(position.time))""#,
            String(format: #""lat":%.7f,"lon":%.7f"#, position.latitude, position.longitude),
        ]
        if let speed = position.speed { fields.append(String(format: #""speed":%.3f"#, speed)) }
        if let course = position.course { fields.append(String(format: #""track":%.1f"#, course)) }
        if let accuracy = position.horizontalAccuracy {
            fields.append(String(format: #""eph":%.1f"#, accuracy))
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A GPX 1.1 document with one track, speeds and courses in Garmin's TrackPointExtension.
    public static func gpx(_ positions: [Position]) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="voiceguide" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
            <trk><trkseg>

            """
        for position in positions {
            out += String(format: #"<trkpt lat="%.7f" lon="%.7f">"#, position.latitude, position.longitude)
            out += "<time>\(iso8601(position.time))</time>"
            if position.speed != nil || position.course != nil {
                out += "<extensions><gpxtpx:TrackPointExtension>"
                if let speed = position.speed {
                    out += String(format: "<gpxtpx:speed>%.3f</gpxtpx:speed>", speed)
                }
                if let course = position.course {
                    out += String(format: "<gpxtpx:course>%.1f</gpxtpx:course>", course)
                }
                out += "</gpxtpx:TrackPointExtension></extensions>"
            }
            out += "</trkpt>\n"
        }
        return out + "</trkseg></trk>\n</gpx>\n"
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`.
    public static func iso8601(_ time: Double) -> String {
        let parts = utcParts(time)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%06.3fZ", parts.year, parts.month, parts.day, parts.hour,
            parts.minute,
            parts.second)
    }

    private static func angle(_ value: Double, degreeDigits: Int) -> String {
        let degrees = Int(value.rounded(.down))
        let minutes = (value - Double(degrees)) * 60
        return String(format: "%0\(degreeDigits)d%07.4f", degrees, minutes)
    }

    /// Civil UTC date and time of a Unix time (times before 1970 or beyond year 9999 are clamped).
    private static func utcParts(_ time: Double) -> (
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double
    ) {
        let clamped = time.isFinite ? min(max(time, 0), 253_402_300_799) : 0
        let days = Int((clamped / 86_400).rounded(.down))
        let secondOfDay = clamped - Double(days) * 86_400
        // Civil from days (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let hour = Int(secondOfDay / 3_600)
        let minute = Int((secondOfDay - Double(hour) * 3_600) / 60)
        let second = secondOfDay - Double(hour * 3_600 + minute * 60)
        return (year, month, day, hour, minute, second)
    }
}
