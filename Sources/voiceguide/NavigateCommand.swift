import ALSABackend
import DriveSimulation
import Foundation
import VoiceGuidance

/// `voiceguide navigate`: live guidance from a GPS source, through the same matching and
/// `VoiceController` path as `drive --trace` (a `GuidedDrive` fed live).
enum NavigateCommand: Command {
    static let name = "navigate"
    static let summary = "guide a real drive live from gpsd, an NMEA device or a replayed trace"
    static let usage = """
        usage: voiceguide navigate ROUTE.json (--gpsd [HOST:PORT] | --nmea PATH | --trace FILE [--speedup N])
                                   [--device NAME | --output FILE.wav] [--json] [--voice ID]
                                   [--units metric|imperial] [--no-server-instructions]
                                   [--no-alert off-route,gps,speed,waypoint] [--alerts-only]
                                   [--engine espeak|command:PROGRAM…]
                                   [--chime final|all|none] [--reroute-chime on|off]

        Guides live: positions as they come go through route matching to the VoiceController,
        which speaks through ALSA (or into a WAV file, each prompt at its time). Ctrl-C or SIGTERM
        ends it cleanly: the prompt being said fades out and the WAV file is finalized.

          --gpsd [HOST:PORT]  gpsd over TCP (default localhost:2947); reconnects when gpsd closes
                              or restarts (give the address as --gpsd=HOST:PORT or right after it)
          --nmea PATH         NMEA 0183 from a serial device (set its baud rate with stty) or FIFO
          --trace FILE        replay a recorded trace (NMEA, GPX, gpsd JSON) on the wall clock
          --speedup N         with --trace: N times faster (prompts keep their own speed)
          --device NAME       ALSA PCM name (default: default); opened first
          --output FILE       write the audio to a WAV file instead of playing it
          --json              one JSON object per line on stdout: prompts and events as they happen
                              (off_route, back_on_route, gps_lost, gps_recovered, speed_alert,
                              waypoint_reached)
          --no-alert LIST     do not speak these alerts (comma-separated: off-route, gps, speed,
                              waypoint);
                              their events are still reported
          --alerts-only       speak the alerts only (off route, GPS, speed limit, waypoint reached),
                              no turn prompts

        A route with annotation.maxspeed gets a speed alert ("Speed limit 50", in the voice's
        units) when the car stays more than max(5 km/h, 10 %) over the limit for 3 s: once per
        limit, again on a stretch with another limit or after a minute kept under it.
        \(SoundOptions.usage)

        Prompts get louder with the speed the car has when they start (the voice's speedLoudness
        curve); each prompt's gain is printed ("gain_db").

        Exit status: 0 done, 1 the route or voice cannot be used, 64 usage, 66 no such file,
        69 audio device failed.
        """

    /// A prompt as it was heard, as a JSON line.
    struct HeardJSON: Encodable {
        var event = "prompt"
        var timeS: Double
        var text: String
        var heardS: Double
        var cut: Bool
        var gainDB: Double
        var chime: String?

        enum CodingKeys: String, CodingKey {
            case event, text, cut, chime
            case gainDB = "gain_db"
            case timeS = "time_s"
            case heardS = "heard_s"
        }
    }

    static func run(_ arguments: inout CommandLineArguments) async throws -> Int32 {
        let catalog = try Voices.catalog()
        let chosen = try Voices.chosenProfile(&arguments)
        let units = try arguments.option("--units").map { units in
            guard let system = UnitSystem(rawValue: units) else {
                throw UsageError("--units must be metric or imperial, not '\(units)'")
            }
            return system
        }
        let stripServer = arguments.flag("--no-server-instructions")
        let device = try arguments.option("--device") ?? "default"
        let output = try arguments.option("--output", "-o")
        let json = arguments.flag("--json")
        let alertOptions = try GuidedDriveCommand.AlertOptions.parse(&arguments)
        let soundOptions = try SoundOptions.parse(&arguments)
        let renderer = try Engines.renderer(&arguments)
        let (source, speedup, routePath) = try parseSource(&arguments)

        let route = try RouteLoading.load(routePath)
        let languages = try Voices.forRoute(route, chosen: chosen, catalog: catalog)
        var voice = languages.profile
        if let units { voice.units = units }
        let book: PhraseBook
        do {
            book = try PhraseBook.load(
                directory: catalog.directory.appendingPathComponent("phrases"), language: voice.phrases)
        } catch {
            throw CommandFailure("\(error)")
        }
        let audio = PromptAudio(renderer: renderer, voice: voice, languages: languages, route: route)
        let sink: any AudioSink =
            output.map { DriveCommand.outputSink($0) } ?? ALSASink(device: device)
        let track = DriveAudioTrack(
            sink: sink, sampleRate: renderer.sampleRate, timeScale: speedup,
            audioOf: { try audio.audio(for: $0) })
        do { try track.begin() } catch {
            try? sink.close()
            throw CommandFailure(
                "\(error)" + (output == nil ? "\n  \(Engines.deviceAdvice(device))" : ""),
                status: output == nil ? ExitStatus.unavailable : ExitStatus.failure)
        }
        let session = LiveSession(track: track, json: json, playsAtStart: output == nil)
        var drive = GuidedDrive(
            route: route, phrases: PhraseBuilder(book: book, units: voice.units), fixes: [],
            timing: GuidedDriveCommand.brakingTiming,
            alerts: GuidedDriveCommand.alerts(book, units: voice.units, disabled: alertOptions.disabled),
            usesServerInstructions: !stripServer, durationOf: { audio.duration(of: $0) })
        drive.mode = alertOptions.mode
        drive.sound = soundOptions.sound(for: voice)
        drive.onHeard = { session.heard($0) }
        drive.onStart = { session.started($0, at: $1) }
        drive.onEvent = { session.event($0) }
        let feed = LiveFixFeed(speedup: speedup)
        let signals = StopSignals.observe { feed.stop() }
        source.start(into: feed) { Console.error("navigate: \($0)") }
        do {
            _ = try await drive.run(feed: feed)
        } catch {
            try? sink.close()
            throw CommandFailure("\(error)")
        }
        _ = signals
        return try session.finish(at: feed.elapsed, sink: sink)
    }
}

extension NavigateCommand {
    /// The position source, the replay speed-up and the route's path, from the arguments.
    static func parseSource(_ arguments: inout CommandLineArguments) throws -> (
        LivePositionSource, Double, String
    ) {
        let speedup = try arguments.number("--speedup", in: 0.1...1_000)
        let nmea = try arguments.option("--nmea")
        let trace = try arguments.option("--trace")
        var gpsdAddress = try optionalValue("--gpsd", in: &arguments)
        let gpsd = gpsdAddress != nil || arguments.flag("--gpsd")
        var files = try arguments.positionals()
        if gpsd, gpsdAddress == nil, files.count == 2,
            let index = files.firstIndex(where: {
                parseAddress($0) != nil && !FileManager.default.fileExists(atPath: $0)
            })
        {
            gpsdAddress = files.remove(at: index)
        }
        guard files.count == 1 else { throw UsageError("give one ROUTE.json") }
        guard [gpsd, nmea != nil, trace != nil].filter({ $0 }).count == 1 else {
            throw UsageError("give one position source: --gpsd, --nmea or --trace")
        }
        if speedup != nil, trace == nil { throw UsageError("--speedup goes with --trace only") }
        if let nmea { return (.nmea(path: nmea), 1, files[0]) }
        if let trace { return (.trace(positions: try readTrace(trace)), speedup ?? 1, files[0]) }
        let address = gpsdAddress ?? "localhost:2947"
        guard let (host, port) = parseAddress(address) else {
            throw UsageError("--gpsd takes HOST:PORT (a port from 1 to 65535), not '\(address)'")
        }
        return (.gpsd(host: host, port: port), 1, files[0])
    }

    /// `--name=value` only (so that a bare `--name` stays a flag).
    static func optionalValue(_ name: String, in arguments: inout CommandLineArguments) throws
        -> String?
    {
        var copy = arguments
        guard arguments.flag(name) == false else {
            arguments = copy
            return nil
        }
        copy = arguments
        return try copy.option(name).map { value in
            arguments = copy
            return value
        }
    }

    /// `HOST:PORT` (`[::1]:2947` for IPv6), or nil.
    static func parseAddress(_ text: String) -> (String, Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65_535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
    }

    /// The fixes of a recorded trace.
    private static func readTrace(_ path: String) throws -> [Position] {
        try TraceLoading.load(path).positions
    }
}
