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
