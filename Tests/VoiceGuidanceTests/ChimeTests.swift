import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@Suite struct ChimeTests {
    /// Click-free: the sound starts and ends at zero, and no step between samples is larger than
    /// its sines can make (2π f / rate of the peak), so there is no discontinuity anywhere.
    @Test(arguments: Chime.Kind.allCases)
    func chimesAreClickFreeAndAtTheVoiceLoudness(kind: Chime.Kind) {
        let rate = 22_050
        let samples = Chime.samples(kind, sampleRate: rate, gap: 0)
        #expect(samples.first == 0 && abs(Int(samples.last ?? 99)) < 30)
        let peak = Double(AudioLevel.peak(samples))
        let largestStep = zip(samples, samples.dropFirst()).map { abs(Int($1) - Int($0)) }.max() ?? 0
        let sineLimit = peak * 2 * Double.pi * 2 * 1_760 / Double(rate)
        #expect(Double(largestStep) <= sineLimit, "step \(largestStep) over \(sineLimit)")
        #expect(AudioLevel.peakDB(samples) <= -0.99)
        var repeated: [Int16] = []
        while repeated.count < rate * 2 { repeated += samples }
        let loudness = IntegratedLoudness.lufs(repeated, sampleRate: rate)
        #expect(abs(loudness - -16) <= 1, "\(kind): \(loudness) LUFS")
        #expect(Double(samples.count) / Double(rate) < 0.5, "short")
    }

    @Test func theRerouteSoundIsDistinctFromThePromptChime() {
        let prompt = Chime.samples(.prompt, sampleRate: 22_050, gap: 0)
        let reroute = Chime.samples(.reroute, sampleRate: 22_050, gap: 0)
        #expect(AudioAnalysis.spectralSimilarity(prompt, reroute) < 0.6)
        #expect(reroute.count > prompt.count, "three notes against two")
    }

    @Test func theSynthesizerPlaysTheChimeBeforeThePromptAndShiftsItsEvents() async throws {
        let sink = MemorySink()
        let synthesizer = SpeechSynthesizer(
            renderer: RecordingRenderer(), sink: sink, configuration: .init(chime: .prompt))
        await synthesizer.speak(SpokenInstruction(text: "turn left now"))
        let chime = Chime.samples(.prompt, sampleRate: 22_050)
        let rendered = try renderedSamples("turn left now")
        #expect(Array(sink.samples.prefix(chime.count)) == chime)
        #expect(Array(sink.samples.dropFirst(chime.count)) == rendered)
    }
}
