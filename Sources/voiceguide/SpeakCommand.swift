import ALSABackend
import Foundation
import VoiceGuidance

/// `voiceguide speak`: play one prompt through ALSA (or into a WAV file).
enum SpeakCommand: Command {
    static let name = "speak"
    static let summary = "speak SSML or text through an ALSA device"
    static let usage = """
        usage: voiceguide speak [--device NAME] [--voice ID] [--engine espeak|command:…] [--volume dB]
                                [--output FILE.wav] [--ssml | --text] (FILE | - | "string")

        Plays the prompt as it is rendered (streaming) and returns when it has been heard.

          --device NAME   ALSA PCM name: default, plughw:CARD=X,DEV=0, file:'/tmp/x.raw',raw, or any
                          name in your ALSA configuration (see 'voiceguide devices'); default: default
          --voice ID      voice profile from Voices/ (default en-US)
          --engine E      espeak (default), or command:PROGRAM ARGS… — a program that reads SSML on
                          stdin and writes a WAV file on stdout (e.g. command:espeak-ng -m --stdout)
          --volume dB     output gain in decibels, -60 to +24 (with a limiter; never clips)
          --output FILE   write the prompt to a WAV file instead of playing it

        Exit status: 0 spoken, 1 the prompt failed, 64 usage, 69 the audio device failed.
        """

    static func run(_ arguments: inout CommandLineArguments) async throws -> Int32 {
        let catalog = try Voices.catalog()
        let voice = try Voices.profile(&arguments)
        let device = try arguments.option("--device") ?? "default"
        let output = try arguments.option("--output", "-o")
        let volume = try arguments.number("--volume", in: -60...24) ?? 0
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

        let sink: any AudioSink =
            output.map { WAVFileSink(url: URL(fileURLWithPath: $0)) } ?? ALSASink(device: device)
        var parse: SpeechSynthesizer.SSMLParsing?
        if reader.mode != .text { parse = { @Sendable text in try SSMLParser().parse(text) } }
        let synthesizer = SpeechSynthesizer(
            renderer: renderer, sink: sink, voice: voice, voices: catalog.profiles, parseSSML: parse)
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
            if let output { print("wrote \(output)") }
            return ExitStatus.success
        }
        switch failure.kind {
        case .audioDevice:
            throw CommandFailure(
                "\(failure.message)\n  \(Engines.deviceAdvice(device))", status: ExitStatus.unavailable)
        default:
            throw CommandFailure(failure.message)
        }
    }
}
