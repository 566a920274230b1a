import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@Suite struct AtomicFileTests {
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func writeReplacesWholeAndLeavesNothingElse() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("a.json")
        try AtomicFile.write(Data("first".utf8), to: url)
        try AtomicFile.write(Data("second, longer".utf8), toPath: url.path)
        #expect(try Data(contentsOf: url) == Data("second, longer".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.json"])
    }

    @Test func failedWriteKeepsWhatWasThere() throws {
        let folder = try folder()
        defer {
            chmod(folder.path, 0o755)
            try? FileManager.default.removeItem(at: folder)
        }
        let url = folder.appendingPathComponent("a.wav")
        try AtomicFile.write(Data("kept".utf8), to: url)
        // A folder where nothing can be created (root ignores the mode bits, so check first).
        chmod(folder.path, 0o555)
        let probe = folder.appendingPathComponent("probe")
        if FileManager.default.createFile(atPath: probe.path, contents: nil) {
            try? FileManager.default.removeItem(at: probe)
            // Running as root: fail the write by making the target a non-empty folder instead.
            chmod(folder.path, 0o755)
            let blocked = folder.appendingPathComponent("b.wav")
            try FileManager.default.createDirectory(
                at: blocked.appendingPathComponent("inside"), withIntermediateDirectories: true)
            let error = try #require(throws: WAVError.self) {
                try AtomicFile.write(Data("new".utf8), to: blocked)
            }
            #expect(error.description.contains(blocked.path))
        } else {
            let error = try #require(throws: WAVError.self) {
                try AtomicFile.write(Data("new".utf8), to: url)
            }
            #expect(error.description.contains(url.path))
        }
        #expect(try Data(contentsOf: url) == Data("kept".utf8))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.contains { $0.hasSuffix(".tmp") })
    }

    @Test func leftoversOfNamedFilesAreRemovedAndNothingElse() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = [
            ".001-leg0-step01.wav.1234-7.tmp", ".manifest.json.99-1.tmp", ".other.wav.12-1.tmp", ".hidden",
            "001-leg0-step01.wav", "notes.tmp",
        ]
        for name in names {
            #expect(
                FileManager.default.createFile(
                    atPath: folder.appendingPathComponent(name).path, contents: Data()))
        }
        AtomicFile.removeLeftovers(of: ["001-leg0-step01.wav", "manifest.json"], in: folder)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == [".hidden", ".other.wav.12-1.tmp", "001-leg0-step01.wav", "notes.tmp"])
    }
}
