import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// Bad input and bad output paths, as a user meets them: errors in words with the place.
@Suite(.serialized) struct HardInputCommandTests {
    let cli: CommandRunner
    init() throws { cli = try CommandRunner() }

    var example: String {
        TestFixtures.packageRoot().appendingPathComponent("Examples/routes/airport-cargo.json").path
    }

    @Test func bareSpeedIsAnErrorNamingTheUnits() throws {
        let result = try cli.run(["drive", example, "--speed", "50"])
        #expect(result.status == 64)
        #expect(
            result.stderr.contains("--speed 50 has no unit: write 50km/h, 50mph or 50m/s"), "\(result.stderr)"
        )
    }

    @Test func speedBelowTheSlowestIsRaisedWithAWarning() throws {
        let route = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: route) }
        let file = route.appendingPathComponent("short.json")
        let json =
            #"{"legs":[{"steps":[{"maneuver":{"type":"depart"},"distance":2,"duration":1},"#
            + #"{"maneuver":{"type":"arrive"},"distance":0,"duration":0}],"distance":2,"duration":1}],"#
            + #""distance":2,"duration":1}"#
        try Data(json.utf8).write(to: file)
        let result = try cli.run(["drive", file.path, "--speed", "0.001m/s", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "warning: --speed 0.001m/s is below the slowest simulated speed, 0.1 m/s"), "\(result.stderr)"
        )
        let fast = try cli.run(["drive", file.path, "--speed", "50km/h", "--json"])
        #expect(fast.status == 0 && !fast.stderr.contains("warning"), "\(fast.stderr)")
    }

    @Test func hugeDistanceIsALocatedErrorNotATrap() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("huge.json")
        let json =
            #"{"legs":[{"steps":[{"maneuver":{"type":"depart"},"distance":1e23,"duration":10},"#
            + #"{"maneuver":{"type":"arrive"},"distance":0,"duration":0}],"distance":2,"duration":1}],"#
            + #""distance":2,"duration":1}"#
        try Data(json.utf8).write(to: file)
        for command in [
            ["drive", file.path], ["render-route", file.path, "--out-dir", folder.path + "/out"],
        ] {
            let result = try cli.run(command)
            #expect(result.status == 1, "\(command[0]): \(result.stderr)")
            #expect(result.stderr.contains("huge.json: legs[0].steps[0].distance: "), "\(result.stderr)")
            #expect(result.stderr.contains("longer than any road route"))
        }
    }

    @Test func routeSyntaxErrorGivesLineAndColumn() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("broken.json")
        try Data("{\"legs\": [\n  {\"steps\": [}\n]}".utf8).write(to: file)
        let result = try cli.run(["drive", file.path])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "broken.json: line 2, column 14 (byte 24): '}' where a value was expected"),
            "\(result.stderr)")
    }

    @Test func outDirUnderAFileSaysSoInWords() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let blocker = folder.appendingPathComponent("FILE")
        try Data("x".utf8).write(to: blocker)
        let target = blocker.path + "/sub"
        for command in [
            ["render-route", example, "--out-dir", target], ["render", "--out-dir", target, "Turn left"],
        ] {
            let result = try cli.run(command)
            #expect(result.status != 0)
            #expect(
                result.stderr.contains(
                    "cannot create the folder \(target): \(blocker.path) is a file, not a folder"),
                "\(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain"))
        }
    }

    /// The SSML of issue 13 item 15: a 400-digit cardinal, a voice not installed, pitch −50 %.
    static let warned =
        "<speak>\n<say-as interpret-as=\"cardinal\">" + String(repeating: "7", count: 400)
        + "</say-as>\n<voice name=\"Joanna\">hello</voice>\n<prosody pitch=\"-50%\">low</prosody>\n</speak>\n"

    @Test func checkReportsEveryWarningRenderGivesWithFileLineAndColumn() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("warned.ssml")
        try Data(Self.warned.utf8).write(to: file)
        let expected = [
            "\(file.path):2:33: warning: <say-as>: cannot read",
            "\(file.path):3:22: warning: <voice name=\"Joanna\">",
            "\(file.path):4:23: warning: pitch -25 is outside eSpeak NG's 0–99",
            // The 400 digits as words are one clause too long for eSpeak NG: render cuts it.
            "\(file.path): warning: text with no clause break for more than 150 bytes was cut",
        ]
        let check = try cli.run(["check", file.path])
        #expect(check.status == 0, "\(check.stderr)")
        let checked = check.stdout.split(separator: "\n").map(String.init)
        #expect(checked.count == 4, "\(check.stdout)")
        for (line, prefix) in zip(checked, expected) { #expect(line.hasPrefix(prefix), "\(line)") }

        let render = try cli.run(["render", "-o", folder.appendingPathComponent("w.wav").path, file.path])
        #expect(render.status == 0, "\(render.stderr)")
        let rendered = render.stderr.split(separator: "\n").map(String.init).filter { $0.contains("warning") }
        #expect(Set(rendered) == Set(checked), "render: \(rendered)\ncheck: \(checked)")
    }
}

extension HardInputCommandTests {
    @Test func aDriveLongerThanAnyIsRefusedBeforeItStarts() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("long.json")
        let json =
            #"{"legs":[{"steps":[{"maneuver":{"type":"depart"},"distance":40000000,"duration":2500000},"#
            + #"{"maneuver":{"type":"arrive"},"distance":0,"duration":0}],"distance":40000000,"#
            + #""duration":2500000}],"distance":40000000,"duration":2500000}"#
        try Data(json.utf8).write(to: file)
        let result = try cli.run(["drive", file.path, "--speed", "1m/s"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("at this speed the drive takes 462 days; the limit is 30 days"),
            "\(result.stderr)")
    }
}

extension HardInputCommandTests {
    @Test func unreadableRouteSaysWhy() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let asFolder = try cli.run(["drive", folder.path])
        #expect(asFolder.status == 66)
        #expect(
            asFolder.stderr.contains("cannot read \(folder.path): it is a folder, not a file"),
            "\(asFolder.stderr)")
        let missing = folder.appendingPathComponent("none.json").path
        let absent = try cli.run(["render-route", missing, "--out-dir", folder.path + "/out"])
        #expect(absent.status == 66)
        #expect(absent.stderr.contains("cannot read \(missing): no such file"), "\(absent.stderr)")
    }
}

/// Route and trace files are read whole, but never more than their limit: a pipe or standard
/// input works, `/dev/zero` stops at once.
extension HardInputCommandTests {
    @Test func aRouteFromStandardInputOrAPipeIsDrivenAsFromItsFile() throws {
        let fromFile = try cli.run(["drive", example, "--speed", "50km/h"])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        let fromStdin = try cli.run(
            ["drive", "-", "--speed", "50km/h"], input: try Data(contentsOf: URL(fileURLWithPath: example)))
        #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
        #expect(fromStdin.stdout == fromFile.stdout)
        // A FIFO with a writer (as `drive <(curl …)` gives): was "permission denied".
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("route.pipe").path
        let piped = try cli.runShell(
            "mkfifo '\(fifo)' && (cat '\(example)' > '\(fifo)' &) && '\(cli.executable.path)' drive '\(fifo)' --speed 50km/h"
        )
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == fromFile.stdout)
    }

    /// `render-route -`: the route comes from standard input, and a second run with the same
    /// route keeps what the first rendered (the manifest's key is the route's bytes).
    @Test func renderRouteFromStandardInputResumes() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try Data(contentsOf: URL(fileURLWithPath: example))
        let out = folder.appendingPathComponent("out").path
        let first = try cli.run(["render-route", "-", "--out-dir", out], input: data)
        #expect(first.status == 0, "\(first.stderr)")
        let wavs = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".wav") }
        #expect(wavs.count >= 3)
        let second = try cli.run(["render-route", "-", "--out-dir", out], input: data)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(first.stdout.contains(" 0 kept"), "\(first.stdout)")
        #expect(second.stdout.contains(": 0 rendered, "), "\(second.stdout)")
    }
}

/// SSML files are read like routes (one bounded read): a folder says why, a pipe is read.
extension HardInputCommandTests {
    @Test func ssmlFromAFolderSaysWhyAndFromAPipeIsRead() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rendered = try cli.run(["render", folder.path, "-o", folder.path + "/x.wav"])
        #expect(rendered.status == 66)
        #expect(
            rendered.stderr.contains("cannot read \(folder.path): it is a folder, not a file"),
            "\(rendered.stderr)")
        let checked = try cli.run(["check", folder.path])
        #expect(checked.status == 1)
        #expect(
            checked.stdout.contains("\(folder.path): error: cannot read \(folder.path): it is a folder"),
            "\(checked.stdout)")
        let fifo = folder.appendingPathComponent("prompt.pipe").path
        let piped = try cli.runShell(
            "mkfifo '\(fifo)' && (printf '<speak>Turn <break time=\"2s\"/> left</speak>' > '\(fifo)' &) && "
                + "'\(cli.executable.path)' explain '\(fifo)'")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.contains("2. pause 2.000 s"), "\(piped.stdout)")
    }
}
