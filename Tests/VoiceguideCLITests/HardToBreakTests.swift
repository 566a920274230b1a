import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 13, items 1 and 4–8: inputs that crashed eSpeak, output paths that must be written
/// through, render-route folders of other routes, and inputs bounded in memory.
@Suite(.serialized) struct HardToBreakTests {
    let cli: CommandRunner
    init() throws { cli = try CommandRunner() }

    /// 400 phonemes in one word: segfaulted libespeak-ng from every command that speaks.
    static let longPhonemes =
        "<speak><phoneme alphabet='x-sampa' ph='\(String(repeating: "t", count: 400))'>x</phoneme></speak>"
    /// A dotted abbreviation of 200 letters: smashed eSpeak's stack.
    static let longAbbreviation = "<speak>\(String(repeating: "a.", count: 200))</speak>"

    func temporaryFolder() throws -> URL { try CommandRunner.temporaryFolder() }

    func wav(_ path: String) throws -> WAVFile.Contents {
        try WAVFile.read(from: URL(fileURLWithPath: path))
    }

    // MARK: item 1

    @Test(arguments: [longPhonemes, longAbbreviation])
    func renderAndSpeakSayWhatCrashedEspeak(_ ssml: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rendered = folder.appendingPathComponent("render.wav").path
        let render = try cli.run(["render", "-o", rendered, ssml])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stderr.contains("eSpeak NG"), "the cut is a warning")
        #expect(try wav(rendered).duration > 0.5)

        let explained = try cli.run(["explain", "--json", ssml])
        #expect(explained.status == 0, "\(explained.stderr)")

        let spoken = folder.appendingPathComponent("speak.wav").path
        let speak = try cli.run(["speak", "--output", spoken, ssml])
        #expect(speak.status == 0, "\(speak.stderr)")
        #expect(try wav(spoken).duration > 0.5)
    }

    @Test func renderRouteSaysARouteWhoseInstructionsCrashedEspeak() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let route = try routeSaying(Self.longPhonemes, in: folder)
        let out = folder.appendingPathComponent("prompts")
        let result = try cli.run(["render-route", route, "--out-dir", out.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(" 0 failed"))
        let manifest =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: out.appendingPathComponent("manifest.json"))) as? [String: Any]
        let prompts = try #require(manifest?["prompts"] as? [[String: Any]])
        let long = try #require(prompts.first { ($0["ssml"] as? String) == Self.longPhonemes })
        #expect((long["duration_s"] as? Double ?? 0) > 0.5)
    }

    /// A copy of a fixture route whose first voice instruction's SSML is `ssml`.
    func routeSaying(_ ssml: String, in folder: URL, name: String = "route.json") throws -> String {
        let source = TestFixtures.directions("directions-swift_spokenInstructions.json")
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
        var routes = try #require(json["routes"] as? [[String: Any]])
        var legs = try #require(routes[0]["legs"] as? [[String: Any]])
        var steps = try #require(legs[0]["steps"] as? [[String: Any]])
        var instructions = try #require(steps[0]["voiceInstructions"] as? [[String: Any]])
        instructions[0]["ssmlAnnouncement"] = ssml
        steps[0]["voiceInstructions"] = instructions
        legs[0]["steps"] = steps
        routes[0]["legs"] = legs
        json["routes"] = routes
        let url = folder.appendingPathComponent(name)
        try JSONSerialization.data(withJSONObject: json).write(to: url)
        return url.path
    }

    // MARK: item 4

    @Test func outputToAFIFOIsWrittenThroughAndTheFIFOStays() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("out.fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let copy = folder.appendingPathComponent("copy.wav")
        for command in ["render -o", "speak --output"] {
            // A reader of the FIFO, started first, copies what it gets to a file.
            let result = try cli.runShell(
                "cat '\(fifo)' > '\(copy.path)' & \"$VOICEGUIDE\" \(command) '\(fifo)' 'Turn left'; status=$?; wait; exit $status"
            )
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try wav(copy.path).duration > 0.3)
            #expect(fileType(fifo) == S_IFIFO, "still a FIFO")
        }
    }

    @Test func outputThroughASymbolicLinkWritesItsTarget() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("target.wav").path
        let link = folder.appendingPathComponent("link.wav").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        #expect(symlink("target.wav", link) == 0)
        for command in [["render", "-o", link], ["speak", "--output", link]] {
            let result = try cli.run(command + ["Turn left"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(fileType(link, following: false) == S_IFLNK, "the link stays a link")
            #expect(try wav(target).duration > 0.3)
        }
        let dangling = folder.appendingPathComponent("dangling.wav").path
        #expect(symlink("new/../made.wav", dangling) == 0)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("new"), withIntermediateDirectories: true)
        #expect(try cli.run(["render", "-o", dangling, "Turn left"]).status == 0)
        #expect(fileType(dangling, following: false) == S_IFLNK)
        #expect(try wav(folder.appendingPathComponent("made.wav").path).duration > 0.3)
    }

    @Test func devFullIsAnErrorAndDevNullStaysADevice() throws {
        for command in [["render", "-o"], ["speak", "--output"]] {
            let full = try cli.run(command + ["/dev/full", "Turn left"])
            #expect(full.status == 1)
            #expect(full.stderr.contains("/dev/full") && full.stderr.contains("No space left on device"))
            let null = try cli.run(command + ["/dev/null", "Turn left"])
            #expect(null.status == 0, "\(null.stderr)")
            #expect(fileType("/dev/null") == S_IFCHR, "/dev/null is still a character device")
            #expect(fileType("/dev/full") == S_IFCHR)
        }
    }

    @Test func dashIsStandardOutput() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("copy.wav")
        for command in ["render -o -", "speak --output -", "render --json -o -", "render -o /dev/stdout"] {
            let result = try cli.runShell(
                "\"$VOICEGUIDE\" \(command) 'Turn left' > '\(copy.path)'", directory: folder)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try wav(copy.path).duration > 0.3, "\(command): only the WAV is on standard output")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["copy.wav"],
                "no file named -")
        }
    }

    @Test func manifestThroughASymbolicLinkWritesItsTarget() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let route = try routeSaying("<speak>Turn left</speak>", in: folder)
        let out = folder.appendingPathComponent("prompts")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let kept = folder.appendingPathComponent("kept-manifest.json").path
        #expect(symlink(kept, out.appendingPathComponent("manifest.json").path) == 0)
        let result = try cli.run(["render-route", route, "--out-dir", out.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fileType(out.appendingPathComponent("manifest.json").path, following: false) == S_IFLNK)
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: kept)))
        #expect(((manifest as? [String: Any])?["prompts"] as? [Any])?.isEmpty == false)
    }

    // MARK: item 5

    @Test func renderRouteRefusesAnotherRoutesFolderUnlessForced() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try routeSaying("<speak>Turn left</speak>", in: folder, name: "first.json")
        let second = try routeSaying("<speak>Turn right</speak>", in: folder, name: "second.json")
        let out = folder.appendingPathComponent("prompts")
        let manifest = out.appendingPathComponent("manifest.json")
        #expect(try cli.run(["render-route", first, "--out-dir", out.path, "--quiet"]).status == 0)
        let before = try Data(contentsOf: manifest)

        let resumed = try cli.run(["render-route", first, "--out-dir", out.path, "--quiet"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains(" 0 rendered"), "the same route resumes: \(resumed.stdout)")

        let refused = try cli.run(["render-route", second, "--out-dir", out.path, "--quiet"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("first.json") && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(try Data(contentsOf: manifest) == before, "the other route's manifest is untouched")

        let forced = try cli.run(["render-route", second, "--out-dir", out.path, "--quiet", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        let replaced = try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any]
        #expect((replaced?["route"] as? String)?.hasSuffix("second.json") == true)
    }

    @Test func renderRouteRefusesAFolderWhoseManifestIsNotOne() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let route = try routeSaying("<speak>Turn left</speak>", in: folder)
        let manifest = folder.appendingPathComponent("manifest.json")
        try Data("{\"mine\": true}".utf8).write(to: manifest)
        let result = try cli.run(["render-route", route, "--out-dir", folder.path, "--quiet"])
        #expect(result.status == 1)
        #expect(try Data(contentsOf: manifest) == Data("{\"mine\": true}".utf8))
    }

    // MARK: items 6, 7 and 8, under a 200 MB address-space limit

    /// What a bounded run reports: exit status, peak resident memory, what it printed.
    struct Measured {
        var status: Int32
        var maxResidentMB: Double
        var stderr: String
    }

    /// Runs `voiceguide ARGS < INPUT` through `MeasuredRun` (its peak `VmHWM`; `wait4`'s
    /// `ru_maxrss` would include this test process's own size), with
    /// 1 GB of address space at most (`ulimit -v`), so that a regression fails instead of
    /// filling the machine. (At 200 MB of address space the Swift runtime slows to seconds.)
    func runBounded(_ arguments: [String], stdin input: String) throws -> Measured {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let errors = folder.appendingPathComponent("stderr").path
        let quoted = ([cli.executable.path] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let voices = TestFixtures.packageRoot().appendingPathComponent("Voices").path
        let command =
            "ulimit -v 1048576; VOICEGUIDE_VOICES='\(voices)' exec \(quoted.joined(separator: " ")) "
            + "< '\(input)' > '\(errors)' 2>&1"
        let run = try MeasuredRun.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", command], environment: ProcessInfo.processInfo.environment
        )
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        return Measured(
            status: run.status, maxResidentMB: Double(run.maxResidentBytes) / 1_048_576, stderr: stderr)
    }

    @Test(arguments: [
        ["check", "-"], ["render", "-o", "/dev/null", "-"], ["render", "--text", "-o", "/dev/null", "-"],
    ])
    func endlessStandardInputIsRefusedWithinTheLimit(_ arguments: [String]) throws {
        let result = try runBounded(arguments, stdin: "/dev/zero")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("over the limit of 65536 bytes"), "\(result.stderr)")
        #expect(result.maxResidentMB < 200)
    }

    /// Routes and traces on standard input: `/dev/zero` stops one byte past their limit.
    @Test func endlessRoutesAndTracesAreRefusedWithinTheLimit() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let route = TestFixtures.packageRoot().appendingPathComponent("Examples/routes/airport-cargo.json")
            .path
        let runs: [([String], String)] = [
            (["drive", "-"], "<stdin> is over the limit of 16 MiB (16777216 bytes)"),
            (
                ["render-route", "-", "--out-dir", folder.path + "/out"],
                "<stdin> is over the limit of 16 MiB"
            ),
            (["drive", route, "--trace", "-"], "<stdin> is over the limit of 32 MiB (33554432 bytes)"),
            (
                ["navigate", route, "--trace", "-", "--output", folder.path + "/x.wav"],
                "<stdin> is over the limit of 32 MiB"
            ),
        ]
        for (arguments, message) in runs {
            let result = try runBounded(arguments, stdin: "/dev/zero")
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.maxResidentMB < 200, "\(arguments)")
        }
        #expect(RouteLimits().maximumFileBytes == 16 << 20)
        #expect(RecordedTrace.maximumFileBytes == 32 << 20)
    }

    @Test func longTextAndDigitsAreRefusedWithAClearError() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("long.txt")
        try Data(String(repeating: "Turn left onto Main Street. ", count: 2400).utf8).write(to: text)
        let long = try runBounded(["render", "--text", "-o", "/dev/null", "-"], stdin: text.path)
        #expect(long.status == 1)
        #expect(long.stderr.contains("over the limit of 65536 bytes"), "\(long.stderr)")
        #expect(long.maxResidentMB < 200)

        let digits = folder.appendingPathComponent("digits.ssml")
        try Data(
            "<speak><say-as interpret-as='digits'>\(String(repeating: "4", count: 20_000))</say-as></speak>"
                .utf8
        )
        .write(to: digits)
        let spoken = try runBounded(["render", "-o", "/dev/null", "-"], stdin: digits.path)
        #expect(spoken.status == 1)
        #expect(spoken.stderr.contains("s of speech; the limit is 180 s"), "\(spoken.stderr)")
        #expect(spoken.maxResidentMB < 200)

        let medium = folder.appendingPathComponent("medium.txt")
        try Data(String(repeating: "Turn left onto Main Street. ", count: 2000).utf8).write(to: medium)
        let refused = try runBounded(["render", "--text", "-o", "/dev/null", "-"], stdin: medium.path)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("s of speech; the limit is 180 s"), "\(refused.stderr)")
        #expect(refused.maxResidentMB < 200)
    }

    /// The type bits (`S_IFIFO`, `S_IFCHR`, `S_IFLNK`, …) of `path`.
    func fileType(_ path: String, following: Bool = true) -> mode_t {
        var info = stat()
        let status = following ? stat(path, &info) : lstat(path, &info)
        return status == 0 ? info.st_mode & S_IFMT : 0
    }
}
