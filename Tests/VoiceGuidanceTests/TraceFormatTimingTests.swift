import DriveSimulation
import Foundation
import Testing
import VoiceGuidance

/// The braking goals of issue 10 on recorded traces: realistic drives written as NMEA, GPX and
/// gpsd JSON, read back as `drive --trace` reads them, guided, and judged against where the car
/// really was (`make bench` §8 does the same through the command, with eSpeak's real lengths).
@Suite struct TraceFormatTimingTests {
    /// Corpus routes under 300 km, as `GuidedDriveTests`.
    static func routes() throws -> [Route] {
        try RoutingSupport.fixtureRoutes().map(\.route).filter { $0.distance < 300_000 }
    }

    /// The fixes of a realistic drive, written in `format` and read back (nil: as they are).
    static func fixes(_ motion: RealisticMotion, seed: UInt64, format: TraceFormat?) throws -> [Position] {
        let fixes = SimulatedReceiver(motion: motion, seed: seed).fixes
        guard let format else { return fixes }
        let trace = try RecordedTrace(text: TraceWriter.write(fixes, as: format))
        #expect(trace.format == format)
        #expect(trace.statistics.rejected == 0 && trace.statistics.noFix == 0)
        return trace.positions
    }

    /// Totals over `routes` × `seeds`, judged against the true motion.
    static func totals(format: TraceFormat?, seeds: [UInt64]) async throws -> GuidedDriveSummary {
        var total = GuidedDriveSummary()
        let phrases = try RoutingSupport.builder()
        var timing = AnnouncementTiming()
        timing.expectsBraking = true
        for route in try routes() {
            for seed in seeds {
                let motion = RealisticMotion(route: route, line: try RouteLine(route: route), seed: seed)
                let drive = GuidedDrive(
                    route: route, phrases: phrases, fixes: try fixes(motion, seed: seed, format: format),
                    timing: timing, alerts: try GuidedDriveTests.alerts(), durationOf: RoutingSupport.estimate
                )
                let result = try await drive.run()
                total.add(GuidedDriveSummary.judging(result.prompts, route: route, truth: motion).summary)
            }
        }
        return total
    }

    @Test(arguments: TraceFormat.allCases)
    func aRecordedTraceInEachFormatMeetsTheBrakingGoal(format: TraceFormat) async throws {
        let total = try await Self.totals(format: format, seeds: [1, 2, 3])
        print("\(format.rawValue): \(total)")
        #expect(total.judged >= 300)
        #expect(Double(total.finalInWindow) >= 0.9 * Double(total.judged), "\(total)")
        #expect(total.late == 0)
        #expect(total.overlaps == 0)
        #expect(total.repeats == 0)
    }

    /// What a format keeps of a fix: place within 0.2 m, time within 1 ms, speed within
    /// 0.01 m/s, course within 0.1°: the readers lose nothing the matching uses.
    @Test(arguments: TraceFormat.allCases)
    func aTraceReadBackKeepsEveryFixAndItsMotion(format: TraceFormat) throws {
        let route = try #require(try Self.routes().max { $0.legs.count < $1.legs.count })
        let motion = RealisticMotion(route: route, line: try RouteLine(route: route), seed: 2)
        let written = try Self.fixes(motion, seed: 2, format: nil)
        let read = try Self.fixes(motion, seed: 2, format: format)
        #expect(read.count == written.count)
        for (a, b) in zip(written, read) {
            #expect(a.coordinate.distance(to: b.coordinate) < 0.2)
            #expect(abs(a.time - b.time) < 0.001)
            #expect(abs((a.speed ?? -1) - (b.speed ?? -1)) < 0.01)
            #expect(abs((a.course ?? -1) - (b.course ?? -1)) < 0.051)
        }
    }
}
