import Foundation
import VoiceGuidance

/// The eSpeak NG parameters and input for one text segment.
struct ESpeakSegmentSettings: Sendable, Equatable {
    /// The eSpeak voice name to select (`en-us`, `gmw/de+f3`).
    var voiceName: String
    /// Words per minute, within 80…450.
    var rate: Int
    /// Base pitch, within 0…99.
    var pitch: Int
    /// Gain applied to the samples, in decibels (`-infinity` for silence).
    var gainDB: Double
    /// What eSpeak reads: the text, or `[[phonemes]]`.
    var input: String
    /// Whether `input` holds eSpeak phonemes.
    var isPhonemeInput: Bool
    /// Warnings about values that had to be clamped or requests that could not be met.
    var warnings: [String]

    /// eSpeak NG's rate limits in words per minute.
    static let rateRange = 80...450
    /// eSpeak NG's pitch limits.
    static let pitchRange = 0...99
    /// Pitch steps per octave: eSpeak's pitch table doubles the base pitch every 50 steps.
    static let pitchStepsPerOctave = 50.0

    /// Works out the settings for `segment` spoken in `profile`, in the voice `voiceName`.
    init(segment: TextSegment, profile: VoiceProfile, voiceName: String, voiceWarnings: [String] = []) {
        self.voiceName = voiceName
        var warnings = voiceWarnings
        let emphasis = Self.emphasisAdjustment(segment.emphasis)

        let rateFactor = segment.prosody.rate * emphasis.rate
        var wantedRate = Double(profile.rate) * (rateFactor.isFinite && rateFactor > 0 ? rateFactor : 1)
        if !wantedRate.isFinite { wantedRate = Double(profile.rate) }
        let roundedRate = Int(wantedRate.rounded())
        rate = min(max(roundedRate, Self.rateRange.lowerBound), Self.rateRange.upperBound)
        if rate != roundedRate {
            warnings.append("rate \(roundedRate) wpm is outside eSpeak NG's 80–450; using \(rate)")
        }

        let pitchFactor = segment.prosody.pitch * emphasis.pitch
        let steps = pitchFactor.isFinite && pitchFactor > 0 ? Self.pitchStepsPerOctave * log2(pitchFactor) : 0
        let roundedPitch = Int((Double(profile.pitch) + steps).rounded())
        pitch = min(max(roundedPitch, Self.pitchRange.lowerBound), Self.pitchRange.upperBound)
        if pitch != roundedPitch {
            warnings.append("pitch \(roundedPitch) is outside eSpeak NG's 0–99; using \(pitch)")
        }

        let gain = profile.volumeDB + segment.prosody.volumeDB + emphasis.volumeDB
        gainDB = gain.isNaN ? 0 : gain

        if let phonemes = segment.espeakPhonemes, !phonemes.isEmpty {
            input = "[[\(phonemes)]]"
            isPhonemeInput = true
        } else {
            input = segment.text
            isPhonemeInput = false
        }
        self.warnings = warnings
    }

    /// The small rate, pitch and loudness change `<emphasis>` makes.
    static func emphasisAdjustment(_ level: EmphasisLevel?) -> (rate: Double, pitch: Double, volumeDB: Double)
    {
        switch level {
        case .strong: (0.88, 1.08, 3)
        case .moderate: (0.94, 1.04, 1.5)
        case .reduced: (1.06, 0.96, -3)
        case .some(.none), nil: (1, 1, 0)
        }
    }
}
