import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@Suite struct RouteDecodingTests {
    @Test func everyFixtureDecodes() throws {
        let files = try TestFixtures.directionsFiles()
        #expect(files.count == 19)
        var steps = 0
        var prompts = 0
        for file in files {
            let route = try Route.decode(from: Data(contentsOf: file))
            #expect(!route.legs.isEmpty, "\(file.lastPathComponent)")
            for leg in route.legs {
                #expect(leg.steps.first?.maneuver.type == .depart, "\(file.lastPathComponent)")
                #expect(leg.steps.last?.maneuver.type == .arrive, "\(file.lastPathComponent)")
            }
            steps += route.legs.reduce(0) { $0 + $1.steps.count }
            prompts += route.legs.reduce(0) { $0 + $1.steps.reduce(0) { $0 + $1.voiceInstructions.count } }
        }
        // First routes only (the INDEX counts every route of a response).
        #expect(steps == 214)
        #expect(prompts == 430)
    }

    @Test func decodesFieldsOfAStep() throws {
        let url = TestFixtures.directions("navigation-ios_routeWithInstructions.json")
        let route = try Route.decode(from: Data(contentsOf: url))
        let step = route.legs[0].steps[1]
        #expect(step.maneuver.type == .turn)
        #expect(step.maneuver.modifier == .right)
        #expect(step.name == "California Street")
        #expect(step.distance == 439.1)
        #expect(step.voiceInstructions.count == 2)
        #expect(step.voiceInstructions[0].distanceAlongGeometry == 439.1)
        #expect(step.voiceInstructions[1].announcement == "Turn left onto Hyde Street")
        #expect(route.voiceLocale == "en-US")
    }

    @Test func decodesBothTopLevelShapesAndAllRoutes() throws {
        let single = TestFixtures.directions("navigation-ios_route-for-vanishing-route-line.json")
        let route = try Route.decode(from: Data(contentsOf: single))
        #expect(route.legs[0].steps.count == 8)
        let response = TestFixtures.directions("directions-swift_v5_driving_dc_polyline.json")
        let routes = try Route.routes(from: Data(contentsOf: response))
        #expect(routes.count == 2)
    }

    @Test func roundaboutExitAndRefsDecode() throws {
        var found: [Maneuver] = []
        for (_, route) in try RoutingSupport.fixtureRoutes() {
            for leg in route.legs {
                for step in leg.steps where step.maneuver.exit != nil { found.append(step.maneuver) }
            }
        }
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { ($0.exit ?? 0) >= 1 })
    }

    @Test(arguments: [
        (
            #"{"routes":[{"legs":[{"steps":[{"maneuver":{"type":"depart"},"distance":"far","duration":1}]}],"distance":1,"duration":1}]}"#,
            "routes[0].legs[0].steps[0].distance"
        ),
        (
            #"{"routes":[{"legs":[{"steps":[{"distance":1,"duration":1}]}],"distance":1,"duration":1}]}"#,
            "routes[0].legs[0].steps[0].maneuver"
        ),
        (
            #"{"legs":[{"steps":[{"maneuver":{"type":"depart"},"distance":-4,"duration":1}],"distance":1,"duration":1}],"distance":1,"duration":1}"#,
            "legs[0].steps[0].distance"
        ),
        (#"{"routes":[{"legs":[],"distance":1,"duration":1}]}"#, "routes[0].legs"),
        (
            #"{"routes":[{"legs":[{"steps":[],"distance":1,"duration":1}],"distance":1,"duration":1}]}"#,
            "routes[0].legs[0].steps"
        ),
        (#"{"routes":[],"code":"NoRoute"}"#, "routes"),
        (#"{"hello":1}"#, "(top level)"),
        (
            #"{"routes":[{"legs":[{"steps":[{"maneuver":{"type":"depart"},"distance":1,"duration":1,"voiceInstructions":[{"distanceAlongGeometry":-1,"announcement":"x"}]}],"distance":1,"duration":1}],"distance":1,"duration":1}]}"#,
            "routes[0].legs[0].steps[0].voiceInstructions[0].distanceAlongGeometry"
        ),
    ])
    func badInputNamesThePath(json: String, path: String) {
        #expect {
            _ = try Route.decode(from: Data(json.utf8))
        } throws: { error in
            guard let error = error as? RouteDecodingError else { return false }
            return error.path == path && error.description.hasPrefix(path + ": ")
        }
    }

    @Test func notJSONIsAnError() {
        #expect(throws: RouteDecodingError.self) { _ = try Route.decode(from: Data("not json".utf8)) }
    }

    @Test func strippingRemovesEveryVoiceInstruction() throws {
        for (name, route) in try RoutingSupport.fixtureRoutes() {
            #expect(route.hasVoiceInstructions, "\(name)")
            let stripped = route.strippingVoiceInstructions()
            #expect(!stripped.hasVoiceInstructions)
            #expect(stripped.legs.map(\.steps.count) == route.legs.map(\.steps.count))
        }
    }
}
