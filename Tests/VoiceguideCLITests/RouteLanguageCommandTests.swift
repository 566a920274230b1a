import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// `drive` with no `--voice` speaks a route in its own language and units.
@Suite(.serialized) struct RouteLanguageCommandTests {
    let cli: CommandRunner
    init() throws { cli = try CommandRunner() }

    /// One route of each of our languages, words only its language has, and words it must not.
    static let routes: [(file: String, own: [String], foreign: [String])] = [
        (
            "directions/navigation-ios_waypoint-after-turn.json", ["feet", "mile"],
            ["Metern", "mètres", "metros"]
        ),
        ("routes/voiceguide_fr-route.json", ["mètres"], ["feet", "miles", "turn", "Metern", "metros"]),
        ("routes/voiceguide_de-route.json", ["Metern"], ["feet", "miles", "turn", "mètres", "metros"]),
        ("routes/voiceguide_es-route.json", ["metros"], ["feet", "miles", "turn", "Metern", "mètres"]),
    ]

    @Test(arguments: routes.indices)
    func driveWithoutAVoiceBuildsPromptsInTheRoutesLanguageAndUnits(_ index: Int) throws {
        let (file, own, foreign) = Self.routes[index]
        let path = TestFixtures.folder().appendingPathComponent(file).path
        let result = try cli.run(["drive", path, "--speed", "50km/h", "--no-server-instructions", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        let texts = try result.stdout.split(separator: "\n").dropLast().map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["text"] as? String ?? ""
        }
        #expect(texts.count >= 4)
        let all = texts.joined(separator: " | ")
        #expect(own.contains { all.contains($0) }, "\(all)")
        for word in foreign {
            #expect(!all.contains(word), "'\(word)' in \(all)")
        }
    }

    @Test func anEnglishVoiceOnAGermanRouteSaysItSpeaksTheServerInGerman() throws {
        let path = TestFixtures.folder().appendingPathComponent("routes/voiceguide_de-route.json").path
        let result = try cli.run(["drive", path, "--speed", "50km/h", "--voice", "en-US"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: the route's instructions are in de-DE"), "\(result.stderr)")
    }

    @Test func aLocaleWithoutAProfileSaysWhichVoiceSpeaksIt() throws {
        let source = TestFixtures.folder().appendingPathComponent("routes/voiceguide_fr-route.json")
        let text = try String(contentsOf: source, encoding: .utf8).replacingOccurrences(
            of: "fr-FR", with: "fr-CA")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "locale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let route = folder.appendingPathComponent("route.json")
        try text.write(to: route, atomically: true, encoding: .utf8)
        let result = try cli.run(["drive", route.path, "--speed", "50km/h", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("no voice profile for fr-CA"), "\(result.stderr)")
        #expect(result.stdout.contains("mètres"))
    }
}
