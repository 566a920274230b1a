import ESpeakBackend
import Foundation
import VoiceGuidance

/// `voiceguide voices`: the voice profiles and the eSpeak NG voices installed.
enum VoicesCommand: Command {
    static let name = "voices"
    static let summary = "list voice profiles (Voices/) and installed eSpeak NG voices"
    static let usage = """
        usage: voiceguide voices [--json]

        Lists the voice profiles in Voices/ (use their id with --voice) and the eSpeak NG voices
        installed on this machine (usable in a profile's espeakVoice).
        """

    static func run(_ arguments: inout CommandLineArguments) async throws -> Int32 {
        let json = arguments.flag("--json")
        _ = try arguments.positionals()
        let catalog = try Voices.catalog()
        let installed = try ESpeakRenderer.installedVoices()
        if json {
            print(
                JSONOutput.line([
                    "profiles": catalog.profiles.map {
                        [
                            "id": $0.id, "locale": $0.locale, "espeak_voice": $0.espeakVoice,
                            "variant": $0.variant ?? NSNull(), "rate": $0.rate, "units": $0.units.rawValue,
                        ] as [String: Any]
                    },
                    "espeak_voices": installed.map {
                        ["name": $0.name, "identifier": $0.identifier, "languages": $0.languages]
                    },
                ]))
            return ExitStatus.success
        }
        print("Voice profiles (\(catalog.directory.path)):")
        print("  ID      LOCALE  ESPEAK VOICE  RATE  UNITS")
        for profile in catalog.profiles {
            let voice = profile.espeakVoice + (profile.variant.map { "+\($0)" } ?? "")
            print(
                "  "
                    + [
                        profile.id.padded(7), profile.locale.padded(7), voice.padded(13),
                        String(profile.rate).padded(5),
                        profile.units.rawValue,
                    ].joined(separator: " "))
        }
        print("\neSpeak NG voices installed (\(installed.count)):")
        for voice in installed {
            print(
                "  " + voice.identifier.padded(24) + " " + voice.languages.joined(separator: ",").padded(10)
                    + " " + voice.name)
        }
        return ExitStatus.success
    }
}

extension String {
    /// The string padded with spaces (or cut) to `width` characters.
    func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
