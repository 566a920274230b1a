import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@Suite struct RouteGeometryTests {
    @Test func decodesTheReferencePolyline() throws {
        let points = try Polyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@", precision: 5)
        #expect(points.count == 3)
        #expect(abs(points[0].latitude - 38.5) < 1e-9 && abs(points[0].longitude + 120.2) < 1e-9)
        #expect(abs(points[1].latitude - 40.7) < 1e-9 && abs(points[1].longitude + 120.95) < 1e-9)
        #expect(abs(points[2].latitude - 43.252) < 1e-9 && abs(points[2].longitude + 126.453) < 1e-9)
        #expect(Polyline.encode(points, precision: 5) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    }

    @Test func encodeDecodeRoundTripsAtPrecisionSix() throws {
        let points = [
            Coordinate(latitude: 47.210823, longitude: 9.519171),
            Coordinate(latitude: -33.868820, longitude: 151.209296),
            Coordinate(latitude: 0, longitude: -179.999999),
        ]
        let decoded = try Polyline.decode(Polyline.encode(points, precision: 6), precision: 6)
        #expect(decoded == points)
    }

    @Test(arguments: [
        ("_p~iF~ps|U_ulLnnqC_mqNvxq", Polyline.DecodingError.truncated),
        ("_p~iF~ps|U_ulL", .oddNumberOfValues),
        ("_p~iF ~ps|U", .invalidCharacter(offset: 5)),
        ("~~~~~~~~?", .numberTooLong(offset: 7)),
        ("~~~~~~??", .outOfRange(point: 0)),
    ])
    func malformedPolylinesAreTypedErrors(text: String, expected: Polyline.DecodingError) {
        #expect(throws: expected) { try Polyline.decode(text, precision: 5) }
    }

    @Test func everyFixtureGeometryLiesOnItsManeuvers() throws {
        var checked = 0
        for file in try TestFixtures.directionsFiles() {
            let route = try Route.decode(from: Data(contentsOf: file))
            let overview = try #require(route.geometry?.coordinates, "\(file.lastPathComponent)")
            #expect(overview.count >= 2, "\(file.lastPathComponent)")
            for leg in route.legs {
                for step in leg.steps {
                    guard let points = step.geometry?.coordinates, let first = points.first else { continue }
                    let location = step.maneuver.location
                    let maneuver = Coordinate(latitude: location[1], longitude: location[0])
                    #expect(first.distance(to: maneuver) < 5, "\(file.lastPathComponent)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 190)
    }

    @Test func precisionIsDetectedWithoutRouteOptions() throws {
        let url = TestFixtures.directions("navigation-ios_multileg-route.json")
        let withOptions = try Route.decode(from: Data(contentsOf: url))
        #expect(withOptions.routeOptions?.geometries == "polyline6")
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var routes = try #require(json["routes"] as? [[String: Any]])
        routes[0].removeValue(forKey: "routeOptions")
        json["routes"] = routes
        let detected = try Route.decode(from: JSONSerialization.data(withJSONObject: json))
        #expect(detected.routeOptions == nil)
        #expect(detected.geometry == withOptions.geometry)
        #expect(detected.legs[0].steps[2].geometry == withOptions.legs[0].steps[2].geometry)
    }

    @Test func geoJSONLineStringDecodesAndRoundTrips() throws {
        let url = TestFixtures.directions("directions-swift_RouteResponseWithForeignMembers.json")
        let route = try Route.decode(from: Data(contentsOf: url))
        let points = try #require(route.legs[0].steps[0].geometry?.coordinates)
        #expect(points.count >= 2)
        let again = try Route.decode(from: JSONEncoder().encode(route))
        #expect(again.geometry == route.geometry)
        #expect(again.legs[0].steps[0].geometry == route.legs[0].steps[0].geometry)
    }

    @Test(arguments: [
        (#""geometry":"_p~iF~ps|U_ulLnnqC_mqNvxq""#, "legs[0].steps[0].geometry"),
        (#""geometry":{"type":"Point","coordinates":[1,2]}"#, "legs[0].steps[0].geometry.type"),
        (
            #""geometry":{"type":"LineString","coordinates":[[1,2],[200,2]]}"#,
            "legs[0].steps[0].geometry.coordinates[1]"
        ),
        (
            #""geometry":{"type":"LineString","coordinates":[[1]]}"#,
            "legs[0].steps[0].geometry.coordinates[0]"
        ),
    ])
    func badGeometryNamesItsPath(field: String, path: String) throws {
        let json = """
            {"routes":[{"distance":10,"duration":2,"legs":[{"distance":10,"duration":2,"steps":[
            {"distance":10,"duration":2,"name":"","maneuver":{"type":"depart","location":[1,2]},\(field)},
            {"distance":0,"duration":0,"name":"","maneuver":{"type":"arrive","location":[1,2]}}]}]}]}
            """
        let error = try #require(throws: RouteDecodingError.self) { try Route.decode(from: Data(json.utf8)) }
        #expect(error.path == "routes[0].\(path)", "\(error)")
    }
}
