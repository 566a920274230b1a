import Foundation
import VoiceGuidance

extension ESpeakRenderer {
    /// The relative rate change below which a fit is good enough.
    static let durationTolerance = 0.03
    /// How many times the rate is re-measured (eSpeak's rate is not exactly proportional).
    static let durationFitRounds = 3

    /// `text` with the rate that makes it last `prosody.duration` (`<prosody duration>`): it is
    /// spoken, measured from its first to its last audible sample, and the rate scaled by the
    /// ratio, a few rounds; a duration eSpeak's rate range cannot reach gives a warning.
    func fittingDuration(
        _ text: TextSegment, voice: VoiceProfile, resolver: ESpeakVoiceResolver, warnings: inout [String]
    ) throws -> TextSegment {
        guard let target = text.prosody.duration, target > 0, !text.text.isEmpty || text.espeakPhonemes != nil
        else { return text }
        var fitted = text
        fitted.prosody.duration = nil
        var ignored: [String] = []
        for _ in 0..<Self.durationFitRounds {
            let settings = Self.settings(for: fitted, voice: voice, resolver: resolver, warnings: &ignored)
            let spoken = try audibleSeconds(settings, profileVoice: resolver.profileVoiceName(voice))
            guard spoken > 0 else { return fitted }
            let ratio = spoken / target
            if abs(ratio - 1) < Self.durationTolerance { return fitted }
            let previousRate = settings.rate
            fitted.prosody.rate *= ratio
            let next = Self.settings(for: fitted, voice: voice, resolver: resolver, warnings: &ignored)
            if next.rate == previousRate {
                let warning =
                    "duration \(String(format: "%.2f", target)) s for \"\(text.text)\" is out of eSpeak NG's "
                    + "rate range; it lasts \(String(format: "%.2f", spoken)) s"
                if !warnings.contains(warning) { warnings.append(warning) }
                return fitted
            }
        }
        return fitted
    }

    /// How long eSpeak speaks with `settings`, first to last audible sample, in seconds.
    private func audibleSeconds(_ settings: ESpeakSegmentSettings, profileVoice: String) throws -> Double {
        var seen = 0
        var first: Int?
        var last = 0
        let speech = Speech(settings: settings, written: settings.input, effect: .none)
        _ = try synthesize(speech, profileVoice: profileVoice) { chunk, _ in
            for (offset, sample) in chunk.enumerated()
            where !Silence.isSilent(sample, threshold: Silence.defaultThreshold) {
                if first == nil { first = seen + offset }
                last = seen + offset
            }
            seen += chunk.count
            return true
        }
        guard let first else { return 0 }
        return Double(last - first + 1) / Double(sampleRate)
    }
}
