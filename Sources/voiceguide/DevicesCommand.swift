import ALSABackend
import Foundation
import VoiceGuidance

/// `voiceguide devices`: ALSA playback devices, or whether one opens.
enum DevicesCommand: Command {
    static let name = "devices"
    static let summary = "list ALSA playback devices"
    static let usage = """
        usage: voiceguide devices [--json] [--check [--device NAME]]

        Lists the ALSA PCM devices that can play (from ALSA's name hints), with descriptions.
        Use a name with 'speak --device NAME' or 'drive --play --device NAME'.

          --check         instead of listing, open the device (default: default) and say whether
                          it works; exit status 0 when it opens, 69 when it does not
          --json          print [{name, description}]
        """

    static func run(_ arguments: inout CommandLineArguments) async throws -> Int32 {
        let json = arguments.flag("--json")
        let check = arguments.flag("--check")
        let device = try arguments.option("--device") ?? "default"
        _ = try arguments.positionals()
        if check {
            let sink = ALSASink(device: device)
            do {
                try sink.begin(AudioFormat(sampleRate: 22_050))
                sink.interrupt()
                try sink.close()
                print("\(device): opens")
                return ExitStatus.success
            } catch {
                throw CommandFailure(
                    "\(error)\n  \(Engines.deviceAdvice(device))", status: ExitStatus.unavailable)
            }
        }
        let devices: [ALSADevice]
        do {
            devices = try ALSASink.outputDevices()
        } catch {
            throw CommandFailure("cannot list ALSA devices: \(error)", status: ExitStatus.unavailable)
        }
        if json {
            print(JSONOutput.line(devices.map { ["name": $0.name, "description": $0.description] }))
            return ExitStatus.success
        }
        if devices.isEmpty {
            print("No ALSA playback devices found. Use 'speak --output FILE.wav' to write audio instead.")
        }
        for device in devices {
            let text = device.description.replacingOccurrences(of: "\n", with: " — ")
            print(device.name.padded(32) + " " + text)
        }
        return ExitStatus.success
    }
}
