import Foundation
import Testing
import VoiceGuidance

@Suite struct IntegratedLoudnessTests {
    static func sine(_ frequency: Double, amplitude: Double, seconds: Double, rate: Int) -> [Int16] {
        (0..<Int(seconds * Double(rate))).map {
            Int16((amplitude * 32_767 * sin(2 * Double.pi * frequency * Double($0) / Double(rate))).rounded())
        }
    }

    /// BS.1770's own check: a 997 Hz sine at −20 dBFS peak reads −23.0 LUFS (full scale −3.01),
    /// at 48 kHz and at eSpeak's 22,050 Hz.
    @Test(arguments: [48_000, 22_050])
    func aSineAtMinus20dBFSReadsMinus23LUFS(rate: Int) {
        let loudness = IntegratedLoudness.lufs(
            Self.sine(997, amplitude: 0.1, seconds: 3, rate: rate), sampleRate: rate)
        #expect(abs(loudness - -23.01) < 0.1, "\(loudness) LUFS")
    }

    /// Gating: 4 s of silence in between, or 4 s 20 dB down, leave the figure within 0.5 LU (only
    /// the blocks straddling the edges, partly tone, pass the gates; without gating the silence
    /// alone would take 4.8 LU off).
    @Test func silenceAndQuietPartsAreGatedOut() {
        let rate = 22_050
        let tone = Self.sine(997, amplitude: 0.1, seconds: 2, rate: rate)
        let alone = IntegratedLoudness.lufs(tone, sampleRate: rate)
        let gapped = tone + [Int16](repeating: 0, count: rate * 4) + tone
        #expect(abs(IntegratedLoudness.lufs(gapped, sampleRate: rate) - alone) < 0.5)
        let withQuiet = tone + Self.sine(997, amplitude: 0.01, seconds: 4, rate: rate)
        #expect(abs(IntegratedLoudness.lufs(withQuiet, sampleRate: rate) - alone) < 0.5)
        // Low frequencies weigh less, high ones more (the K curve).
        let low = IntegratedLoudness.lufs(
            Self.sine(40, amplitude: 0.1, seconds: 2, rate: rate), sampleRate: rate)
        let high = IntegratedLoudness.lufs(
            Self.sine(4_000, amplitude: 0.1, seconds: 2, rate: rate), sampleRate: rate)
        #expect(low < alone - 0.5 && high > alone + 2, "40 Hz \(low), 4 kHz \(high)")
        #expect(IntegratedLoudness.lufs([Int16](repeating: 0, count: rate), sampleRate: rate) == -.infinity)
        #expect(IntegratedLoudness.lufs(tone.prefix(1_000), sampleRate: rate) == -.infinity, "under 400 ms")
    }
}
