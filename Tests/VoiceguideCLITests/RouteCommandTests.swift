import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// `drive`, `render-route` and `explain` run as a user runs them.
@Suite(.serialized) struct RouteCommandTests {
    let cli: CommandRunner
    init() throws { cli = try CommandRunner() }

    var example: String {
        TestFixtures.packageRoot().appendingPathComponent("Examples/routes/airport-cargo.json").path
    }

    func fixture(_ name: String) -> String {
        TestFixtures.directions("\(name)").path
    }

    @Test(arguments: ["50km/h", "130km/h", "route"])
    func driveJSONHasExactlyTheIssueFieldsAndPassesItsChecks(_ speed: String) throws {
        let result = try cli.run(["drive", example, "--speed", speed, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { String($0) }
        let objects = try lines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let prompts = objects.dropLast()
        let summary = try #require(objects.last)
        #expect(prompts.count >= 8)
        let promptKeys: Set = [
            "event", "time_s", "leg", "step", "tier", "text", "distance_m", "speed_mps", "duration_s",
            "ends_before_maneuver_s", "spoken_distance_m", "gain_db", "chime",
        ]
        for prompt in prompts {
            #expect(Set(prompt.keys) == promptKeys)
            #expect(prompt["event"] as? String == "prompt")
            #expect(
                ["prepare", "approach", "final", "arrival", "continue", "custom"].contains(
                    prompt["tier"] as? String ?? ""))
            #expect(
                (prompt["ends_before_maneuver_s"] as? Double ?? -1) >= 0, "no prompt ends after its maneuver")
        }
        #expect(
            Set(summary.keys) == [
                "event", "maneuvers", "feasible", "final_in_window", "late", "overlaps", "stale", "repeats",
                "max_prompts_per_maneuver",
            ])
        #expect(summary["late"] as? Int == 0 && summary["overlaps"] as? Int == 0)
        #expect(summary["repeats"] as? Int == 0 && summary["stale"] as? Int == 0)
        #expect(summary["final_in_window"] as? Int == summary["feasible"] as? Int)
        #expect((summary["max_prompts_per_maneuver"] as? Int ?? 99) <= 3)
    }

    @Test func driveTimesCanBeRecomputedFromTheRoute() throws {
        // At a constant speed, time_s + duration_s + ends_before_maneuver_s is when the vehicle
        // reaches the announced maneuver: the sum of the distances of the steps before it / speed.
        let route = try Route.decode(from: Data(contentsOf: URL(fileURLWithPath: example)))
        let result = try cli.run(["drive", example, "--speed", "36km/h", "--json"])
        #expect(result.status == 0)
        for line in result.stdout.split(separator: "\n").dropLast() {
            let prompt = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let step = try #require(prompt["step"] as? Int)
            let maneuverTime = route.legs[0].steps.prefix(step).reduce(0) { $0 + $1.distance } / 10
            let sum =
                (prompt["time_s"] as! Double) + (prompt["duration_s"] as! Double)
                + (prompt["ends_before_maneuver_s"] as! Double)
            #expect(abs(sum - maneuverTime) < 0.01)
        }
    }

    @Test func driveTableAndOutputWAV() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("drive.wav")
        let result = try cli.run([
            "drive", fixture("directions-swift_spokenInstructions.json"), "--speed", "50km/h", "--output",
            out.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("TIME") && result.stdout.contains("late: 0, overlaps: 0"))
        let wav = try WAVFile.read(from: out)
        #expect(wav.duration > 300)  // a 6.4 km drive at 50 km/h
        #expect(AudioLevel.rmsDB(wav.samples) > -60)
    }

    @Test func drivePlaysThroughALSA() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let capture = folder.appendingPathComponent("drive.raw")
        let result = try cli.run([
            "drive", example, "--speed", "route", "--play", "--speedup", "400", "--device",
            "file:'\(capture.path)',raw",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = try Data(contentsOf: capture)
        #expect(bytes.count > 22_050 * 2 * 20, "at least 20 s of prompts were played")
    }

    /// A route of 1,000 steps, each with its own street name (so every prompt is new): the drive
    /// keeps lengths, not audio, so its peak memory stays far below the ~230 KB per step it took
    /// when every rendered prompt was kept.
    @Test func driveMemoryIsProportionalToTheRoute() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let routeFile = folder.appendingPathComponent("long.json")
        try Self.longRoute(steps: 1_000).write(to: routeFile)
        let run = try cli.measure(["drive", routeFile.path, "--json"])
        #expect(run.status == 0)
        let megabytes = Double(run.maxResidentBytes) / 1_048_576
        print("DRIVE 1000 steps: peak \(megabytes) MiB")
        #expect(megabytes < 120, "peak \(megabytes) MiB for 1,000 steps")
    }

    /// Route JSON with `steps` steps of 400 m, each maneuver onto a street of its own name.
    static func longRoute(steps: Int) -> Data {
        var items = [
            #"{"distance":400,"duration":30,"name":"Road 0","maneuver":{"type":"depart","location":[11.5,48.1]}}"#
        ]
        for index in 1..<steps - 1 {
            let modifier = index % 2 == 0 ? "left" : "right"
            items.append(
                #"{"distance":400,"duration":30,"name":"Road \#(index)","maneuver":{"type":"turn","modifier":"\#(modifier)","location":[\#(11.5 + Double(index) * 0.001),48.1]}}"#
            )
        }
        items.append(
            #"{"distance":0,"duration":0,"name":"End","maneuver":{"type":"arrive","location":[12.5,48.1]}}"#)
        let total = 400 * (steps - 1)
        let sizes = #""distance":\#(total),"duration":\#(30 * (steps - 1))"#
        let json =
            #"{"code":"Ok","routes":[{\#(sizes),"legs":[{\#(sizes),"steps":["#
            + items.joined(separator: ",") + "]}]}]}"
        return Data(json.utf8)
    }

    /// The timeline says which output latency it planned with: the playing sink's, plus the
    /// lead-in; the prompts still end in their window.
    @Test func driveShowsTheOutputLatencyItPlannedWith() throws {
        let plain = try cli.run(["drive", example, "--speed", "90km/h"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(
            plain.stdout.contains("output latency: 0.150 s (the timing model's default) + lead-in 0.000 s"))
        let led = try cli.run(["drive", example, "--speed", "90km/h", "--lead-in", "1500"])
        #expect(led.status == 0, "\(led.stderr)")
        #expect(led.stdout.contains("+ lead-in 1.500 s = 1.650 s"), "\(led.stdout)")
        #expect(led.stdout.contains("late: 0, overlaps: 0"))
        let played = try cli.run([
            "drive", example, "--speed", "90km/h", "--play", "--sink", "null", "--speedup", "1000",
        ])
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.stdout.contains("output latency: 0.000 s (null output)"))
        #expect(try cli.run(["drive", example, "--lead-in", "-5"]).status == 64)
    }

    /// `drive --engine command:…` measures and speaks its prompts with that engine, which gets
    /// normalised SSML (a command that records its stdin shows it).
    @Test func driveTakesACommandEngine() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = folder.appendingPathComponent("stdin.txt")
        let out = folder.appendingPathComponent("drive.wav")
        let result = try cli.run([
            "drive", example, "--speed", "50km/h", "--engine",
            "command:sh -c 'tee -a \(record.path) | espeak-ng -m --stdout'", "--output", out.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("late: 0, overlaps: 0"))
        let received = try String(contentsOf: record, encoding: .utf8)
        #expect(received.contains("<speak>"))
        #expect(received.contains("Cargo"))
        #expect(try WAVFile.read(from: out).duration > 10)
    }

    /// A device that does not exist is reported before the drive starts: no timeline, exit 69.
    @Test func drivePlayReportsAMissingDeviceFirst() throws {
        let result = try cli.run(["drive", example, "--play", "--device", "nosuch"])
        #expect(result.status == 69)
        #expect(result.stdout.isEmpty, "the drive did not run")
        #expect(result.stderr.contains("nosuch"))
        #expect(result.stderr.contains("voiceguide devices"))
    }

    @Test func badRouteNamesThePathToTheField() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.json")
        try Data(#"{"routes":[{"legs":[{"steps":[{"distance":"far"}]}]}]}"#.utf8).write(to: bad)
        let result = try cli.run(["drive", bad.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("routes[0].legs[0].steps[0]"))
        #expect(try cli.run(["drive", example, "--speed", "-5km/h"]).status == 64)
        #expect(try cli.run(["drive", example, "--speed", "nan"]).status == 64)
        #expect(try cli.run(["drive", example, "--gps-noise", "-1"]).status == 64)
    }

    @Test func renderRouteWritesEveryPromptAndResumes() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let route = fixture("navigation-ios_route-with-tertiary.json")
        let first = try cli.run(["render-route", route, "--out-dir", folder.path, "--jobs", "2", "--quiet"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("20 prompts: 20 rendered, 0 kept"))
        let manifestURL = folder.appendingPathComponent("manifest.json")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        let prompts = try #require(manifest["prompts"] as? [[String: Any]])
        #expect(prompts.count == 20)
        for prompt in prompts {
            let file = try #require(prompt["file"] as? String)
            let wav = try WAVFile.read(from: folder.appendingPathComponent(file))
            #expect(abs(wav.duration - (prompt["duration_s"] as? Double ?? 0)) < 0.002)
            #expect(prompt["text"] is String && prompt["ssml"] is String)
            #expect(prompt["leg"] is Int && prompt["step"] is Int)
        }
        // A second run keeps everything; a removed file is rendered again.
        try FileManager.default.removeItem(at: folder.appendingPathComponent(prompts[3]["file"] as! String))
        let second = try cli.run(["render-route", route, "--out-dir", folder.path, "--quiet"])
        #expect(second.stdout.contains("20 prompts: 1 rendered, 19 kept"), "\(second.stdout)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.filter { $0.hasSuffix(".wav") }.count == 20)
        #expect(!names.contains { $0.hasSuffix(".tmp") })
    }

    @Test func renderRouteRendersARepeatedPromptOnceIntoEachFile() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try cli.run(
            [
                "render-route", fixture("directions-swift_spokenInstructions.json"), "--out-dir", folder.path,
                "--quiet",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("26 prompts: 26 rendered, 0 kept"), "\(result.stdout)")
        let manifest = try JSONDecoder().decode(
            ManifestFile.self, from: Data(contentsOf: folder.appendingPathComponent("manifest.json")))
        #expect(manifest.prompts.count == 26)
        let repeated = Dictionary(grouping: manifest.prompts, by: \.ssml).values.filter { $0.count > 1 }
        #expect(repeated.count == 1)
        for group in repeated {
            let files = try group.map { try Data(contentsOf: folder.appendingPathComponent($0.file)) }
            #expect(Set(files).count == 1)
            #expect(Set(group.map(\.file)).count == group.count)
        }
    }

    @Test func renderRouteKilledMidwayResumesFromItsLastManifest() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let route = fixture("directions-swift_tollAndFerryDirectionsRoute.json")  // 82 prompts
        let manifestURL = folder.appendingPathComponent("manifest.json")
        let process = try cli.launch(["render-route", route, "--out-dir", folder.path, "--quiet"])
        // The manifest first appears after 32 prompts; stop the run there, with no warning.
        let deadline = Date(timeIntervalSinceNow: 60)
        while process.isRunning, !FileManager.default.fileExists(atPath: manifestURL.path), Date() < deadline
        {
            usleep(2_000)
        }
        #expect(kill(process.processIdentifier, SIGKILL) == 0)
        process.waitUntilExit()
        // The kill happened: the run died of SIGKILL, part-way.
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        let partial = try JSONDecoder().decode(ManifestFile.self, from: Data(contentsOf: manifestURL))
        #expect(partial.prompts.count >= 32 && partial.prompts.count < 82)

        let resumed = try cli.run(["render-route", route, "--out-dir", folder.path, "--quiet"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let kept =
            Int(resumed.stdout.split(separator: " ").drop { $0 != "rendered," }.dropFirst().first ?? "") ?? -1
        #expect(kept >= partial.prompts.count, "\(resumed.stdout)")
        let final = try JSONDecoder().decode(ManifestFile.self, from: Data(contentsOf: manifestURL))
        #expect(final.prompts.count == 82)
        for prompt in final.prompts {
            let wav = try WAVFile.read(from: folder.appendingPathComponent(prompt.file))
            #expect(wav.samples.count == prompt.samples)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.contains { $0.hasSuffix(".tmp") })
    }

    @Test func renderRouteFinishesWhenAWorkerDies() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let route = fixture("directions-swift_tollAndFerryDirectionsRoute.json")  // 82 prompts
        let process = try cli.launch([
            "render-route", route, "--out-dir", folder.path, "--jobs", "2", "--quiet",
        ])
        // Find the worker (a child of the run) once it has written a file, and kill it.
        let deadline = Date(timeIntervalSinceNow: 60)
        var killed = false
        while process.isRunning, !killed, Date() < deadline {
            let wavs = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter {
                $0.hasSuffix(".wav")
            }
            if let wavs, wavs.count >= 4, let worker = Self.children(of: process.processIdentifier).first {
                killed = kill(worker, SIGKILL) == 0
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        #expect(killed)
        #expect(process.terminationStatus == 0)
        let manifest = try JSONDecoder().decode(
            ManifestFile.self, from: Data(contentsOf: folder.appendingPathComponent("manifest.json")))
        #expect(manifest.prompts.count == 82)
        for prompt in manifest.prompts {
            #expect(
                try WAVFile.read(from: folder.appendingPathComponent(prompt.file)).samples.count
                    == prompt.samples)
        }
        #expect(
            try !FileManager.default.contentsOfDirectory(atPath: folder.path).contains {
                $0.hasSuffix(".tmp")
            })
    }

    /// The processes whose parent is `pid` (from /proc).
    static func children(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let child = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // pid (comm) state ppid …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid ? child : nil
        }
    }

    /// The fields of `manifest.json` these tests read.
    struct ManifestFile: Decodable {
        struct Prompt: Decodable {
            var file: String
            var ssml: String?
            var samples: Int
        }
        var prompts: [Prompt]
    }

    @Test func renderRouteBuildsPromptsForRoutesWithoutVoiceInstructions() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try cli.run(["render-route", example, "--out-dir", folder.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: folder.appendingPathComponent("manifest.json")))
                as? [String: Any])
        let texts = (manifest["prompts"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        #expect(texts.contains("Turn right onto Harbor Road"))
        #expect(texts.contains { $0.hasPrefix("Your destination is ahead on your right") })
    }

    @Test func explainShowsNormalisedTextAndPhonemes() throws {
        let ssml = #"<speak>Take I-280 to <phoneme alphabet="ipa" ph="təˈmɑːtoʊ">tomato</phoneme></speak>"#
        let result = try cli.run(["explain", "--json", ssml])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let segments = try #require(object["segments"] as? [[String: Any]])
        #expect(segments.count == 2)
        #expect(segments[0]["kind"] as? String == "text")
        #expect((segments[0]["text"] as? String)?.contains("I two eighty") == true)
        #expect(segments[0]["voice"] as? String == "en-us")
        #expect((segments[0]["phonemes_ipa"] as? String)?.contains("ˈeɪɾi") == true)
        #expect(segments[1]["kind"] as? String == "phonemes")
        #expect(segments[1]["text"] as? String == "[[t@'mA:toU]]")
        #expect(object["warnings"] as? [String] == [])
        #expect((object["espeak_calls"] as? [String])?.count == 2)  // phonemes are a call of their own
        let text = try cli.run(["explain", ssml])
        #expect(text.stdout.contains("eSpeak:   Take I two eighty to"))

        // Neighbours spoken alike: three segments, one call.
        let exit = #"<speak>Take exit <say-as interpret-as="address">53</say-as> towards Washington</speak>"#
        let joined = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try cli.run(["explain", "--json", exit]).stdout.utf8))
                as? [String: Any])
        #expect((joined["segments"] as? [Any])?.count == 3)
        let calls = try #require(joined["espeak_calls"] as? [String])
        #expect(calls.count == 1 && calls[0].hasPrefix("Take exit fifty"))
        #expect(try cli.run(["explain", exit]).stdout.contains("its calls:\n   1. Take exit fifty"))
    }
}
