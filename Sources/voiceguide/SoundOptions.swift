import VoiceGuidance

/// `--chime final|all|none` and `--reroute-chime on|off` (`drive`, `navigate`, `serve`): which
/// prompts get a chime, over what the voice profile says.
struct SoundOptions {
    /// The tiers asked for (`final`, `all`, `none`), or nil for the profile's.
    var tiers: String?
    /// The reroute sound asked for, or nil for the profile's.
    var reroute: Bool?

    static let usage = """
          --chime C          a chime before final prompts (final: finals and arrivals), every
                             prompt (all) or none (default: the voice profile's "chime", else none)
          --reroute-chime on|off   the reroute sound before the first prompt after a reroute
        """

    /// Reads the two options.
    static func parse(_ arguments: inout CommandLineArguments) throws -> SoundOptions {
        let tiers = try arguments.option("--chime")
        if let tiers, PromptChimes(choice: tiers, reroute: false) == nil {
            throw UsageError("--chime must be final, all or none, not '\(tiers)'")
        }
        var reroute: Bool?
        if let value = try arguments.option("--reroute-chime") {
            guard value == "on" || value == "off" else {
                throw UsageError("--reroute-chime must be on or off, not '\(value)'")
            }
            reroute = value == "on"
        }
        return SoundOptions(tiers: tiers, reroute: reroute)
    }

    /// The chimes for `voice`: the options over its profile's.
    func chimes(for voice: VoiceProfile) -> PromptChimes {
        let profile = voice.chime ?? .none
        let reroute = reroute ?? profile.reroute
        return tiers.flatMap { PromptChimes(choice: $0, reroute: reroute) }
            ?? PromptChimes(tiers: profile.tiers, reroute: reroute)
    }

    /// How the controller delivers prompts for `voice`: its speed curve and these chimes.
    func sound(for voice: VoiceProfile) -> PromptSound {
        PromptSound(voice: voice, chimes: chimes(for: voice))
    }
}
