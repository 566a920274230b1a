import ALSABackend
import ESpeakBackend
import Foundation
import VoiceGuidance

/// Makes the renderers and sinks the commands use, turning their errors into messages.
enum Engines {
    /// The eSpeak NG renderer (one engine per process).
    static func espeak() throws -> ESpeakRenderer {
        do {
            return try ESpeakRenderer()
        } catch {
            throw CommandFailure("cannot start eSpeak NG: \(error)", status: ExitStatus.unavailable)
        }
    }

    /// The renderer named by `--engine`: `espeak` (default) or `command:PROGRAM ARGS…`, behind
    /// the normalisation stage (eSpeak runs it itself; a command gets normalised words).
    static func renderer(_ arguments: inout CommandLineArguments) throws -> any SpeechRenderer {
        let engine = try arguments.option("--engine") ?? "espeak"
        if engine == "espeak" { return try espeak() }
        if engine.hasPrefix("command:") {
            let command = String(engine.dropFirst("command:".count))
            do {
                return NormalizingRenderer(try CommandRenderer(command: command, input: .ssml))
            } catch {
                throw UsageError("--engine \(engine): \(error)")
            }
        }
        throw UsageError("--engine must be 'espeak' or 'command:PROGRAM ARGS…', not '\(engine)'")
    }

    /// A message for an audio device that failed, saying what to try.
    static func deviceAdvice(_ device: String) -> String {
        "check the device name with 'voiceguide devices', choose one with --device NAME, or write a file with --output FILE.wav"
    }
}
