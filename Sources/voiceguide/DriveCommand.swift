import ALSABackend
import DriveSimulation
import Foundation
import VoiceGuidance

/// `voiceguide drive`: simulate a drive over a route and show when each prompt is spoken.
enum DriveCommand: Command {
    static let name = "drive"
    static let summary = "simulate a drive over a route; print the prompt timeline"
    static let usage = """
        usage: voiceguide drive ROUTE.json [--speed 50km/h|route] [--gps-noise METERS] [--seed N]
                                [--voice ID] [--units metric|imperial] [--no-server-instructions]
                                [--engine espeak|command:PROGRAM…]
                                [--trace FILE | --motion constant|realistic]
                                [--play [--device NAME] [--speedup N] | --output drive.wav] [--json]

        Drives the route on a simulated clock (progress updates once a second; the vehicle leaves
        at time 0 and never stops) through the VoiceController an app uses, with prompt lengths
        from the real renderer. Prints what the controller spoke, when, and a summary.

          --speed S          constant speed (50km/h, 30mph, 14m/s) or 'route' (each step's own
                             distance/duration); default route
          --gps-noise M      GPS error in meters (95% of fixes within M), seeded by --seed (default 1)
          --voice ID         voice profile (default en-US); its phrase book words built prompts
          --units U          metric or imperial (default: the voice's)
          --no-server-instructions   ignore the route's voiceInstructions; build every prompt
          --engine E         espeak (default) or command:PROGRAM ARGS… (reads SSML or text on stdin,
                             writes WAV on stdout), as for speak
          --play             play the drive through ALSA as it goes (--speedup N: silences N× shorter);
                             the device is opened first
          --output FILE      stream the drive's audio, each prompt at its time, to a WAV file (RF64
                             past 4 GiB)
          --json             one JSON object per line: each prompt, then the summary
          --trace FILE       replay recorded GPS fixes (NMEA 0183, GPX 1.1 or a gpsd JSON log,
                             told by the content) through route matching; time_s counts from the
                             first fix; events off_route, back_on_route, gps_lost, gps_recovered
          --motion M         constant (default: the vehicle above) or realistic: a driver who
                             brakes before turns, stops at some junctions, with GPS noise,
                             outliers and an outage (seeded by --seed), through route matching

        Exit status: 0 done, 1 the route or voice cannot be used, 64 usage, 69 audio device failed.
        """

    static func run(_ arguments: inout CommandLineArguments) async throws -> Int32 {
        let catalog = try Voices.catalog()
        var voice = try Voices.profile(&arguments)
        let speed = try parseSpeed(try arguments.option("--speed") ?? "route")
        let noise = try arguments.number("--gps-noise", in: 0...1_000) ?? 0
        let seed = UInt64(try arguments.number("--seed", in: 0...1e15) ?? 1)
        if let units = try arguments.option("--units") {
            guard let system = UnitSystem(rawValue: units) else {
                throw UsageError("--units must be metric or imperial, not '\(units)'")
            }
            voice.units = system
        }
        let stripServer = arguments.flag("--no-server-instructions")
        let play = arguments.flag("--play")
        let device = try arguments.option("--device") ?? "default"
        let speedup = try arguments.number("--speedup", in: 0.1...1_000) ?? 1
        let output = try arguments.option("--output", "-o")
        let json = arguments.flag("--json")
        let trace = try arguments.option("--trace")
        let motion = try arguments.option("--motion") ?? "constant"
        guard motion == "constant" || motion == "realistic" else {
            throw UsageError("--motion must be constant or realistic, not '\(motion)'")
        }
        let renderer = try Engines.renderer(&arguments)
        let files = try arguments.positionals()
        guard files.count == 1 else { throw UsageError("give one ROUTE.json") }
        if play && output != nil { throw UsageError("--play and --output cannot be combined; choose one") }

        let route = try RouteLoading.load(files[0])
        let book: PhraseBook
        do {
            book = try PhraseBook.load(
                directory: catalog.directory.appendingPathComponent("phrases"), language: voice.phrases)
        } catch {
            throw CommandFailure("\(error)")
        }
        let audio = PromptAudio(renderer: renderer, voice: voice)
        if trace != nil || motion == "realistic" {
            if play || output != nil {
                throw UsageError("--play and --output go with --motion constant only")
            }
            return try await GuidedDriveCommand.run(
                route: route, source: trace.map { .trace(path: $0) } ?? .realistic(seed: seed),
                phrases: PhraseBuilder(book: book, units: voice.units), book: book, audio: audio,
                usesServerInstructions: !stripServer, json: json)
        }
        var sink: (any AudioSink)?
        if let output { sink = outputSink(output) }
        if play { sink = ALSASink(device: device) }
        let track = try sink.map { sink in
            let track = DriveAudioTrack(
                sink: sink, sampleRate: renderer.sampleRate, timeScale: play ? speedup : 1,
                audioOf: { try audio.audio(for: $0) })
            try openTrack(track, device: play ? device : nil)
            return track
        }
        let simulator = DriveSimulator(
            route: route, phrases: PhraseBuilder(book: book, units: voice.units), speed: speed,
            gpsNoise: noise, seed: seed, usesServerInstructions: !stripServer,
            durationOf: { audio.duration(of: $0) })
        let timeline: DriveTimeline
        do {
            timeline = try await simulator.run(
                track: track,
                onSpeak: play && !json
                    ? { print(String(format: "▶ %6.1f s  %@", $0.timeS, $0.text)) } : nil)
            try sink?.close()
        } catch {
            try? sink?.close()
            throw audioFailure(error, device: play ? device : nil)
        }

        if json {
            for prompt in timeline.prompts { print(try DriveJSON.line(DriveJSON.Prompt(record: prompt))) }
            print(try DriveJSON.line(DriveJSON.Summary(summary: timeline.summary)))
        } else {
            printTable(timeline, route: route)
            if let output { print("wrote \(output)") }
        }
        return ExitStatus.success
    }

    /// The sink `--output PATH` writes the drive's audio to, streamed as the drive goes.
    static func outputSink(_ path: String) -> any AudioSink {
        StreamingWAVFileSink(url: URL(fileURLWithPath: path))
    }

    /// Opens the track's sink before the drive, so that a missing device or an unwritable file
    /// is reported at once.
    private static func openTrack(_ track: DriveAudioTrack, device: String?) throws {
        do {
            try track.begin()
        } catch {
            try? track.sink.close()
            throw audioFailure(error, device: device)
        }
    }

    /// The command's error for an audio device or file that failed.
    private static func audioFailure(_ error: any Error, device: String?) -> any Error {
        guard error is AudioSinkError || error is WAVError else { return error }
        if let device {
            return CommandFailure(
                "\(error)\n  \(Engines.deviceAdvice(device))", status: ExitStatus.unavailable)
        }
        return CommandFailure("\(error)")
    }

    /// `50km/h`, `30mph`, `14m/s`, `14` (m/s) or `route`.
    static func parseSpeed(_ text: String) throws -> DriveSimulator.SpeedProfile {
        if text == "route" { return .route }
        let units: [(String, Double)] = [("km/h", 1 / 3.6), ("kmh", 1 / 3.6), ("mph", 0.44704), ("m/s", 1)]
        var number = text
        var factor = 1.0
        for (suffix, value) in units where text.hasSuffix(suffix) {
            number = String(text.dropLast(suffix.count))
            factor = value
            break
        }
        guard let value = Double(number), value.isFinite, value > 0, value * factor <= 100 else {
            throw UsageError(
                "--speed must be a positive speed like 50km/h, 30mph or 14m/s (at most 360 km/h), or 'route'; not '\(text)'"
            )
        }
        return .constant(value * factor)
    }

    private static func printTable(_ timeline: DriveTimeline, route: Route) {
        print(
            "TIME     LEG STEP MANEUVER               TIER      DIST     SPEED  DUR   END-BEFORE  TEXT")
        for prompt in timeline.prompts {
            var maneuver = "-"
            if prompt.leg >= 0, prompt.leg < route.legs.count, prompt.step >= 0,
                prompt.step < route.legs[prompt.leg].steps.count
            {
                let step = route.legs[prompt.leg].steps[prompt.step]
                maneuver = [step.maneuver.type.rawValue, step.maneuver.modifier?.rawValue].compactMap { $0 }
                    .joined(separator: " ")
            }
            let minutes = Int(prompt.timeS) / 60
            let seconds = prompt.timeS - Double(minutes * 60)
            print(
                String(format: "%3d:%04.1f ", minutes, seconds) + String(prompt.leg).padded(3) + " "
                    + String(prompt.step).padded(4) + " " + maneuver.padded(22) + " "
                    + prompt.tier.rawValue.padded(9) + " " + String(format: "%6.0f m ", prompt.distanceM)
                    + String(format: "%5.1f ", prompt.speedMps * 3.6)
                    + String(format: "%4.1fs ", prompt.durationS)
                    + String(format: "%8.1f s  ", prompt.endsBeforeManeuverS) + prompt.text)
        }
        let summary = timeline.summary
        print(
            """

            \(summary.maneuvers) maneuvers, \(summary.feasible) feasible (≥ 8 s from the previous); \
            final prompt ended 2.5–6 s before: \(summary.finalInWindow)/\(summary.feasible)
            late: \(summary.late), overlaps: \(summary.overlaps), stale: \(summary.stale), \
            repeats: \(summary.repeats), most prompts for one maneuver: \(summary.maxPromptsPerManeuver)
            """)
    }
}

/// Reads a route file, turning decoding errors into messages that name the field.
enum RouteLoading {
    static func load(_ path: String) throws -> Route {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read \(path)", status: ExitStatus.noInput)
        }
        do {
            return try Route.decode(from: data)
        } catch let error as RouteDecodingError {
            throw CommandFailure("\(path): \(error)")
        }
    }
}
