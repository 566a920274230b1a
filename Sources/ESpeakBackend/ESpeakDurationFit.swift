import Foundation
import VoiceGuidance

extension ESpeakRenderer {
    /// The relative rate change below which a fit is good enough.
    static let durationTolerance = 0.03
    /// How many times the rate is re-measured (eSpeak's rate is not exactly proportional).
    static let durationFitRounds = 4

    /// `text` with the rate that makes it last `prosody.duration` (`<prosody duration>`), and
    /// the silence in samples to write after it when even eSpeak's slowest rate is too fast.
    ///
    /// The text is spoken, measured from its first to its last audible sample, and the rate
    /// scaled by the ratio, a few rounds, within eSpeak's 80–450 words per minute. Slower than
    /// that, the rest of the time is silence after the text, so the element still lasts its
    /// duration; faster than that cannot be done, and gives a warning.
    func fittingDuration(
        _ text: TextSegment, voice: VoiceProfile, resolver: ESpeakVoiceResolver, warnings: inout [String]
    ) throws -> (segment: TextSegment, padding: Int) {
        guard let asked = text.prosody.duration, asked > 0, asked.isFinite,
            !text.text.isEmpty || text.espeakPhonemes != nil
        else { return (text, 0) }
        // The parser clamps to 60 s; a segment built in code is held to the pause limit.
        let target = min(asked, Self.maximumPauseSeconds)
        var fitted = text
        fitted.prosody.duration = nil
        var ignored: [String] = []
        var spoken = 0.0
        for _ in 0..<Self.durationFitRounds {
            let settings = Self.settings(for: fitted, voice: voice, resolver: resolver, warnings: &ignored)
            spoken = try audibleSeconds(settings, profileVoice: resolver.profileVoiceName(voice))
            guard spoken > 0 else { return (fitted, 0) }
            let ratio = spoken / target
            if abs(ratio - 1) < Self.durationTolerance { return (fitted, 0) }
            let previousRate = fitted.prosody.rate
            fitted.prosody.rate = clampedRate(previousRate * ratio, for: fitted, voice: voice)
            if fitted.prosody.rate == previousRate { break }
        }
        if spoken < target {
            return (fitted, Silence.sampleCount(seconds: target - spoken, sampleRate: sampleRate))
        }
        if spoken > target * (1 + Self.durationTolerance) {
            let warning =
                "duration \(String(format: "%.2f", target)) s for \"\(text.text)\" is out of eSpeak NG's rate "
                + "range; it lasts \(String(format: "%.2f", spoken)) s"
            if !warnings.contains(warning) { warnings.append(warning) }
        }
        return (fitted, 0)
    }

    /// A rate multiplier kept within what eSpeak can do for `segment` in `voice`.
    private func clampedRate(_ rate: Double, for segment: TextSegment, voice: VoiceProfile) -> Double {
        let base = Double(voice.rate) * ESpeakSegmentSettings.emphasisAdjustment(segment.emphasis).rate
        guard base > 0 else { return rate }
        let range = ESpeakSegmentSettings.rateRange
        return min(max(rate, Double(range.lowerBound) / base), Double(range.upperBound) / base)
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
