import Foundation
import Testing
import VoiceGuidance

/// A deterministic test signal: a sum of two sines with a burst of high amplitude in the middle.
private func testSignal(count: Int = 22_050, amplitude: Double = 12_000) -> [Int16] {
    (0..<count).map { index in
        let t = Double(index) / 22_050
        let burst = (count / 3..<count / 2).contains(index) ? 2.5 : 1
        let value = amplitude * burst * (0.7 * sin(2 * .pi * 180 * t) + 0.3 * sin(2 * .pi * 1_130 * t))
        return Int16(max(-32_768, min(32_767, value)))
    }
}

@Suite struct DecibelsTests {
    @Test(arguments: [(0.0, 1.0), (6.0, 1.995_262), (-20.0, 0.1), (20.0, 10.0)])
    func amplitudeOfDecibels(decibels: Double, amplitude: Double) {
        #expect(abs(Decibels.amplitude(fromDB: decibels) - amplitude) < 1e-5)
        #expect(abs(Decibels.decibels(fromAmplitude: amplitude) - decibels) < 1e-4)
    }

    @Test func silenceIsMinusInfinity() {
        #expect(Decibels.amplitude(fromDB: -.infinity) == 0)
        #expect(Decibels.decibels(fromAmplitude: 0) == -.infinity)
    }
}

@Suite struct AudioLevelTests {
    @Test func fullScaleSineIsMinusThreeDB() {
        let sine = (0..<22_050).map { Int16(32_767 * sin(2 * .pi * 551.25 * Double($0) / 22_050)) }
        #expect(abs(AudioLevel.rmsDB(sine) - -3.01) < 0.02)
        #expect(AudioLevel.peak(sine) == 32_767)
        #expect(AudioLevel.rmsDB([Int16](repeating: 0, count: 10)) == -.infinity)
        #expect(AudioLevel.rmsDB([Int16]()) == -.infinity)
    }
}

@Suite struct GainStageTests {
    @Test func unityGainChangesNothing() {
        let signal = testSignal()
        #expect(GainStage.applying(gainDB: 0, to: signal, sampleRate: 22_050) == signal)
    }

    @Test func cutScalesExactly() {
        let signal = testSignal()
        let quieter = GainStage.applying(gainDB: -6, to: signal, sampleRate: 22_050)
        #expect(quieter.count == signal.count)
        #expect(abs(AudioLevel.rmsDB(quieter) - AudioLevel.rmsDB(signal) + 6) < 0.01)
    }

    @Test func boostBelowTheCeilingIsExact() {
        let signal = testSignal(amplitude: 3_000)
        let louder = GainStage.applying(gainDB: 6, to: signal, sampleRate: 22_050)
        #expect(louder.count == signal.count)
        #expect(abs(AudioLevel.rmsDB(louder) - AudioLevel.rmsDB(signal) - 6) < 0.01)
    }

    @Test(arguments: [6.0, 20.0, 40.0])
    func boostNeverClips(gainDB: Double) {
        let signal = testSignal()
        let louder = GainStage.applying(gainDB: gainDB, to: signal, sampleRate: 22_050)
        #expect(louder.count == signal.count)
        let ceiling = Int(32_767 * Decibels.amplitude(fromDB: -0.3)) + 1
        #expect(AudioLevel.peak(louder) <= ceiling)
        #expect(AudioLevel.rmsDB(louder) > AudioLevel.rmsDB(signal))
    }

    @Test func limitedSignalKeepsItsShape() {
        let signal = testSignal()
        let louder = GainStage.applying(gainDB: 6, to: signal, sampleRate: 22_050)
        // Away from the loud burst the limiter has released: the boost there is exactly 6 dB.
        let quietPart = 22_050 * 3 / 4..<22_050
        let ratio =
            AudioLevel.rmsDB(louder[quietPart]) - AudioLevel.rmsDB(signal[quietPart])
        #expect(abs(ratio - 6) < 0.1)
    }

    @Test func streamingMatchesOneCall() {
        let signal = testSignal()
        var stage = GainStage(gainDB: 12, sampleRate: 22_050)
        var streamed: [Int16] = []
        var start = 0
        while start < signal.count {
            let end = min(signal.count, start + 1_081)
            stage.process(Array(signal[start..<end]), into: &streamed)
            start = end
        }
        stage.flush(into: &streamed)
        #expect(streamed == GainStage.applying(gainDB: 12, to: signal, sampleRate: 22_050))
    }

    @Test func silentGainWritesSilenceOfTheSameLength() {
        let silent = GainStage.applying(gainDB: -.infinity, to: testSignal(), sampleRate: 22_050)
        #expect(silent.count == 22_050)
        #expect(AudioLevel.peak(silent) == 0)
    }
}

@Suite struct SilenceTests {
    @Test func trimsBothEnds() {
        let samples: [Int16] = [0, 3, -64, 500, 0, -700, 64, 0]
        #expect(Silence.leadingCount(in: samples) == 3)
        #expect(Silence.trailingCount(in: samples) == 2)
        #expect(Array(Silence.trimmed(samples)) == [500, 0, -700])
        #expect(Silence.trimmed([0, 0, 0]).isEmpty)
        #expect(Silence.trimmed([]).isEmpty)
    }

    @Test func sampleCountRounds() {
        #expect(Silence.sampleCount(seconds: 1.5, sampleRate: 22_050) == 33_075)
        #expect(Silence.sampleCount(seconds: -1, sampleRate: 22_050) == 0)
        #expect(Silence.sampleCount(seconds: .nan, sampleRate: 22_050) == 0)
    }
}

@Suite struct FadeTests {
    @Test func fadesRampToAndFromSilence() {
        var samples = [Int16](repeating: 10_000, count: 100)
        Fade.applyFadeIn(to: &samples, length: 10)
        Fade.applyFadeOut(to: &samples, length: 10)
        #expect(samples[0] == 0)
        #expect(samples[5] == 5_000)
        #expect(samples[50] == 10_000)
        #expect(samples[99] == 0)
        #expect(samples[90] == 9_000)
        #expect(Fade.length(sampleRate: 22_050) == 221)
    }
}

/// `<audio>` clips are resampled to the voice's rate without changing pitch or length.
@Suite struct AudioResamplerTests {
    static func tone(_ frequency: Double, rate: Int, seconds: Double) -> [Int16] {
        (0..<Int(seconds * Double(rate))).map {
            Int16(10_000 * sin(2 * Double.pi * frequency * Double($0) / Double(rate)))
        }
    }

    static func zeroCrossings(_ samples: [Int16]) -> Int {
        zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
    }

    @Test(arguments: [(44_100, 22_050), (16_000, 22_050), (48_000, 22_050), (22_050, 44_100)])
    func keepsLengthPitchAndLevel(from: Int, to: Int) {
        let input = Self.tone(440, rate: from, seconds: 1)
        let output = AudioResampler.resample(input, from: from, to: to)
        #expect(abs(output.count - to) <= 1)
        // 440 Hz: 880 zero crossings a second, whatever the rate.
        #expect(abs(Self.zeroCrossings(output) - 880) <= 2)
        let peak = output.dropFirst(100).dropLast(100).map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 9_700 && peak < 10_300, "peak \(peak)")
    }

    @Test func removesWhatTheLowerRateCannotHold() {
        // 15 kHz at 44.1 kHz is above 11,025 Hz, the Nyquist frequency of 22,050 Hz: it must
        // be filtered out, not folded down to 7 kHz.
        let output = AudioResampler.resample(
            Self.tone(15_000, rate: 44_100, seconds: 0.5), from: 44_100, to: 22_050)
        let input = AudioLevel.rmsDB(Self.tone(15_000, rate: 44_100, seconds: 0.5))
        let level = AudioLevel.rmsDB(output.dropFirst(200).dropLast(200))
        #expect(input - level > 25, "\(input) dBFS in, \(level) dBFS out")
    }

    @Test func sameRateOrEmptyIsUnchanged() {
        let input: [Int16] = [1, 2, 3]
        #expect(AudioResampler.resample(input, from: 22_050, to: 22_050) == input)
        #expect(AudioResampler.resample([], from: 44_100, to: 22_050) == [])
        #expect(AudioResampler.resample(input, from: 0, to: 22_050) == input)
    }
}
