import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// One ALSA configuration per test process (ALSA reads its configuration once): a copy of
/// `Tests/Fixtures/alsa/capture.conf` whose capture file is a symbolic link each test points where it
/// wants (a file of its own, or `/dev/full` to make the device fail), set through
/// `ALSA_CONFIG_PATH` before the first ALSA call.
final class ALSATestEnvironment: Sendable {
    static let shared = ALSATestEnvironment()

    let folder: URL
    /// The path the configuration's `capture` PCM writes to (a symbolic link).
    let captureLink: URL

    private init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "alsa-tests-\(UUID().uuidString)")
        captureLink = folder.appendingPathComponent("capture.raw")
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let template = try! String(
            contentsOf: TestFixtures.folder().appendingPathComponent("alsa/capture.conf"), encoding: .utf8)
        let config =
            template
            .replacingOccurrences(of: "@CAPTURE@", with: captureLink.path)
            // A hint, so that device listing has something to show.
            .replacingOccurrences(
                of: "pcm.capture {", with: "pcm.capture {\n    hint { show on description \"Test capture\" }")
                // The stock configuration's `file:'PATH',FORMAT` PCM (ALSA_CONFIG_PATH replaces it).
                + """

                pcm.null { type null }
                pcm.file {
                    @args [ FILE FORMAT ]
                    @args.FILE { type string }
                    @args.FORMAT { type string default raw }
                    type file
                    file $FILE
                    format $FORMAT
                    slave.pcm null
                }

                """
        let configURL = folder.appendingPathComponent("asound.conf")
        try! config.write(to: configURL, atomically: true, encoding: .utf8)
        setenv("ALSA_CONFIG_PATH", configURL.path, 1)
    }

    /// Points the `capture` device at a fresh file and returns the file's URL.
    func captureFile(_ name: String) throws -> URL {
        let target = folder.appendingPathComponent("\(name)-\(UUID().uuidString).raw")
        try pointCapture(at: target.path)
        return target
    }

    /// Makes every write to the `capture` device fail (ENOSPC), like a device that went away.
    func breakCapture() throws { try pointCapture(at: "/dev/full") }

    private func pointCapture(at path: String) throws {
        try? FileManager.default.removeItem(at: captureLink)
        try FileManager.default.createSymbolicLink(atPath: captureLink.path, withDestinationPath: path)
    }

    /// The samples in a capture file (S16 little-endian), empty when there is no file.
    static func samples(in url: URL) -> [Int16] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count - 1, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
    }
}

/// `captured` is `expected` followed only by zeros (ALSA pads the last period).
func isPaddedCopy(_ captured: [Int16], of expected: [Int16]) -> Bool {
    captured.count >= expected.count && Array(captured.prefix(expected.count)) == expected
        && captured.dropFirst(expected.count).allSatisfy { $0 == 0 }
}

/// Runs `body` with file descriptor 2 sent to a file and returns what was written there.
func capturingStandardError(_ body: () throws -> Void) rethrows -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: url) }
    let file = open(url.path, O_WRONLY)
    let saved = dup(2)
    dup2(file, 2)
    defer {
        dup2(saved, 2)
        close(saved)
        close(file)
    }
    try body()
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
}
