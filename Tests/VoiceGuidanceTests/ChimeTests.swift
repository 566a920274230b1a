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

@Suite struct PromptChimeDeliveryTests {
    /// The reroute sound a prompt's delivery asks for is played before it (over the configured
    /// chime), as loud as the voice at its speed gain, and the events move by its length.
    @Test func theSynthesizerPlaysThePromptsOwnSoundAtItsSpeedLoudness() async throws {
        let sink = MemorySink()
        let synthesizer = SpeechSynthesizer(
            renderer: RecordingRenderer(), sink: sink, configuration: .init(chime: .prompt))
        let delivery = PromptDelivery(speedGainDB: 6, chime: .reroute)
        await synthesizer.speak(SpokenInstruction(text: "turn left now", delivery: delivery))
        let chime = Chime.samples(.reroute, sampleRate: 22_050, loudness: -10)
        #expect(Array(sink.samples.prefix(chime.count)) == chime)
        #expect(delivery.chimeSamples(sampleRate: 22_050) == chime)
        let sound = Chime.samples(.reroute, sampleRate: 22_050, gap: 0)
        var repeated: [Int16] = []
        while repeated.count < 44_100 {
            repeated += Chime.samples(.reroute, sampleRate: 22_050, loudness: -10, gap: 0)
        }
        #expect(abs(IntegratedLoudness.lufs(repeated, sampleRate: 22_050) - -10) <= 1)
        #expect(AudioLevel.peakDB(repeated) <= -0.99, "never clipping")
        #expect(sound.count < chime.count)
        let duration = try await synthesizer.duration(
            of: SpokenInstruction(text: "turn left now", delivery: delivery))
        let plain = try await synthesizer.duration(of: SpokenInstruction(text: "turn left now"))
        #expect(abs(duration - plain - Chime.duration(.reroute)) < 0.001, "its length counts the sound")
    }

    @Test func aDeliveredAudioStartsWithItsChimeAndShiftsWordsAndMarks() {
        let audio = RenderedAudio(
            sampleRate: 22_050, samples: [1, 2, 3], marks: [MarkBoundary(name: "m", sample: 1)],
            words: [WordBoundary(sample: 2, text: "left")])
        let chime = Chime.samples(.prompt, sampleRate: 22_050)
        let delivered = PromptDelivery(chime: .prompt).withChime(audio)
        #expect(delivered.samples == chime + [1, 2, 3])
        #expect(
            delivered.words.first?.sample == chime.count + 2
                && delivered.marks.first?.sample == chime.count + 1)
        #expect(PromptDelivery(speedGainDB: 3).withChime(audio) == audio)
        #expect(abs(Chime.duration(.prompt) - Double(chime.count) / 22_050) < 0.001)
    }
}
