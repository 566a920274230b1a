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
        usage: voiceguide serve [--socket PATH] [--device NAME [--realtime] | --output-dir DIR | --sink null]
                                [--voice ID] [--units metric|imperial] [--group NAME]
                                [--no-server-instructions] [--chime final|all|none]
                                [--reroute-chime on|off]

        Speaks guidance for the navigation programs that talk to it over a Unix socket: they send
        a route and progress (or positions) and get prompts on the speakers, with mute, repeat and
        their own announcements. The protocol is JSON lines, described in docs/protocol.md.

          --socket PATH      the socket (default $XDG_RUNTIME_DIR/voiceguide.sock), mode 0600;
                             a stale one is replaced, a live one is an error
          --group NAME       also let the members of group NAME connect (the socket becomes 0660)
          --device NAME      play through this ALSA device (default "default")
          --realtime         pace writes to the audio's own length, for ALSA devices that never
                             block (the file and null PCMs); a sound card paces itself
          --output-dir DIR   write each prompt to DIR/0001.wav, 0002.wav, … instead of playing
          --sink null        render the prompts and discard the audio
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
        let sink = try makeSink(&arguments)
        let soundOptions = try SoundOptions.parse(&arguments)
        guard try arguments.positionals().isEmpty else { throw UsageError("serve takes no file") }

        let voice: VoiceProfile
        do { voice = try library.profile(id: voiceID) } catch { throw CommandFailure(error.message) }
        let synthesizer = SpeechSynthesizer(
            renderer: try Engines.espeak(), sink: sink, voice: voice, voices: library.catalog.profiles)
        var configuration = GuidanceService.Configuration(
            programVersion: programVersion, usesServerInstructions: usesServer)
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
        Console.error("voiceguide serve: listening on \(path) (\(sink.name), voice \(voice.id))")
        for await request in signals.stream {
            guard request == .reload else { break }
            do {
                try await service.reload()
                Console.error("voiceguide serve: voices and phrase books read again")
            } catch {
                Console.error("voiceguide serve: reload failed, keeping the old voices: \(error.message)")
            }
        }
        await service.shutDown()
        server.stop()
        try? sink.close()
        Console.error("voiceguide serve: stopped; removed \(path)")
        return ExitStatus.success
    }

    /// The sink chosen by `--device`, `--output-dir` or `--sink` (one of them; ALSA "default" when none).
    static func makeSink(_ arguments: inout CommandLineArguments) throws -> any AudioSink {
        let device = try arguments.option("--device")
        let folder = try arguments.option("--output-dir")
        let kind = try arguments.option("--sink")
        let realTime = arguments.flag("--realtime")
        guard [device, folder, kind].compactMap({ $0 }).count <= 1 else {
            throw UsageError("choose one of --device, --output-dir and --sink")
        }
        guard !realTime || (folder == nil && kind == nil) else {
            throw UsageError("--realtime goes with an ALSA --device")
        }
        if let kind {
            guard kind == "null" else { throw UsageError("--sink must be null, not '\(kind)'") }
            return NullSink()
        }
        if let folder {
            do { return try PromptFileSink(folder: URL(fileURLWithPath: folder)) } catch {
                throw CommandFailure("\(error)", status: ExitStatus.unavailable)
            }
        }
        return ALSASink(device: device ?? "default", options: ALSASink.Options(pacesToRealTime: realTime))
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
