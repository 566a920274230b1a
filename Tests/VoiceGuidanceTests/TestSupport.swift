import Foundation
import VoiceGuidance
import VoiceGuidanceTesting

/// Shared helpers for the routing and scheduling suites.
enum RoutingSupport {
    /// `Voices/phrases` of this package.
    static var phrasesFolder: URL {
        TestFixtures.packageRoot().appendingPathComponent("Voices/phrases", isDirectory: true)
    }

    static func builder(_ language: String = "en", units: UnitSystem = .metric) throws -> PhraseBuilder {
        PhraseBuilder(book: try PhraseBook.load(directory: phrasesFolder, language: language), units: units)
    }

    /// The timing model's estimate of a prompt's length (close to eSpeak NG at its default rate).
    @Sendable static func estimate(_ instruction: SpokenInstruction) -> Double {
        AnnouncementTiming().estimatedDuration(of: instruction)
    }

    static func fixtureRoutes() throws -> [(name: String, route: Route)] {
        try TestFixtures.directionsFiles().map {
            ($0.lastPathComponent, try Route.decode(from: Data(contentsOf: $0)))
        }
    }

    /// A straight test route: each entry is (maneuver type, modifier, length of the step before it).
    static func route(
        _ maneuvers: [(ManeuverType, ManeuverModifier?, Double)], speed: Double = 13.9, names: Bool = true,
        exits: [Int?]? = nil
    ) -> Route {
        var steps: [RouteStep] = []
        var lengths = maneuvers.map(\.2)
        lengths.append(0)
        var types: [(ManeuverType, ManeuverModifier?)] = [(.depart, nil)]
        types += maneuvers.map { ($0.0, $0.1) }
        for (index, (type, modifier)) in types.enumerated() {
            let length = lengths[index]
            let exit = index > 0 ? exits?[index - 1] : nil
            steps.append(
                RouteStep(
                    maneuver: Maneuver(
                        type: type, modifier: modifier, exit: exit, location: [0, Double(index) * 0.01],
                        bearingAfter: 90),
                    name: names ? "Road \(index)" : "", distance: length, duration: length / speed))
        }
        return Route(legs: [RouteLeg(steps: steps)])
    }
}
