import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@Suite(.serialized) struct RenderCommandTests {
    let cli: CommandRunner

    init() throws { cli = try CommandRunner() }

    @Test func rendersAStringToAValidWAVWithJSON() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("turn.wav")
        let ssml = #"<speak>Turn left<mark name="m1"/> onto Main Street</speak>"#
        let result = try cli.run(["render", "--json", "-o", out.path, ssml])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["path"] as? String == out.path)
        #expect(object["sample_rate"] as? Int == 22_050)
        let samples = try #require(object["samples"] as? Int)
        let wav = try WAVFile.read(from: out)
        #expect(wav.sampleRate == 22_050 && wav.channels == 1 && wav.bitsPerSample == 16)
        #expect(wav.samples.count == samples)
        let duration = try #require(object["duration_s"] as? Double)
        #expect(abs(duration - wav.duration) < 0.002)
        #expect(duration > 0.8 && duration < 4)
        let marks = try #require(object["marks"] as? [[String: Any]])
        #expect(marks.count == 1)
        #expect(marks.first?["name"] as? String == "m1")
        let words = try #require(object["words"] as? [[String: Any]])
        #expect(words.count >= 5)
        #expect(object["warnings"] as? [String] == [])
    }

    @Test func severalInputsGoToOutDirNamedAfterInputs() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("first.ssml")
        try Data("<speak>Turn right</speak>".utf8).write(to: a)
        let out = folder.appendingPathComponent("out")
        let result = try cli.run(["render", "--out-dir", out.path, a.path, "Keep left"], input: nil)
        #expect(result.status == 0, "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(names == ["first.wav", "keep-left.wav"])
    }

    @Test func aBatchReportsInInputOrderAndGoesOnPastFailures() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var inputs: [String] = []
        for index in 0..<12 {
            let file = folder.appendingPathComponent(String(format: "p%02d.ssml", index))
            let ssml =
                index % 5 == 3
                ? "<speak><prosody rate=\"slow\">broken</speak>"
                : "<speak>In \(index * 100) feet, turn left.</speak>"
            try Data(ssml.utf8).write(to: file)
            inputs.append(file.path)
        }
        let out = folder.appendingPathComponent("out")
        let result = try cli.run(["render", "--json", "--out-dir", out.path] + inputs)
        #expect(result.status == 1)
        let paths = result.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["path"] as? String
        }
        let good = (0..<12).filter { $0 % 5 != 3 }
        #expect(
            paths.map { URL(fileURLWithPath: $0).lastPathComponent }
                == good.map { String(format: "p%02d.wav", $0) })
        #expect(result.stderr.contains("p03.ssml:1:") && result.stderr.contains("p08.ssml:1:"))
        for path in paths {
            #expect(try WAVFile.read(from: URL(fileURLWithPath: path)).samples.count > 5_000)
        }
    }

    @Test func standardInputIsRead() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("s.wav")
        let result = try cli.run(["render", "-o", out.path, "-"], input: Data("<speak>Hello</speak>".utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try WAVFile.read(from: out).samples.count > 2_000)
    }

    @Test func malformedSSMLIsALocatedErrorAndNoFile() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.ssml")
        try Data("<speak>\n  <prosody rate=\"slow\">Turn</speak>".utf8).write(to: bad)
        let result = try cli.run(["render", "--out-dir", folder.path, bad.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("bad.ssml:2:"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("bad.wav").path))
    }

    @Test func unknownVoiceListsTheKnownOnes() throws {
        let result = try cli.run(["render", "--voice", "xx-YY", "-o", "/tmp/never.wav", "Hello"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("unknown voice 'xx-YY'"))
        #expect(result.stderr.contains("en-US") && result.stderr.contains("de-DE"))
    }

    @Test(arguments: [
        ["render"], ["render", "--bogus", "x"], ["render", "-o", "a.wav", "one", "two"],
        ["render", "--ssml", "--text", "x"],
        ["nosuchcommand"], [],
    ])
    func usageErrorsExit64(_ arguments: [String]) throws {
        let result = try cli.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains("usage"))
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: ["render", "check", "voices", "speak", "devices", "drive", "render-route", "explain"])
    func everyCommandHasHelp(_ command: String) throws {
        let result = try cli.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("usage: voiceguide \(command)"))
    }
}

@Suite struct CheckCommandTests {
    let cli: CommandRunner
    init() throws { cli = try CommandRunner() }

    @Test func goodAndBadFilesAreReportedWithPositions() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.ssml")
        let vendor = folder.appendingPathComponent("vendor.ssml")
        let bad = folder.appendingPathComponent("bad.ssml")
        try Data("<speak>Turn left</speak>".utf8).write(to: good)
        try Data("<speak><amazon:breath/>Turn left</speak>".utf8).write(to: vendor)
        try Data("<speak>\n<amazon: effectname=\"drc\">Turn</amazon:effect></speak>".utf8).write(to: bad)

        let ok = try cli.run(["check", good.path, vendor.path])
        #expect(ok.status == 0, "\(ok.stdout)")
        #expect(ok.stdout.contains("vendor.ssml:1:") && ok.stdout.contains("warning"))

        let failed = try cli.run(["check", good.path, bad.path])
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("bad.ssml:2:"))
        #expect(failed.stdout.contains("error"))
    }

    @Test func samplesAllParse() throws {
        let folder = TestFixtures.packageRoot().appendingPathComponent("ssml-samples")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".ssml")
        }
        .map { folder.appendingPathComponent($0).path }
        #expect(files.count >= 20)
        let result = try cli.run(["check"] + files)
        #expect(result.status == 0, "\(result.stdout)")
    }
}

@Suite struct VoicesCommandTests {
    @Test func listsProfilesAndInstalledVoices() throws {
        let result = try CommandRunner().run(["voices", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let profiles = try #require(object["profiles"] as? [[String: Any]])
        #expect(
            Set(profiles.compactMap { $0["id"] as? String }).isSuperset(of: [
                "en-US", "en-GB", "fr-FR", "de-DE", "es-ES",
            ]))
        let installed = try #require(object["espeak_voices"] as? [[String: Any]])
        #expect(installed.count > 50)
    }
}
