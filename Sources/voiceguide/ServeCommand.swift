import ALSABackend
import ESpeakBackend
import Foundation
import GuidanceService
import VoiceGuidance

/// `voiceguide serve`: the guidance daemon on a Unix socket (docs/protocol.md).
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "run the guidance daemon on a Unix socket (JSON lines, docs/protocol.md)"
    static let usage = """
        usage: voiceguide serve [--socket PATH] [--sink pulse|alsa|null] [--device NAME [--realtime]]
                                [--role ROLE] [--server ADDR] [[--sink wav] --output-dir DIR]
                                [--gpsd [HOST:PORT]] [--voice ID] [--units metric|imperial]
                                [--group NAME] [--no-server-instructions] [--chime final|all|none]
                                [--reroute-chime on|off]

        Speaks guidance for the navigation programs that talk to it over a Unix socket: they send
        a route and progress (or positions) and get prompts on the speakers, with mute, repeat and
        their own announcements. The protocol is JSON lines, described in docs/protocol.md.

          --socket PATH      the socket (default $XDG_RUNTIME_DIR/voiceguide.sock), mode 0600;
                             a stale one is replaced, a live one is an error
          --group NAME       also let the members of group NAME connect (the socket becomes 0660)
          --sink KIND        pulse (the sound server, as media.role=navigation: music ducks), alsa,
                             null (render, discard) or wav (with --output-dir); default: the sound
                             server when one answers, else ALSA
          --device NAME      the ALSA PCM (default "default"), or with --sink pulse the server's sink
          --role ROLE        the sound server stream's media.role (default navigation)
          --server ADDR      the sound server's address (default: $PULSE_SERVER, then the user's own)
          --realtime         with ALSA: pace writes to the audio's own length, for devices that never
                             block (the file and null PCMs); a sound card paces itself
          --output-dir DIR   write each prompt to DIR/0001.wav, 0002.wav, … instead of playing
          --gpsd [HOST:PORT] read positions from gpsd (default localhost:2947), reconnecting when
                             it restarts; clients then send a route but no positions (a position
                             request is answered positions_from_gpsd)
          --voice ID         voice profile to start with (default en-US)
          --units U          metric or imperial (default: the voice's)
          --no-server-instructions   ignore routes' voiceInstructions; build every prompt
        \(SoundOptions.usage)

        Signals: SIGTERM and SIGINT fade out what is being said, remove the socket and exit 0;
        SIGHUP reads the voice profiles and phrase books again.

        Exit status: 0 stopped by a signal, 1 cannot start (socket in use, voices), 64 usage,
        69 audio or speech engine unavailable.
        """

    /// The program version `hello` reports.
    static let programVersion = "0.11.0"

    static func run(_ arguments: inout CommandLineArguments) async throws -> Int32 {
        let path = try socketPath(&arguments)
        let access = try socketAccess(&arguments)
        let library = try voiceLibrary()
        let voiceID = try arguments.option("--voice") ?? "en-US"
        let units = try unitSystem(&arguments)
        let usesServer = !arguments.flag("--no-server-instructions")
        let (sink, sinkSummary) = try makeSink(&arguments)
        let soundOptions = try SoundOptions.parse(&arguments)
        let gpsd = try gpsdAddress(&arguments)

        let voice: VoiceProfile
        do { voice = try library.profile(id: voiceID) } catch { throw CommandFailure(error.message) }
        let synthesizer = SpeechSynthesizer(
            renderer: try Engines.espeak(), sink: sink, voice: voice, voices: library.catalog.profiles)
        var configuration = GuidanceService.Configuration(
            programVersion: programVersion, usesServerInstructions: usesServer, readsOwnPositions: gpsd != nil
        )
        if soundOptions.tiers != nil || soundOptions.reroute != nil {
            configuration.chimes = soundOptions.chimes(for: voice)
        }
        let service = GuidanceService(
            synthesizer: synthesizer, library: library, voice: voice, units: units,
            configuration: configuration,
            setVoice: { synthesizer.voice = $0 })
        let server = SocketServer(
            path: path, access: access, limits: ProtocolLimits(),
            quickHandler: { service.quickReply(to: $0) },
            handler: { connection, line in await service.reply(to: line, from: connection) },
            onClose: { await service.disconnected($0) })
        let signals = DaemonSignals()
        do { try server.start() } catch { throw CommandFailure("\(error)") }
        Console.error("voiceguide serve: listening on \(path) (\(sinkSummary), voice \(voice.id))")
        let positions = ServicePositions(service: service)
        if let gpsd { positions.follow(host: gpsd.host, port: gpsd.port) }
        for await request in signals.stream {
            guard request == .reload else { break }
            do {
                try await service.reload()
                Console.error("voiceguide serve: voices and phrase books read again")
            } catch {
                Console.error("voiceguide serve: reload failed, keeping the old voices: \(error.message)")
            }
        }
        positions.stop()
        await service.shutDown()
        server.stop()
        try? sink.close()
        Console.error("voiceguide serve: stopped; removed \(path)")
        return ExitStatus.success
    }

    /// The sink: `--output-dir` (one WAV per prompt, `--sink wav`), else as the other commands
    /// choose it (`SinkChoice`: `--sink`, `--device`, `--role`, `--server`; the sound server when
    /// one answers, else ALSA); with a line saying which and why.
    static func makeSink(_ arguments: inout CommandLineArguments) throws -> (any AudioSink, String) {
        let folder = try arguments.option("--output-dir")
        let realTime = arguments.flag("--realtime")
        var probe = arguments
        let named = try probe.option("--sink")
        if try probe.option("--output", "-o") != nil {
            throw UsageError("serve writes one WAV file per prompt: give --output-dir DIR, not --output")
        }
        if folder != nil || named == "wav" {
            guard let folder else { throw UsageError("--sink wav needs --output-dir DIR") }
            guard named == nil || named == "wav", try probe.option("--device") == nil else {
                throw UsageError("--output-dir writes files: it goes with no other --sink or --device")
            }
            guard !realTime else { throw UsageError("--realtime goes with ALSA") }
            arguments = probe
            do {
                return (try PromptFileSink(folder: URL(fileURLWithPath: folder)), "WAV files in \(folder)")
            } catch {
                throw CommandFailure("\(error)", status: ExitStatus.unavailable)
            }
        }
        let choice = try SinkChoice.parse(&arguments)
        guard realTime else { return (choice.sink, choice.summary) }
        guard choice.kind == .alsa, let alsa = choice.sink as? ALSASink else {
            throw UsageError("--realtime goes with ALSA")
        }
        let paced = ALSASink(device: alsa.device, options: ALSASink.Options(pacesToRealTime: true))
        return (paced, choice.summary + ", paced to real time")
    }

    /// `--gpsd`, `--gpsd=HOST:PORT` or `--gpsd HOST:PORT` (localhost:2947 by default); nil without.
    static func gpsdAddress(_ arguments: inout CommandLineArguments) throws -> (host: String, port: Int)? {
        var address = try NavigateCommand.optionalValue("--gpsd", in: &arguments)
        let wanted = address != nil || arguments.flag("--gpsd")
        let rest = try arguments.positionals()
        if wanted, address == nil, rest.count == 1 { address = rest[0] }
        guard rest.isEmpty || (rest.count == 1 && address == rest[0]) else {
            throw UsageError("serve takes no file")
        }
        guard wanted else { return nil }
        let text = address ?? "localhost:2947"
        guard let (host, port) = NavigateCommand.parseAddress(text) else {
            throw UsageError("--gpsd takes HOST:PORT (a port from 1 to 65535), not '\(text)'")
        }
        return (host, port)
    }

    /// `--socket`, else `$XDG_RUNTIME_DIR/voiceguide.sock`.
    static func socketPath(_ arguments: inout CommandLineArguments) throws -> String {
        if let path = try arguments.option("--socket") { return path }
        return try defaultSocketPath()
    }

    static func defaultSocketPath() throws -> String {
        guard let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
            throw UsageError("XDG_RUNTIME_DIR is not set; give --socket PATH")
        }
        return URL(fileURLWithPath: runtime).appendingPathComponent("voiceguide.sock").path
    }

    private static func socketAccess(_ arguments: inout CommandLineArguments) throws -> SocketAccess {
        guard let group = try arguments.option("--group") else { return .ownerOnly }
        do { return try SocketAccess.group(named: group) } catch { throw UsageError(error.message) }
    }

    private static func unitSystem(_ arguments: inout CommandLineArguments) throws -> UnitSystem? {
        guard let word = try arguments.option("--units") else { return nil }
        guard let units = UnitSystem(rawValue: word) else {
            throw UsageError("--units must be metric or imperial, not '\(word)'")
        }
        return units
    }

    private static func voiceLibrary() throws -> VoiceLibrary {
        guard let folder = VoiceCatalog.defaultDirectory() else {
            throw CommandFailure(
                "cannot find the Voices/ folder; run from the repository or set VOICEGUIDE_VOICES")
        }
        do { return try VoiceLibrary(directory: folder) } catch { throw CommandFailure(error.message) }
    }
}
