import ALSABackend
import Foundation
import PulseBackend
import VoiceGuidance

/// Where a command's audio goes, from `--sink pulse|alsa|wav|null`, `--device`, `--output`,
/// `--role` and `--server`: the one place `speak`, `drive --play`, `navigate` and `serve` choose
/// their sink.
///
/// Without `--sink`: `--output` writes a WAV file, `--device` names an ALSA PCM, and otherwise the
/// sound server is used when one answers (PulseAudio, or PipeWire's pipewire-pulse), ALSA's
/// `default` when none does.
struct SinkChoice {
    /// The kinds of output.
    enum Kind: String, CaseIterable {
        case pulse, alsa, wav, null
    }

    /// How long the default choice waits for a sound server to answer.
    static let probeTimeout = 0.5

    /// The options' help text, for a command's usage.
    static let help = """
          --sink KIND     pulse (the sound server: PulseAudio or PipeWire), alsa, wav (with --output)
                          or null; default: the sound server when one answers, else ALSA
          --device NAME   ALSA PCM name (default, plughw:CARD=X,DEV=0, file:'/tmp/x.raw',raw; see
                          'voiceguide devices'), or with --sink pulse the server's sink name
          --role ROLE     the sound server stream's media.role (default navigation: music ducks)
          --server ADDR   the sound server's address (default: $PULSE_SERVER, then the user's own)
          --output FILE   write a WAV file instead of playing (same as --sink wav); - for standard
                          output; a device, FIFO or symbolic link is written through
        """

    let kind: Kind
    let sink: any AudioSink
    /// Why this output was chosen, for `--verbose`.
    let reason: String
    /// The WAV file's path as given, for `--sink wav`.
    let outputPath: String?

    /// Takes the output options out of `arguments` and makes the sink.
    static func parse(_ arguments: inout CommandLineArguments) throws -> SinkChoice {
        let named = try arguments.option("--sink")
        let device = try arguments.option("--device")
        let output = try arguments.option("--output", "-o")
        let role = try arguments.option("--role") ?? "navigation"
        let server = try arguments.option("--server")
        guard !role.isEmpty else { throw UsageError("--role needs a name, such as navigation") }
        var kind: Kind
        var reason: String
        if let named {
            guard let chosen = Kind(rawValue: named) else {
                throw UsageError("--sink must be pulse, alsa, wav or null, not '\(named)'")
            }
            (kind, reason) = (chosen, "--sink \(named)")
        } else if output != nil {
            (kind, reason) = (.wav, "--output given")
        } else if device != nil {
            (kind, reason) = (.alsa, "--device names an ALSA PCM")
        } else if PulseSink.serverAnswers(server: server, timeout: probeTimeout) {
            (kind, reason) = (.pulse, "a sound server answered")
        } else {
            (kind, reason) = (.alsa, "no sound server answered")
        }
        if output != nil, kind != .wav {
            throw UsageError("--output writes a WAV file: it goes with --sink wav")
        }
        let sink: any AudioSink
        switch kind {
        case .pulse:
            sink = PulseSink(options: .init(server: server, device: device, role: role))
        case .alsa:
            sink = ALSASink(device: device ?? "default")
        case .wav:
            guard let output else { throw UsageError("--sink wav needs --output FILE.wav") }
            sink = WAVFileSink(path: output)
        case .null:
            sink = NullSink()
        }
        return SinkChoice(kind: kind, sink: sink, reason: reason, outputPath: output)
    }

    /// One line for `--verbose`: the output and why it was chosen.
    var summary: String {
        var text = "output: \(sink.name)"
        if let pulse = sink as? PulseSink { text += " as media.role=\(pulse.options.role)" }
        return text + " (\(reason))"
    }

    /// What to try when the output failed.
    var advice: String {
        switch kind {
        case .pulse:
            "is PulseAudio or pipewire-pulse running (pactl info)? Choose ALSA with --sink alsa, or write a file with --output FILE.wav"
        case .alsa:
            Engines.deviceAdvice("")
        case .wav, .null:
            "check the output path"
        }
    }
}
