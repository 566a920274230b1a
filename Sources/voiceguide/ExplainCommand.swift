import ESpeakBackend
import Foundation
import VoiceGuidance

/// `voiceguide explain`: what will be said, segment by segment, and how eSpeak NG reads it.
enum ExplainCommand: Command {
    static let name = "explain"
    static let summary = "show what will be said: normalised text, phonemes, voice, parameters"
    static let usage = """
        usage: voiceguide explain [--voice ID] [--ssml | --text] [--json] (FILE | - | "string")

        Shows each segment as it is handed to eSpeak NG after normalisation (say-as, road numbers,
        abbreviations, <phoneme>), the eSpeak voice and parameters it gets, and the phonemes eSpeak
        makes of it in IPA, plus every warning. Use it to find out why a name was read wrongly.

          --voice ID   voice profile from Voices/ (default en-US)
          --json       {"segments":[{"kind","voice","written","text","phonemes_ipa","rate_wpm",
                        "pitch","gain_db","compressed","seconds"}],"warnings":[…],
                        "espeak_calls":[text of each eSpeak call]}
        """

    static func run(_ arguments: inout CommandLineArguments) async throws -> Int32 {
        let voice = try Voices.profile(&arguments)
        let reader = UtteranceReader(mode: try InputMode.from(&arguments))
        let json = arguments.flag("--json")
        let inputs = try arguments.positionals()
        guard inputs.count == 1 else { throw UsageError("give exactly one FILE, - or string") }
        let input = try Input.read(inputs[0])
        let utterance = try reader.utterance(from: input)
        let explanation = try Engines.espeak().explain(utterance, voice: voice)
        if json {
            let segments = explanation.segments.map { segment -> [String: Any] in
                [
                    "kind": segment.kind.rawValue, "voice": segment.voice ?? NSNull(),
                    "written": segment.written, "text": segment.input,
                    "phonemes_ipa": segment.phonemesIPA ?? NSNull(), "rate_wpm": segment.rate ?? NSNull(),
                    "pitch": segment.pitch ?? NSNull(), "gain_db": segment.gainDB ?? NSNull(),
                    "compressed": segment.isCompressed, "seconds": segment.seconds ?? NSNull(),
                ]
            }
            print(
                JSONOutput.line([
                    "segments": segments, "warnings": explanation.warnings, "espeak_calls": explanation.calls,
                ]))
            return ExitStatus.success
        }
        for (index, segment) in explanation.segments.enumerated() {
            let number = "\(index + 1)."
            switch segment.kind {
            case .pause:
                print("\(number) pause \(String(format: "%.3f", segment.seconds ?? 0)) s")
            case .mark:
                print("\(number) mark \"\(segment.written)\"")
            case .audio:
                print("\(number) audio \(segment.written) \(String(format: "%.3f", segment.seconds ?? 0)) s")
            case .text, .phonemes, .beep:
                var parameters =
                    "voice \(segment.voice ?? "?"), \(segment.rate ?? 0) wpm, pitch \(segment.pitch ?? 0)"
                if let gain = segment.gainDB, gain != 0 { parameters += String(format: ", %+.1f dB", gain) }
                if segment.isCompressed { parameters += ", compressed" }
                print("\(number) \(segment.kind.rawValue) [\(parameters)]")
                if segment.written != segment.input { print("   written:  \(segment.written)") }
                print("   eSpeak:   \(segment.input)")
                if let ipa = segment.phonemesIPA { print("   phonemes: /\(ipa)/") }
            }
        }
        let spoken = explanation.segments.filter { [.text, .phonemes, .beep].contains($0.kind) }
        if explanation.calls.count < spoken.count {
            print("eSpeak reads neighbours spoken alike as one phrase; its calls:")
            for (index, call) in explanation.calls.enumerated() { print("   \(index + 1). \(call)") }
        }
        for warning in explanation.warnings {
            print(UtteranceReader.locatedWarning(input.displayName, warning))
        }
        return ExitStatus.success
    }
}
