import Foundation

/// Short synthesized sounds played before a prompt: a rising two-note chime, and a distinct
/// falling three-note sound for a reroute. No sample files: sines with a soft second harmonic,
/// each note shaped by a raised-cosine attack and release so every note (and the sound) starts
/// and ends at zero, with no click. Scaled to a loudness (BS.1770), so a chime is as loud as the
/// voice it comes with.
public enum Chime {
    /// Which sound.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// Before a prompt: two notes rising (E6, A6).
        case prompt
        /// On a reroute: three notes falling (A5, E5, C5).
        case reroute
    }

    /// The notes of a sound: frequency in hertz and length in seconds.
    static func notes(_ kind: Kind) -> [(frequency: Double, length: Double)] {
        switch kind {
        case .prompt: [(1_318.5, 0.11), (1_760.0, 0.16)]
        case .reroute: [(880.0, 0.10), (659.3, 0.10), (523.3, 0.18)]
        }
    }

    /// The silence after the sound, before the prompt, in seconds.
    public static let gap = 0.15

    /// How long the sound and its gap last, in seconds.
    public static func duration(_ kind: Kind) -> Double {
        notes(kind).reduce(gap) { $0 + $1.length }
    }

    /// The voices' loudness target (LUFS) a chime is made at, before any speed gain.
    public static let voiceLoudness = -16.0

    /// Attack and release of every note, in seconds.
    static let attack = 0.005
    static let release = 0.04

    /// The sound at `sampleRate`, scaled to `loudness` LUFS (peaks kept below −1 dBFS), followed
    /// by `gap` seconds of silence before the prompt.
    public static func samples(
        _ kind: Kind, sampleRate: Int, loudness: Double = voiceLoudness, gap: Double = gap
    )
        -> [Int16]
    {
        guard sampleRate > 0 else { return [] }
        var signal: [Double] = []
        for note in notes(kind) {
            signal += tone(note.frequency, length: note.length, sampleRate: sampleRate)
        }
        let scale = gain(for: signal, sampleRate: sampleRate, loudness: loudness)
        let silence = [Int16](repeating: 0, count: Int(max(0, gap) * Double(sampleRate)))
        return signal.map { Int16((($0 * scale) * 32_767).rounded()) } + silence
    }

    /// One note, full scale 1, shaped to start and end at zero.
    static func tone(_ frequency: Double, length: Double, sampleRate: Int) -> [Double] {
        let count = Int(length * Double(sampleRate))
        let rise = max(1, Int(attack * Double(sampleRate)))
        let fall = max(1, Int(release * Double(sampleRate)))
        return (0..<count).map { index in
            let time = Double(index) / Double(sampleRate)
            var envelope = 1.0
            if index < rise { envelope = 0.5 - 0.5 * cos(Double.pi * Double(index) / Double(rise)) }
            let fromEnd = count - 1 - index
            if fromEnd < fall { envelope *= 0.5 - 0.5 * cos(Double.pi * Double(fromEnd) / Double(fall)) }
            let phase = 2 * Double.pi * frequency * time
            return envelope * (0.85 * sin(phase) + 0.15 * sin(2 * phase))
        }
    }

    /// The factor that puts `signal` at `loudness` LUFS (measured over the sound repeated to a
    /// gated length), but never above −1 dBFS peak.
    static func gain(for signal: [Double], sampleRate: Int, loudness: Double) -> Double {
        let unit = signal.map { Int16(($0 * 0.25 * 32_767).rounded()) }
        var repeated: [Int16] = []
        while repeated.count < sampleRate * 2 { repeated += unit }
        let measured = IntegratedLoudness.lufs(repeated, sampleRate: sampleRate)
        guard measured.isFinite, loudness.isFinite else { return 0 }
        let wanted = 0.25 * Decibels.amplitude(fromDB: loudness - measured)
        let peak = signal.map(abs).max() ?? 1
        return min(wanted, Decibels.amplitude(fromDB: -1) / max(peak, 1e-9))
    }
}
