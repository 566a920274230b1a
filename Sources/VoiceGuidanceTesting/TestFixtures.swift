public import Foundation

/// The test data kept in the repository (`Tests/Fixtures/`): real Directions API responses
/// (ISC, see `Tests/Fixtures/NOTICE.md`) and the ALSA capture configuration.
public enum TestFixtures {
    /// `Tests/Fixtures/` of this package.
    public static func folder(filePath: String = #filePath) -> URL {
        packageRoot(filePath: filePath).appendingPathComponent("Tests/Fixtures", isDirectory: true)
    }

    /// A Directions API response of the corpus, by file name (`directions/NAME`).
    public static func directions(_ name: String) -> URL {
        folder().appendingPathComponent("directions/\(name)")
    }

    /// The package root (the folder holding Package.swift).
    public static func packageRoot(filePath: String = #filePath) -> URL {
        URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The Directions API responses in `directions/`, sorted by name.
    public static func directionsFiles() throws -> [URL] {
        let folder = folder().appendingPathComponent("directions", isDirectory: true)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") }
            .sorted()
            .map { folder.appendingPathComponent($0) }
    }

    /// A spoken instruction found in a fixture, with where it came from.
    public struct Announcement: Sendable, Hashable {
        public var file: String
        public var text: String
        public var ssml: String
    }

    /// Every `voiceInstructions` entry of every fixture, in file order (573 of them).
    public static func announcements() throws -> [Announcement] {
        var found: [Announcement] = []
        for url in try directionsFiles() {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
            collect(json, file: url.lastPathComponent, into: &found)
        }
        return found
    }

    private static func collect(_ value: Any, file: String, into found: inout [Announcement]) {
        if let object = value as? [String: Any] {
            if let ssml = object["ssmlAnnouncement"] as? String {
                found.append(
                    Announcement(file: file, text: object["announcement"] as? String ?? "", ssml: ssml))
            }
            for key in object.keys.sorted() { collect(object[key]!, file: file, into: &found) }
        } else if let array = value as? [Any] {
            for item in array { collect(item, file: file, into: &found) }
        }
    }
}
