import Foundation
import GuidanceService
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

extension JSONValue {
    /// The value with every member named `key` removed, at any depth.
    func removing(_ key: String) -> JSONValue {
        switch self {
        case .object(let members): .object(members.filter { $0.0 != key }.map { ($0.0, $0.1.removing(key)) })
        case .array(let items): .array(items.map { $0.removing(key) })
        default: self
        }
    }
}

@Suite struct PositionTests {
    static let fixture = GuidanceServiceTests.fixture

    /// A realistic drive of the fixture as position request lines (1 Hz, GPS noise, an outage).
    static func positionLines(seed: UInt64 = 3) throws -> [String] {
        let route = try Route.decode(from: Data(contentsOf: TestFixtures.directions(fixture)))
        let line = try RouteLine(route: route)
        var configuration = MotionConfiguration()
        configuration.outlierProbability = 0
        let motion = RealisticMotion(route: route, line: line, seed: seed, configuration: configuration)
        let receiver = SimulatedReceiver(motion: motion, seed: seed, configuration: configuration)
        return receiver.fixes.enumerated().map { index, fix in
            var fields: [(String, JSONValue)] = [
                ("id", .number(Double(index))), ("cmd", .string("position")), ("lat", .number(fix.latitude)),
                ("lon", .number(fix.longitude)), ("time", .number(fix.time)),
            ]
            if let speed = fix.speed { fields.append(("speed", .number(speed))) }
            if let course = fix.course {
                fields.append(("course", .number((course + 360).truncatingRemainder(dividingBy: 360))))
            }
            if let accuracy = fix.horizontalAccuracy { fields.append(("accuracy", .number(accuracy))) }
            return JSONValue.object(fields).serialized
        }
    }

    @Test func positionsAreMatchedAndDriveTheGuidance() async throws {
        let harness = try ServiceHarness()
        let events = EventCollector()
        _ = try await harness.send(#"{"cmd":"subscribe"}"#, from: events)
        _ = try await harness.send(ServiceHarness.routeLine(Self.fixture))
        var onRoute = 0
        var steps: Set<Double> = []
        let lines = try Self.positionLines()
        for line in lines {
            let reply = try await harness.send(line)
            #expect(reply["ok"] == .bool(true), "\(reply.serialized)")
            if reply.string("state") == "on_route" { onRoute += 1 }
            if let step = reply.number("step") { steps.insert(step) }
        }
        await harness.service.waitUntilIdle()
        #expect(Double(onRoute) > 0.9 * Double(lines.count))
        #expect(steps.count >= 4)
        let spoken = harness.synthesizer.spokenTexts
        #expect(spoken.count >= 4)
        #expect(spoken.contains { $0.contains("California Street") })
        #expect(!events.names.contains("off_route"))
    }

    /// `serve --gpsd`: the daemon's own fixes (`receive`, timed by their arrival) drive the
    /// guidance; a client's `position` is refused with its own code, `progress` still taken.
    @Test func aDaemonReadingItsOwnPositionsRefusesClientsPositions() async throws {
        let harness = try ServiceHarness(readsOwnPositions: true)
        let refused = try await harness.send(#"{"id":1,"cmd":"position","lat":37.79,"lon":-122.4}"#)
        #expect(refused.errorCode == "positions_from_gpsd", "\(refused.serialized)")
        #expect(refused.errorMessage?.contains("gpsd") == true)
        _ = try await harness.send(ServiceHarness.routeLine(Self.fixture))
        let route = try Route.decode(from: Data(contentsOf: TestFixtures.directions(Self.fixture)))
        var configuration = MotionConfiguration()
        configuration.outlierProbability = 0
        let motion = RealisticMotion(
            route: route, line: try RouteLine(route: route), seed: 3, configuration: configuration)
        var last = 0.0
        for fix in SimulatedReceiver(motion: motion, seed: 3, configuration: configuration).fixes {
            harness.clock.advance(by: fix.time - last)
            last = fix.time
            harness.service.receive(
                PositionFix(
                    latitude: fix.latitude, longitude: fix.longitude, speed: fix.speed,
                    course: fix.course.map { ($0 + 360).truncatingRemainder(dividingBy: 360) },
                    accuracy: fix.horizontalAccuracy))
            await harness.service.settle()
        }
        await harness.service.waitUntilIdle()
        let spoken = harness.synthesizer.spokenTexts
        #expect(spoken.count >= 4, "\(spoken)")
        #expect(spoken.contains { $0.contains("California Street") })
        let progress = try await harness.send(
            #"{"id":2,"cmd":"progress","leg":0,"step":1,"distance_remaining":50}"#)
        #expect(progress["ok"] == .bool(true), "\(progress.serialized)")
    }

    @Test func leavingTheRouteLosingTheSignalAndComingBackAreEvents() async throws {
        let harness = try ServiceHarness()
        let events = EventCollector()
        _ = try await harness.send(#"{"cmd":"subscribe"}"#, from: events)
        _ = try await harness.send(ServiceHarness.routeLine(Self.fixture))
        let lines = try Self.positionLines()
        for line in lines.prefix(40) { _ = try await harness.send(line) }
        // Forty seconds a kilometre to the side, then back on the route where the car would be.
        let last = try JSONValue.parse(Data(lines[39].utf8))
        let time = last.number("time") ?? 0
        for second in 1...40 {
            let fix = JSONValue.object([
                ("cmd", .string("position")), ("lat", .number((last.number("lat") ?? 0) + 0.01)),
                ("lon", .number(last.number("lon") ?? 0)), ("time", .number(time + Double(second))),
                ("speed", .number(10)),
            ])
            _ = try await harness.send(fix.serialized)
        }
        #expect(events.names.contains("off_route"))
        #expect(try await harness.send(#"{"cmd":"status"}"#)["ok"] == .bool(true))
        for line in lines.dropFirst(80).prefix(30) { _ = try await harness.send(line) }
        #expect(events.names.contains("back_on_route"), "\(events.names)")

        harness.clock.advance(by: 10)
        await harness.service.tick()
        #expect(events.names.contains("gps_lost"), "\(events.names)")
        for line in lines.dropFirst(120).prefix(3) { _ = try await harness.send(line) }
        #expect(events.names.contains("gps_recovered"), "\(events.names)")
    }

    @Test func aGapInTheFixesIsASignalLostEvenWhenReplayedFast() async throws {
        let harness = try ServiceHarness()
        let events = EventCollector()
        _ = try await harness.send(#"{"cmd":"subscribe"}"#, from: events)
        _ = try await harness.send(ServiceHarness.routeLine(Self.fixture))
        var lines = try Self.positionLines()
        lines.removeSubrange(50..<70)
        for line in lines.prefix(80) { _ = try await harness.send(line) }
        #expect(events.names.contains("gps_lost"), "\(events.names)")
        #expect(events.names.contains("gps_recovered"), "\(events.names)")
        let lost = events.names.firstIndex(of: "gps_lost") ?? 0
        #expect(events.names.firstIndex(of: "gps_recovered").map { $0 > lost } == true)
    }

    @Test func aRouteWithoutGeometryTakesProgressButNotPositions() async throws {
        let harness = try ServiceHarness()
        let document = try JSONValue.parse(Data(contentsOf: TestFixtures.directions(Self.fixture))).removing(
            "geometry")
        let load = try await harness.send(
            JSONValue.object([("cmd", .string("route")), ("route", document)]).serialized)
        #expect(load["ok"] == .bool(true), "\(load.serialized)")
        let position = try await harness.send(#"{"id":1,"cmd":"position","lat":37.79,"lon":-122.41}"#)
        #expect(position.errorCode == "no_geometry")
        let progress = try await harness.send(
            #"{"id":2,"cmd":"progress","leg":0,"step":1,"distance_remaining":50}"#)
        #expect(progress["ok"] == .bool(true))
    }

    @Test func fixesThatCannotBeTrueAreRejectedAndSaySo() async throws {
        let harness = try ServiceHarness()
        _ = try await harness.send(ServiceHarness.routeLine(Self.fixture))
        let lines = try Self.positionLines()
        _ = try await harness.send(lines[0])
        let first = try JSONValue.parse(Data(lines[0].utf8))
        let again = JSONValue.object([
            ("cmd", .string("position")), ("lat", .number(first.number("lat") ?? 0)),
            ("lon", .number(first.number("lon") ?? 0)), ("time", .number(first.number("time") ?? 0)),
        ])
        let reply = try await harness.send(again.serialized)
        #expect(reply["ok"] == .bool(true))
        #expect(reply.string("rejected") == "time_not_increasing", "\(reply.serialized)")
        let island = try await harness.send(#"{"cmd":"position","lat":0,"lon":0,"time":99999}"#)
        #expect(island.string("rejected") == "null_island", "\(island.serialized)")
    }
}

/// `speed_alert` as a subscribed event of the service.
@Suite struct SpeedAlertEventTests {
    /// A client's `position` request for a fix (its time 1,000 s on, its course in 0…360).
    static func positionLine(_ fix: Position) -> String {
        JSONValue.object([
            ("cmd", .string("position")), ("lat", .number(fix.latitude)), ("lon", .number(fix.longitude)),
            ("time", .number(fix.time + 1_000)), ("speed", .number(fix.speed ?? 0)),
            ("course", .number(((fix.course ?? 0) + 360).truncatingRemainder(dividingBy: 360))),
        ]).serialized
    }

    @Test func drivingOverTheLimitSendsASpeedAlertEventOncePerStretch() async throws {
        let harness = try ServiceHarness()
        let events = EventCollector()
        _ = try await harness.send(#"{"cmd":"subscribe"}"#, from: events)
        let load = try await harness.send(ServiceHarness.routeLine(SteadyDrive.limitedRouteName))
        #expect(load["ok"] == .bool(true), "\(load.serialized)")
        let route = try Route.decode(
            from: Data(contentsOf: TestFixtures.directions(SteadyDrive.limitedRouteName)))
        for fix in SteadyDrive.fixes(on: try RouteLine(route: route), speed: 15) {
            let reply = try await harness.send(Self.positionLine(fix))
            #expect(reply["ok"] == .bool(true), "\(reply.serialized)")
        }
        let alerts = events.events.filter { $0.string("event") == "speed_alert" }
        #expect(alerts.count == 2, "\(events.names)")
        for alert in alerts {
            #expect(alert.number("limit_kmh") == 40)
            #expect(abs((alert.number("speed_kmh") ?? 0) - 54) < 1)
            #expect(alert.number("posted_limit") == 40)
            #expect(alert.string("posted_unit") == "km/h")
        }
    }

    @Test func aRouteWithoutMaxspeedSendsNone() async throws {
        let harness = try ServiceHarness()
        let events = EventCollector()
        _ = try await harness.send(#"{"cmd":"subscribe"}"#, from: events)
        _ = try await harness.send(ServiceHarness.routeLine(PositionTests.fixture))
        for line in try PositionTests.positionLines() { _ = try await harness.send(line) }
        // The progress queued is spoken by another task: wait for it (under load it lagged).
        await harness.service.waitUntilIdle()
        #expect(events.names.contains("spoke"))
        #expect(!events.names.contains("speed_alert"))
    }
}

/// `waypoint_reached` as a subscribed event of the service.
@Suite struct WaypointEventTests {
    @Test func drivingThroughAWaypointSendsTheEventOnceWithTheNextLeg() async throws {
        let name = "navigation-ios_multileg-route.json"
        let harness = try ServiceHarness()
        let events = EventCollector()
        _ = try await harness.send(#"{"cmd":"subscribe"}"#, from: events)
        let load = try await harness.send(ServiceHarness.routeLine(name))
        #expect(load["ok"] == .bool(true), "\(load.serialized)")
        let route = try Route.decode(from: Data(contentsOf: TestFixtures.directions(name)))
        var legs: [Double] = []
        for fix in SteadyDrive.fixes(on: try RouteLine(route: route), speed: 10) {
            let reply = try await harness.send(SpeedAlertEventTests.positionLine(fix))
            #expect(reply["ok"] == .bool(true), "\(reply.serialized)")
            if let leg = reply.number("leg"), legs.last != leg { legs.append(leg) }
        }
        let reached = events.events.filter { $0.string("event") == "waypoint_reached" }
        #expect(reached.count == 1, "\(events.names)")
        #expect(reached.first?.number("waypoint") == 1)
        #expect(reached.first?.number("next_leg") == 1)
        #expect(legs == [0, 1])
    }
}
