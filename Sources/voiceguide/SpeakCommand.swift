import Foundation
import VoiceGuidance

/// `voiceguide speak`: play one prompt through ALSA (or into a WAV file).
enum SpeakCommand: Command {
    static let name = "speak"
    static let summary = "speak SSML or text through the sound server or an ALSA device"
    static let usage = """
        usage: voiceguide speak [--sink pulse|alsa|wav|null] [--device NAME] [--role ROLE] [--voice ID]
                                [--engine espeak|command:…] [--volume dB] [--output FILE.wav]
                                [--lead-in MS] [--speed 90km/h] [--chime prompt|reroute] [--verbose]
                                [--ssml | --text]
                                (FILE | - | "string")

        Plays the prompt as it is rendered (streaming) and returns when it has been heard. Through
        the sound server the prompt is a stream with media.role=navigation, so music ducks under it.

        \(SinkChoice.help)
          --lead-in MS    silence before the prompt (0–10000 ms), for outputs that wake up slowly
          --chime C       a short synthesized sound first, at the voice's loudness: prompt (two
                          notes rising) or reroute (three falling)
          --speed S       the car's speed (90km/h, 55mph, 25m/s): louder along the voice's speed
                          curve (default 0 dB to 50 km/h, +6 dB from 110 km/h), never clipping
          --verbose       say on stderr which output was chosen and why
          --voice ID      voice profile from Voices/ (default en-US)
          --engine E      espeak (default), or command:PROGRAM ARGS… — a program that reads SSML on
                          stdin and writes a WAV file on stdout (e.g. command:espeak-ng -m --stdout)
          --volume dB     output gain in decibels, -60 to +24 (with a limiter; never clips)

        Exit status: 0 spoken, 1 the prompt failed, 64 usage, 69 the audio device failed.
        """

    static func run(_ arguments: inout CommandLineArguments) async throws -> Int32 {
        let catalog = try Voices.catalog()
        var voice = try Voices.profile(&arguments)
        if let speed = try arguments.option("--speed") {
            let (profile, warning) = try DriveCommand.parseSpeed(speed)
            guard case .constant(let metersPerSecond) = profile else {
                throw UsageError("--speed needs a speed like 90km/h, not '\(speed)'")
            }
            if let warning { Console.error(warning) }
            voice = voice.atSpeed(metersPerSecond)
        }
        let verbose = arguments.flag("--verbose", "-v")
        let output = try SinkChoice.parse(&arguments)
        let volume = try arguments.number("--volume", in: -60...24) ?? 0
        let leadIn = (try arguments.number("--lead-in", in: 0...10_000) ?? 0) / 1000
        let chimeName = try arguments.option("--chime")
        let chime = try chimeName.map { name in
            guard let kind = Chime.Kind(rawValue: name) else {
                throw UsageError("--chime must be prompt or reroute, not '\(name)'")
            }
            return kind
        }
        let reader = UtteranceReader(mode: try InputMode.from(&arguments))
        let renderer = try Engines.renderer(&arguments)
        let inputs = try arguments.positionals()
        guard inputs.count == 1 else { throw UsageError("give exactly one FILE, - or string to speak") }

        let input = try Input.read(inputs[0])
        let utterance = try reader.utterance(from: input)  // reports SSML errors with positions
        for warning in utterance.warnings {
            Console.error(UtteranceReader.locatedWarning(input.displayName, warning.description))
        }
        let source = String(decoding: input.data, as: UTF8.self)
        let isSSML = reader.mode == .ssml || (reader.mode == .automatic && SSMLParser.looksLikeSSML(source))
        let instruction = SpokenInstruction(
            text: isSSML ? utterance.plainText : source, ssml: isSSML ? source : nil)

        if verbose {
            Console.error(output.summary)
            Console.error(String(format: "voice %@ at %+.1f dB", voice.id, voice.volumeDB))
        }
        let sink = output.sink
        var parse: SpeechSynthesizer.SSMLParsing?
        let audioFiles = AudioSourceLoader(directory: input.directory)  // <audio src> next to the file
        if reader.mode != .text {
            parse = { @Sendable text in try SSMLParser(audioFiles: audioFiles).parse(text) }
        }
        let synthesizer = SpeechSynthesizer(
            renderer: renderer, sink: sink, voice: voice, voices: catalog.profiles, parseSSML: parse,
            configuration: .init(leadIn: leadIn, chime: chime))
        synthesizer.volumeDB = volume
        let events = synthesizer.events()
        await synthesizer.speak(instruction)
        synthesizer.interruptSpeaking()
        var failure: SpeechError?
        for await event in events {
            if case .didSpeak(_, let error) = event {
                failure = error
                break
            }
        }
        do {
            try sink.close()
        } catch {
            throw CommandFailure("\(sink.name): \(error)")
        }
        guard let failure else {
            if let path = output.outputPath {
                // With the WAV on standard output, the report goes to standard error.
                if path == "-" || path == "/dev/stdout" {
                    Console.error("wrote standard output")
                } else {
                    print("wrote \(path)")
                }
            }
            return ExitStatus.success
        }
        switch failure.kind {
        case .audioDevice:
            throw CommandFailure(
                "\(failure.message)\n  \(output.advice)", status: ExitStatus.unavailable)
        default:
            throw CommandFailure(failure.message)
        }
    }
}
