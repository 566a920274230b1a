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
                                [--no-alert off-route,gps,speed,waypoint] [--alerts-only]
                                [--play [--sink KIND] [--device NAME] [--role ROLE] [--speedup N]
                                 | --output drive.wav] [--lead-in MS]
                                [--chime final|all|none] [--reroute-chime on|off] [--json]

        Drives the route on a simulated clock (progress updates once a second; the vehicle leaves
        at time 0 and never stops) through the VoiceController an app uses, with prompt lengths
        from the real renderer. Prints what the controller spoke, when, and a summary.

          --speed S          constant speed with its unit (50km/h, 30mph, 14m/s) or 'route'
                             (each step's own distance/duration); default route
          --gps-noise M      GPS error in meters (95% of fixes within M), seeded by --seed (default 1)
          --voice ID         voice profile (default: the one for the route's voiceLocale, else
                             en-US); its phrase book words built prompts
          --units U          metric or imperial (default: the voice's)
          --no-server-instructions   ignore the route's voiceInstructions; build every prompt
          --engine E         espeak (default) or command:PROGRAM ARGS… (reads SSML or text on stdin,
                             writes WAV on stdout), as for speak
          --play             play the drive as it goes (--speedup N: silences N× shorter) through the
                             sound server or ALSA, chosen as for speak (--sink, --device, --role,
                             --server); the device is opened first and its latency is planned with
          --lead-in MS       silence before each prompt (0–10000 ms, default 0) so that an amplifier
                             or a Bluetooth link that sleeps does not swallow the first word; it
                             counts in the timing, so prompts still end in their window
        \(SoundOptions.usage)
          --output FILE      stream the drive's audio, each prompt at its time, to a WAV file (RF64
                             past 4 GiB)
          --json             one JSON object per line: each prompt, then the summary

        Each prompt is spoken louder with the car's speed when it starts, along the voice's
        speedLoudness curve (0 dB to 50 km/h, +6 dB from 110 km/h by default); the timeline shows
        the gain (GAIN, "gain_db") and the chime (CHIME, "chime") of each prompt.
          --trace FILE       replay recorded GPS fixes (NMEA 0183, GPX 1.1 or a gpsd JSON log,
                             told by the content) through route matching; time_s counts from the
                             first fix; events off_route, back_on_route, gps_lost, gps_recovered,
                             speed_alert, waypoint_reached
          --motion M         constant (default: the vehicle above) or realistic: a driver who
                             brakes before turns, stops at some junctions, with GPS noise,
                             outliers and an outage (seeded by --seed), through route matching
          --no-alert LIST    with --trace or --motion realistic: do not speak these alerts
                             (comma-separated: off-route = off/back on route, gps = signal
                             lost/recovered, speed = over the route's maxspeed, waypoint = an
                             intermediate waypoint reached); their events are still reported
          --alerts-only      with --trace or --motion realistic: speak alerts only, no turn
                             prompts (a reached waypoint is said only then: otherwise the leg's
                             arrival prompt says it)

        Exit status: 0 done, 1 the route or voice cannot be used, 64 usage, 69 audio device failed.
        """

    static func run(_ arguments: inout CommandLineArguments) async throws -> Int32 {
        let catalog = try Voices.catalog()
        let chosen = try Voices.chosenProfile(&arguments)
        let (speed, speedWarning) = try parseSpeed(try arguments.option("--speed") ?? "route")
        let noise = try arguments.number("--gps-noise", in: 0...1_000) ?? 0
        let seed = UInt64(try arguments.number("--seed", in: 0...1e15) ?? 1)
        let units = try arguments.option("--units").map { units in
            guard let system = UnitSystem(rawValue: units) else {
                throw UsageError("--units must be metric or imperial, not '\(units)'")
            }
            return system
        }
        let stripServer = arguments.flag("--no-server-instructions")
        let play = arguments.flag("--play")
        let leadIn = (try arguments.number("--lead-in", in: 0...10_000) ?? 0) / 1000
        let speedup = try arguments.number("--speedup", in: 0.1...1_000) ?? 1
        let output = try arguments.option("--output", "-o")
        let choice = play ? try SinkChoice.parse(&arguments) : nil
        let json = arguments.flag("--json")
        let soundOptions = try SoundOptions.parse(&arguments)
        let trace = try arguments.option("--trace")
        let motion = try arguments.option("--motion") ?? "constant"
        guard motion == "constant" || motion == "realistic" else {
            throw UsageError("--motion must be constant or realistic, not '\(motion)'")
        }
        let alertOptions = try GuidedDriveCommand.AlertOptions.parse(&arguments)
        let renderer = try Engines.renderer(&arguments)
        let files = try arguments.positionals()
        guard files.count == 1 else { throw UsageError("give one ROUTE.json") }
        if !alertOptions.isDefault, trace == nil, motion != "realistic" {
            throw UsageError("--no-alert and --alerts-only go with --trace or --motion realistic")
        }
        if play && output != nil { throw UsageError("--play and --output cannot be combined; choose one") }

        if let speedWarning { Console.error(speedWarning) }
        let route = try RouteLoading.load(files[0])
        let languages = try Voices.forRoute(route, chosen: chosen, catalog: catalog)
        var voice = languages.profile
        if let units { voice.units = units }
        let driveTime = DriveMotion(route: route, speed: speed).totalTime
        let longest = RouteLimits().maximumDuration
        guard driveTime <= longest else {
            throw CommandFailure(
                "at this speed the drive takes \(Int(saturating: driveTime / 86_400)) days; the limit is \(Int(longest / 86_400)) days"
            )
        }
        let book: PhraseBook
        do {
            book = try PhraseBook.load(
                directory: catalog.directory.appendingPathComponent("phrases"), language: voice.phrases)
        } catch {
            throw CommandFailure("\(error)")
        }
        let audio = PromptAudio(renderer: renderer, voice: voice, languages: languages, route: route)
        if trace != nil || motion == "realistic" {
            if play || output != nil {
                throw UsageError("--play and --output go with --motion constant only")
            }
            return try await GuidedDriveCommand.run(
                route: route, source: trace.map { .trace(path: $0) } ?? .realistic(seed: seed),
                phrases: PhraseBuilder(book: book, units: voice.units), book: book, audio: audio,
                sound: soundOptions.sound(for: voice), usesServerInstructions: !stripServer, json: json,
                alertOptions: alertOptions)
        }
        var sink: (any AudioSink)?
        if let output { sink = outputSink(output) }
        if let choice { sink = choice.sink }
        let track = try sink.map { sink in
            let track = DriveAudioTrack(
                sink: sink, sampleRate: renderer.sampleRate, timeScale: play ? speedup : 1,
                audioOf: { try audio.audio(for: $0) })
            try openTrack(track, choice: choice)
            return track
        }
        let latency = OutputLatency(sink: choice?.sink, leadIn: leadIn)
        var timing = AnnouncementTiming()
        timing.outputLatency = latency.total
        var simulator = DriveSimulator(
            route: route, phrases: PhraseBuilder(book: book, units: voice.units), speed: speed,
            gpsNoise: noise, seed: seed, timing: timing, usesServerInstructions: !stripServer,
            durationOf: { audio.duration(of: $0) })
        simulator.sound = soundOptions.sound(for: voice)
        let timeline: DriveTimeline
        do {
            timeline = try await simulator.run(
                track: track,
                onSpeak: play && !json
                    ? { print(String(format: "▶ %6.1f s  %@", $0.timeS, $0.text)) } : nil)
            try sink?.close()
        } catch {
            try? sink?.close()
            throw audioFailure(error, choice: choice)
        }

        if json {
            for prompt in timeline.prompts { print(try DriveJSON.line(DriveJSON.Prompt(record: prompt))) }
            print(try DriveJSON.line(DriveJSON.Summary(summary: timeline.summary)))
        } else {
            printTable(timeline, route: route)
            print(latency.description)
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
    private static func openTrack(_ track: DriveAudioTrack, choice: SinkChoice?) throws {
        do {
            try track.begin()
        } catch {
            try? track.sink.close()
            throw audioFailure(error, choice: choice)
        }
    }

    /// The command's error for an audio device or file that failed.
    private static func audioFailure(_ error: any Error, choice: SinkChoice?) -> any Error {
        guard error is AudioSinkError || error is WAVError else { return error }
        if let choice {
            return CommandFailure("\(error)\n  \(choice.advice)", status: ExitStatus.unavailable)
        }
        return CommandFailure("\(error)")
    }

    /// `50km/h`, `30mph`, `14m/s` or `route`; a bare number is an error (which unit?), and a
    /// speed below the slowest the simulator drives is raised to it with a warning.
    static func parseSpeed(_ text: String) throws -> (speed: DriveSimulator.SpeedProfile, warning: String?) {
        if text == "route" { return (.route, nil) }
        let units: [(String, Double)] = [("km/h", 1 / 3.6), ("kmh", 1 / 3.6), ("mph", 0.44704), ("m/s", 1)]
        guard let (suffix, factor) = units.first(where: { text.hasSuffix($0.0) }) else {
            if let bare = Double(text.trimmingCharacters(in: .whitespaces)), bare.isFinite {
                throw UsageError(
                    "--speed \(text) has no unit: write \(text)km/h, \(text)mph or \(text)m/s (or 'route')")
            }
            throw UsageError(
                "--speed must be a speed like 50km/h, 30mph or 14m/s (at most 360 km/h), or 'route'; not '\(text)'"
            )
        }
        let number = String(text.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
        guard let value = Double(number), value.isFinite, value > 0, value * factor <= 100 else {
            throw UsageError(
                "--speed must be a positive speed like 50km/h, 30mph or 14m/s (at most 360 km/h), or 'route'; not '\(text)'"
            )
        }
        let slowest = DriveMotion.minimumSpeed
        guard value * factor >= slowest else {
            let warning =
                "voiceguide drive: warning: --speed \(text) is below the slowest simulated speed, \(slowest) m/s "
                + "(\(slowest * 3.6) km/h); driving at \(slowest) m/s"
            return (.constant(slowest), warning)
        }
        return (.constant(value * factor), nil)
    }

    private static func printTable(_ timeline: DriveTimeline, route: Route) {
        print(
            "TIME     LEG STEP MANEUVER               TIER      DIST     SPEED  GAIN   CHIME    DUR   END-BEFORE  TEXT"
        )
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
                    + String(format: "%+4.1fdB ", prompt.gainDB) + (prompt.chime?.rawValue ?? "-").padded(8)
                    + " "
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

/// The output latency a drive is planned with: the playing sink's own (or the model's default
/// when nothing plays in real time), plus the lead-in.
struct OutputLatency: CustomStringConvertible {
    var device: Double
    var source: String
    var leadIn: Double

    init(sink: (any AudioSink)?, leadIn: Double) {
        if let sink {
            (device, source) = (sink.outputLatency, sink.name)
        } else {
            (device, source) = (AnnouncementTiming().outputLatency, "the timing model's default")
        }
        self.leadIn = leadIn
    }

    /// What the scheduler counts between `speak` and the first word heard.
    var total: Double { device + leadIn }

    var description: String {
        String(format: "output latency: %.3f s (%@) + lead-in %.3f s = %.3f s", device, source, leadIn, total)
    }
}

/// Reads a route file (`-`: standard input), turning decoding errors into messages that name
/// the field.
enum RouteLoading {
    static func load(_ path: String) throws -> Route {
        try decode(read(path), from: path)
    }

    /// The bytes of the route file, at most `RouteLimits.maximumFileBytes` of them.
    static func read(_ path: String) throws -> Data {
        try FileProblem.contents(of: path, limit: RouteLimits().maximumFileBytes)
    }

    static func decode(_ data: Data, from path: String) throws -> Route {
        do {
            return try Route.decode(from: data)
        } catch let error as RouteDecodingError {
            throw CommandFailure("\(path == "-" ? "<stdin>" : path): \(error)")
        }
    }
}

/// Reads a recorded trace (NMEA, GPX or gpsd JSON; `-`: standard input).
enum TraceLoading {
    /// The trace at `path`, at most `RecordedTrace.maximumFileBytes` long, with a usable fix.
    static func load(_ path: String) throws -> RecordedTrace {
        let data = try FileProblem.contents(of: path, limit: RecordedTrace.maximumFileBytes)
        let name = path == "-" ? "<stdin>" : path
        let trace: RecordedTrace
        do {
            trace = try RecordedTrace(text: String(decoding: data, as: UTF8.self))
        } catch {
            throw CommandFailure("\(name): \(error)")
        }
        if trace.positions.isEmpty {
            throw CommandFailure(
                "\(name): no usable fix in the trace (\(GuidedDriveCommand.describe(trace.statistics)))")
        }
        return trace
    }
}
