import Foundation
import Testing
import VoiceGuidance

@Suite struct TraceReaderTests {
    static let rmc = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A"
    static let gga = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"

    /// Positions one second apart going east from Munich at 15 m/s.
    static func drive(count: Int, start: Double = 1_764_565_200) -> [Position] {
        let origin = Coordinate(latitude: 48.137, longitude: 11.575)
        return (0..<count).map { index in
            Position(
                coordinate: origin.offset(by: 15 * Double(index), bearing: 90), time: start + Double(index),
                speed: 15, course: 90, horizontalAccuracy: 4)
        }
    }

    @Test func nmeaMergesRMCAndGGAOfOneEpoch() throws {
        var reader = NMEAReader()
        let positions = reader.read(text: Self.rmc + "\r\n" + Self.gga + "\r\n")
        let fix = try #require(positions.first)
        #expect(positions.count == 1)
        #expect(abs(fix.latitude - (48 + 7.038 / 60)) < 1e-9)
        #expect(abs(fix.longitude - (11 + 31.0 / 60)) < 1e-9)
        #expect(fix.time == 764_426_119)  // 1994-03-23T12:35:19Z
        #expect(abs((fix.speed ?? 0) - 22.4 * 1_852 / 3_600) < 1e-9)
        #expect(fix.course == 84.4)
        #expect(abs((fix.horizontalAccuracy ?? 0) - 0.9 * NMEAReader.Configuration().metersPerHDOP) < 1e-9)
        #expect(reader.statistics.fixes == 1 && reader.statistics.rejected == 0)
    }

    @Test func nmeaAcceptsAnyTalkerAndVTG() throws {
        let lines = [
            TraceWriter.sentence("GNGGA,000001.00,4807.038,N,01131.000,E,1,08,1.0,545.4,M,46.9,M,,"),
            TraceWriter.sentence("GLVTG,45.0,T,,M,10.0,N,18.52,K,A"),
            TraceWriter.sentence("GNGGA,000002.00,4807.040,N,01131.002,E,1,08,1.0,545.4,M,46.9,M,,"),
            TraceWriter.sentence("GLVTG,46.0,T,,M,10.0,N,18.52,K,A"),
        ]
        var reader = NMEAReader()
        let positions = reader.read(text: lines.joined())
        #expect(positions.count == 2)
        #expect(positions.map(\.course) == [45, 46])
        #expect(positions.allSatisfy { abs(($0.speed ?? 0) - 18.52 / 3.6) < 1e-9 })
        #expect(positions[1].time - positions[0].time == 1)
    }

    @Test func nmeaSkipsAndCountsBadSentences() {
        let good = TraceWriter.write(Self.drive(count: 3), as: .nmea)
        let sentences = good.split(separator: "\r\n").map(String.init)
        let lines =
            [
                sentences[0], String(sentences[0].dropLast(6)),  // truncated: no checksum
                sentences[2].replacingOccurrences(of: ",A,", with: ",B,"),  // a corrupt byte
                "$GPRMC,,A,,,,,,,,,*00",  // wrong checksum
                sentences[1],
                TraceWriter.sentence("GPRMC,120000,A,9999.000,N,01131.000,E,0,0,010126,,"),  // latitude > 90
                TraceWriter.sentence("GPGSV,3,1,11,03,03,111,00"),
                TraceWriter.sentence("GPRMC,120000,V,,,,,,,010126,,"),
                "garbage \u{0}\u{7F} line",
            ] + sentences[2...]
        var reader = NMEAReader()
        let positions = reader.read(text: lines.joined(separator: "\n"))
        #expect(positions.count == 3)
        #expect(reader.statistics.badChecksum == 3)
        #expect(reader.statistics.malformed == 2)
        #expect(reader.statistics.ignored == 1)
        #expect(reader.statistics.noFix == 1)
    }

    @Test func nmeaWithoutDatesCrossesMidnight() {
        let lines = [
            TraceWriter.sentence("GPGGA,235959.00,4807.038,N,01131.000,E,1,08,1.0,545.4,M,46.9,M,,"),
            TraceWriter.sentence("GPGGA,000000.00,4807.040,N,01131.000,E,1,08,1.0,545.4,M,46.9,M,,"),
            TraceWriter.sentence("GPGGA,000001.00,4807.042,N,01131.000,E,1,08,1.0,545.4,M,46.9,M,,"),
        ]
        var reader = NMEAReader()
        let times = reader.read(text: lines.joined()).map(\.time)
        #expect(times == [86_399, 86_400, 86_401])
    }

    @Test(arguments: TraceFormat.allCases)
    func everyFormatRoundTripsThroughItsWriter(format: TraceFormat) throws {
        let written = Self.drive(count: 20)
        let trace = try RecordedTrace(text: TraceWriter.write(written, as: format))
        #expect(trace.format == format)
        #expect(trace.positions.count == written.count)
        #expect(trace.statistics.rejected == 0)
        for (read, original) in zip(trace.positions, written) {
            #expect(read.coordinate.distance(to: original.coordinate) < 0.2)
            #expect(abs(read.time - original.time) < 0.002)
            #expect(abs((read.speed ?? -1) - 15) < 0.01)
            #expect(abs((read.course ?? -1) - 90) < 0.1)
        }
    }

    @Test func gpxWithoutTimesGivesNoPositionsAndSaysWhy() throws {
        let text = TraceWriter.gpx(Self.drive(count: 4)).replacingOccurrences(
            of: #"<time>[^<]*</time>"#, with: "", options: .regularExpression)
        let trace = try RecordedTrace(text: text)
        #expect(trace.positions.isEmpty)
        #expect(trace.statistics.missingTime == 4)
    }

    @Test func truncatedAndCorruptGPXKeepsWhatCameBefore() {
        let full = TraceWriter.gpx(Self.drive(count: 10))
        var reader = GPXReader()
        let cut = String(full.prefix(full.count * 6 / 10))
        let kept = reader.read(text: cut)
        #expect(kept.count >= 4 && kept.count < 10)
        var corrupt = GPXReader()
        let bad = full.replacingOccurrences(of: "</trkpt>\n<trkpt", with: "</trkpt>\n<<trkpt")
        #expect(corrupt.read(text: bad).count == 1)
        #expect(corrupt.fault != nil)
        var nan = GPXReader()
        let nanText = full.replacingOccurrences(
            of: #"lat="48.1370000""#, with: #"lat="NaN""#, range: full.range(of: #"lat="48.1370000""#))
        #expect(nan.read(text: nanText).count == 9)
        #expect(nan.statistics.malformed == 1)
        var dtd = GPXReader()
        #expect(dtd.read(text: "<!DOCTYPE gpx [<!ENTITY a \"aaaa\">]>" + full).isEmpty)
        #expect(dtd.fault != nil)
    }

    @Test func gpsdReportsWithoutFixOrGarbageAreCounted() {
        let good = TraceWriter.gpsdJSON(Self.drive(count: 1)[0])
        let text = [
            #"{"class":"VERSION","release":"3.22"}"#,
            #"{"class":"TPV","mode":1,"time":"2026-12-01T05:00:00.000Z"}"#,
            good,
            #"{"class":"TPV","mode":3,"lat":true,"lon":11.5,"time":"2026-12-01T05:00:01.000Z"}"#,
            #"{"class":"TPV","mode":3,"lat":48.1,"lon":11.5}"#,
            "{\"class\":\"TPV\",\"mode\":3,\"lat\":48.1",
            "\u{1}\u{2}binary",
        ].joined(separator: "\n")
        var reader = GPSDReader()
        let positions = reader.read(text: text)
        #expect(positions.count == 1)
        #expect(reader.statistics.ignored == 1)
        #expect(reader.statistics.noFix == 1)
        #expect(reader.statistics.malformed == 3)
        #expect(reader.statistics.missingTime == 1)
    }

    @Test func formatIsDetectedFromContent() {
        #expect(TraceFormat.detect("\n  $GPGGA,...") == .nmea)
        #expect(TraceFormat.detect("{\"class\":\"TPV\"}") == .gpsdJSON)
        #expect(TraceFormat.detect("\u{FEFF}<?xml version=\"1.0\"?>\n<gpx>") == .gpx)
        #expect(TraceFormat.detect("<html>") == nil)
        #expect(TraceFormat.detect("") == nil)
        #expect(throws: RecordedTrace.Error.self) { try RecordedTrace(text: "hello") }
    }

    @Test func fixFilterDropsWhatNoCarCanDo() {
        var filter = FixFilter()
        let drive = Self.drive(count: 10)
        var accepted: [Position] = []
        func feed(_ position: Position) {
            if let fix = filter.accept(position) { accepted.append(fix) }
        }
        feed(drive[0])
        feed(Position(latitude: 0, longitude: 0, time: drive[0].time + 0.5))
        feed(Position(latitude: .nan, longitude: 11, time: drive[0].time + 0.6))
        feed(drive[1])
        feed(drive[0])  // time going backwards
        var far = drive[2]
        far.coordinate = far.coordinate.offset(by: 10_000_000, bearing: 180)
        feed(far)  // a single 10,000 km jump
        feed(drive[2])
        #expect(accepted == [drive[0], drive[1], drive[2]])
        #expect(filter.rejected[.nullIsland] == 1)
        #expect(filter.rejected[.invalidCoordinate] == 1)
        #expect(filter.rejected[.timeNotIncreasing] == 1)
        #expect(filter.rejected[.impossibleJump] == 1)
        // The receiver really is elsewhere: after three agreeing fixes the filter follows it.
        let moved = drive[3...6].map { fix -> Position in
            var copy = fix
            copy.coordinate = fix.coordinate.offset(by: 5_000_000, bearing: 0)
            return copy
        }
        for fix in moved { feed(fix) }
        #expect(accepted.suffix(2) == Array(moved.suffix(2)))
    }

    @Test func lineBufferBoundsLineLength() {
        var buffer = LineBuffer(maximumLength: 8)
        var lines = buffer.append(Array("short\r\nthis one is far too long\nok".utf8))
        lines += buffer.finish().map { [$0] } ?? []
        #expect(lines == ["short", "ok"])
        #expect(buffer.overlong == 1)
    }
}
