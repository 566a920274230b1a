import Foundation

/// How one `<prosody>` attribute changes the value in force around it.
///
/// Numeric forms are relative and compose with enclosing `<prosody>` elements (rates and pitches
/// multiply, decibels add); keywords are absolute, relative to the voice's own default, as in
/// SSML 1.1, so `rate="medium"` inside `rate="slow"` is the voice's normal rate again.
enum ProsodyAdjustment: Sendable, Equatable {
    /// Replace the value.
    case set(Double)
    /// Multiply the value.
    case scale(Double)
    /// Add to the value.
    case add(Double)

    /// The value after this adjustment.
    func applied(to value: Double) -> Double {
        switch self {
        case .set(let new): new
        case .scale(let factor): value * factor
        case .add(let amount): value + amount
        }
    }
}

/// Parsers for `<prosody rate pitch volume>` values, with the numbers we give keywords.
enum ProsodyValues {
    /// The `duration` a `<prosody>` may ask for, in seconds; outside it is clamped.
    static let durationRange = 0.1...60.0

    /// The nominal fundamental that `Hz` pitch values are relative to: 120 Hz, about an adult
    /// voice's speaking pitch (eSpeak NG's default male voice sits near it). `pitch="+12Hz"`
    /// is a multiplier of 132/120 = 1.1; `pitch="180Hz"` sets 180/120 = 1.5.
    static let nominalPitchHz = 120.0

    /// The range a composed rate or pitch multiplier is clamped to (with a warning).
    static let multiplierRange = 0.25...4.0
    /// The most gain a composed volume may ask for, in dB (clamped, with a warning).
    static let maxVolumeDB = 24.0

    /// Rate keywords as multipliers of the voice's rate.
    static let rateKeywords: [String: Double] = [
        "x-slow": 0.6, "slow": 0.8, "medium": 1, "fast": 1.25, "x-fast": 1.5, "default": 1,
    ]
    /// Pitch keywords as multipliers of the voice's pitch (about −6, −3, 0, +3, +6 semitones).
    static let pitchKeywords: [String: Double] = [
        "x-low": 0.7, "low": 0.85, "medium": 1, "high": 1.18, "x-high": 1.4, "default": 1,
    ]
    /// Volume keywords as gain in dB; `silent` is minus infinity.
    static let volumeKeywords: [String: Double] = [
        "silent": -.infinity, "x-soft": -12, "soft": -6, "medium": 0, "loud": 6, "x-loud": 12,
        "default": 0,
    ]

    /// `rate`: a keyword, `N%` (150% is 1.5×), `+N%`/`-N%` (a change), or a bare multiplier (`1.08`).
    static func rate(_ text: String) -> ProsodyAdjustment? {
        let value = text.trimmingSSMLWhitespace().lowercased()
        if let keyword = rateKeywords[value] { return .set(keyword) }
        let factor: Double
        if value.hasSuffix("%") {
            guard let (number, isSigned) = SSMLNumber.parse(value.dropLast()) else { return nil }
            factor = isSigned ? 1 + number / 100 : number / 100
        } else {
            guard let (number, isSigned) = SSMLNumber.parse(value[...]), !isSigned else { return nil }
            factor = number
        }
        return factor > 0 ? .scale(factor) : nil
    }

    /// `pitch`: a keyword, `+N%`/`-N%`, `+Nst`/`-Nst` (semitones), `+NHz`/`-NHz` (relative to
    /// ``nominalPitchHz``) or `NHz` (absolute, also against ``nominalPitchHz``).
    static func pitch(_ text: String) -> ProsodyAdjustment? {
        let trimmed = String(text.trimmingSSMLWhitespace())
        if let keyword = pitchKeywords[trimmed.lowercased()] { return .set(keyword) }
        let (numberText, unit) = SSMLNumber.split(trimmed)
        guard let (number, isSigned) = SSMLNumber.parse(numberText) else { return nil }
        switch unit {
        case "%":
            guard isSigned, number > -100 else { return nil }
            return .scale(1 + number / 100)
        case "st":
            return .scale(pow(2, number / 12))
        case "hz":
            if isSigned { return .add(number / nominalPitchHz) }
            return number > 0 ? .set(number / nominalPitchHz) : nil
        default:
            return nil
        }
    }

    /// `volume`: a keyword (`silent` … `x-loud`) or `+NdB`/`-NdB`.
    static func volume(_ text: String) -> ProsodyAdjustment? {
        let trimmed = String(text.trimmingSSMLWhitespace())
        if let keyword = volumeKeywords[trimmed.lowercased()] { return .set(keyword) }
        let (numberText, unit) = SSMLNumber.split(trimmed)
        guard unit == "db", let (number, _) = SSMLNumber.parse(numberText) else { return nil }
        return .add(number)
    }
}
