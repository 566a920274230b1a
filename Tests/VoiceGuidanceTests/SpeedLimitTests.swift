import DriveSimulation
import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// `annotation.maxspeed`: decoded, checked with located errors, laid on the route's line; the
/// speed watch's rule; the alert's words.
@Suite struct SpeedLimitTests {
    static var limitedURL: URL { TestFixtures.directions(SteadyDrive.limitedRouteName) }

    static func limitedRoute() throws -> Route { try Route.decode(from: Data(contentsOf: limitedURL)) }

    /// The fixture with `maxspeed[3]` of leg 0 replaced by `entry` (or an entry appended).
    static func mutated(_ entry: Any, append: Bool = false) throws -> Data {
        var document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: limitedURL)) as? [String: Any])
        var routes = try #require(document["routes"] as? [[String: Any]])
        var legs = try #require(routes[0]["legs"] as? [[String: Any]])
        var annotation = try #require(legs[0]["annotation"] as? [String: Any])
        var limits = try #require(annotation["maxspeed"] as? [Any])
        if append { limits.append(entry) } else { limits[3] = entry }
        annotation["maxspeed"] = limits
        legs[0]["annotation"] = annotation
        routes[0]["legs"] = legs
        document["routes"] = routes
        return try JSONSerialization.data(withJSONObject: document)
    }

    @Test func theFixtureLimitsAreDecodedAndLaidOnTheLine() throws {
        let route = try Self.limitedRoute()
        let limits = try #require(route.legs[0].maxSpeeds)
        #expect(limits.count == 63)
        #expect(limits.first == .unknown)
        #expect(limits.contains(.posted(speed: 60, unit: .kilometersPerHour)))
        let line = SpeedLimitLine(route: route, line: try RouteLine(route: route))
        let expected: [(Double, Double, Double)] = [
            (219, 304, 50), (304, 566, 40), (566, 789, 50), (789, 1155, 40), (1155, 1469, 60),
        ]
        #expect(line.sections.count == expected.count)
        for (section, (start, end, limit)) in zip(line.sections, expected) {
            #expect(abs(section.start - start) < 1.5 && abs(section.end - end) < 1.5, "\(section)")
            #expect(section.limit.kilometersPerHour == limit)
        }
        #expect(line.section(at: 100) == nil)
        #expect(line.section(at: 400)?.limit.kilometersPerHour == 40)
        #expect(line.section(at: 1_300)?.limit.kilometersPerHour == 60)
        #expect(line.section(at: 2_000) == nil)
    }

    @Test func aRouteThatEncodesAndDecodesKeepsItsLimits() throws {
        let route = try Self.limitedRoute()
        let again = try JSONDecoder().decode(Route.self, from: JSONEncoder().encode(route))
        #expect(again.legs[0].maxSpeeds == route.legs[0].maxSpeeds)
    }

    @Test func routesWithoutMaxspeedHaveNoLimits() throws {
        let route = try Route.decode(
            from: Data(contentsOf: TestFixtures.directions("navigation-ios_routeWithInstructions.json")))
        #expect(route.legs.allSatisfy { $0.maxSpeeds == nil })
        let line = try RouteLine(route: route)
        #expect(SpeedLimitLine(route: route, line: line).sections.isEmpty)
        // Driven at 200 km/h: no speed alert.
        var matcher = try RouteMatcher(route: route)
        let events = SteadyDrive.fixes(on: line, speed: 55).flatMap { matcher.update($0).events }
        #expect(!events.contains(.speedAlert))
        #expect(!events.isEmpty || matcher.state == .onRoute)
    }

    @Test(arguments: [
        (#"{"speed":-5,"unit":"km/h"}"#, "routes[0].legs[0].annotation.maxspeed[3].speed", "negative value"),
        (#"{"speed":0,"unit":"km/h"}"#, "routes[0].legs[0].annotation.maxspeed[3].speed", "speed limit of 0"),
        (
            #"{"speed":300,"unit":"mph"}"#, "routes[0].legs[0].annotation.maxspeed[3].speed",
            "above any posted limit"
        ),
        (
            #"{"speed":50,"unit":"knots"}"#, "routes[0].legs[0].annotation.maxspeed[3].unit",
            "neither km/h nor mph"
        ),
        (
            #"{"speed":"fast","unit":"km/h"}"#, "routes[0].legs[0].annotation.maxspeed[3].speed",
            "expected a number"
        ),
        (#"{}"#, "routes[0].legs[0].annotation.maxspeed[3]", "expected {\"speed\""),
        (#""fifty""#, "routes[0].legs[0].annotation.maxspeed[3]", "expected an object"),
        (#"{"unknown":"yes"}"#, "routes[0].legs[0].annotation.maxspeed[3].unknown", "expected true or false"),
    ])
    func badLimitsAreLocatedErrors(entry: String, path: String, words: String) throws {
        let value = try JSONSerialization.jsonObject(with: Data(entry.utf8), options: .fragmentsAllowed)
        do {
            _ = try Route.decode(from: try Self.mutated(value))
            Issue.record("\(entry) was accepted")
        } catch let error as RouteDecodingError {
            #expect(error.path == path, "\(error)")
            #expect(error.message.contains(words), "\(error)")
        }
    }

    @Test func moreEntriesThanSegmentsIsALocatedError() throws {
        do {
            _ = try Route.decode(from: try Self.mutated(["unknown": true], append: true))
            Issue.record("accepted")
        } catch let error as RouteDecodingError {
            #expect(error.path == "routes[0].legs[0].annotation.maxspeed")
            #expect(error.message.contains("64 entries for the 63 segments"), "\(error)")
        }
    }
}

/// The rule of `SpeedWatch`, fix by fix (one a second).
@Suite struct SpeedWatchTests {
    static let fifty = SpeedLimit.posted(speed: 50, unit: .kilometersPerHour)
    static let forty = SpeedLimit.posted(speed: 40, unit: .kilometersPerHour)

    /// Runs `speeds` (km/h, one a second from `start`) on `limit`; the times of the alerts.
    static func alerts(
        _ watch: inout SpeedWatch, _ speeds: [Double], limit: SpeedLimit?, start: Double = 0
    ) -> [Double] {
        speeds.enumerated().compactMap { index, kmh in
            let time = start + Double(index)
            return watch.update(limit: limit, speed: kmh / 3.6, time: time) == nil ? nil : time
        }
    }

    @Test func aNoisyFixIsNoAlertAFewSecondsOverIsOne() {
        var watch = SpeedWatch()
        // 50 + max(5, 5) = 55: 54 is within the tolerance, a single 70 is noise.
        #expect(Self.alerts(&watch, [54, 54, 70, 50, 54, 70, 70, 50], limit: Self.fifty).isEmpty)
        #expect(Self.alerts(&watch, [56, 56, 56, 56, 60, 60], limit: Self.fifty, start: 10) == [13])
    }

    @Test func theToleranceIsTenPercentOnFastRoads() {
        let hundred = SpeedLimit.posted(speed: 100, unit: .kilometersPerHour)
        var watch = SpeedWatch()
        #expect(Self.alerts(&watch, Array(repeating: 109, count: 10), limit: hundred).isEmpty)
        #expect(Self.alerts(&watch, Array(repeating: 111, count: 10), limit: hundred, start: 10) == [13])
    }

    @Test func droppingBelowAndRisingAgainOnTheSameLimitIsNotAlertedAtOnce() {
        var watch = SpeedWatch()
        #expect(Self.alerts(&watch, Array(repeating: 60, count: 5), limit: Self.fifty) == [3])
        // Under the limit for 20 s, then over again: not again.
        let again = Array(repeating: 45.0, count: 20) + Array(repeating: 60, count: 10)
        #expect(Self.alerts(&watch, again, limit: Self.fifty, start: 5).isEmpty)
        // Within the tolerance (52 km/h) for two minutes does not count as keeping to the limit.
        let hovering = Array(repeating: 52.0, count: 120) + Array(repeating: 60, count: 10)
        #expect(Self.alerts(&watch, hovering, limit: Self.fifty, start: 35).isEmpty)
        // A minute kept under the limit (61 fixes: 165…225 s) re-arms it.
        let kept = Array(repeating: 45.0, count: 61) + Array(repeating: 60, count: 5)
        #expect(Self.alerts(&watch, kept, limit: Self.fifty, start: 165) == [165 + 61 + 3])
    }

    @Test func aNewLimitReArmsItAnUnknownStretchDoesNot() {
        var watch = SpeedWatch()
        #expect(Self.alerts(&watch, Array(repeating: 60, count: 5), limit: Self.fifty) == [3])
        #expect(Self.alerts(&watch, Array(repeating: 60, count: 5), limit: nil, start: 5).isEmpty)
        #expect(Self.alerts(&watch, Array(repeating: 60, count: 5), limit: Self.fifty, start: 10).isEmpty)
        #expect(Self.alerts(&watch, Array(repeating: 60, count: 5), limit: Self.forty, start: 15) == [18])
        #expect(Self.alerts(&watch, Array(repeating: 60, count: 5), limit: Self.fifty, start: 20) == [23])
    }

    @Test func aLimitInMilesPerHourIsComparedInKilometres() throws {
        var watch = SpeedWatch()
        let thirty = SpeedLimit.posted(speed: 30, unit: .milesPerHour)
        // 30 mph = 48.3 km/h, alerted above 53.3 km/h.
        #expect(Self.alerts(&watch, Array(repeating: 53, count: 6), limit: thirty).isEmpty)
        var alert: SpeedWatch.Alert?
        for second in 0..<5 {
            alert = watch.update(limit: thirty, speed: 56 / 3.6, time: 10 + Double(second)) ?? alert
        }
        let found = try #require(alert)
        #expect(abs(found.limitKmh - 48.28) < 0.01)
        #expect(abs(found.speedKmh - 56) < 0.01)
    }
}

/// The words of a speed alert in each language and unit system.
@Suite struct SpeedAlertPhraseTests {
    static func alert(_ limit: SpeedLimit) -> SpeedWatch.Alert {
        SpeedWatch.Alert(limit: limit, limitKmh: limit.kilometersPerHour ?? 0, speedKmh: 70)
    }

    @Test(arguments: [
        ("en", UnitSystem.metric, "Speed limit 50"), ("fr", .metric, "Limitation à 50"),
        ("de", .metric, "Tempolimit 50"), ("es", .metric, "Límite de velocidad 50"),
        ("en", .imperial, "Speed limit 31"),
    ])
    func aKilometreLimitIsSaidInTheVoicesUnits(language: String, units: UnitSystem, text: String) throws {
        let book = try PhraseBook.load(directory: RoutingSupport.phrasesFolder, language: language)
        let alerts = GuidanceAlerts(words: try #require(book.alerts), units: units)
        #expect(alerts.text(for: Self.alert(.posted(speed: 50, unit: .kilometersPerHour))) == text)
    }

    @Test func aMileLimitIsSaidAsPostedInImperialAndConvertedInMetric() throws {
        let book = try PhraseBook.load(directory: RoutingSupport.phrasesFolder, language: "en")
        let words = try #require(book.alerts)
        let thirty = Self.alert(.posted(speed: 30, unit: .milesPerHour))
        #expect(GuidanceAlerts(words: words, units: .imperial).text(for: thirty) == "Speed limit 30")
        #expect(GuidanceAlerts(words: words, units: .metric).text(for: thirty) == "Speed limit 48")
    }

    @Test func alertNamesSwitchEventsOff() throws {
        #expect(
            try GuidanceAlerts.events(named: "speed,gps").get() == [
                .speedAlert, .signalLost, .signalRecovered,
            ])
        #expect(try GuidanceAlerts.events(named: "off-route").get() == [.offRoute, .backOnRoute])
        guard case .failure(let unknown) = GuidanceAlerts.events(named: "speed,radar") else {
            Issue.record("radar accepted")
            return
        }
        #expect(unknown.description.contains("unknown alert 'radar'"))
    }
}
