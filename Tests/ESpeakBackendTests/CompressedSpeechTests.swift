import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@testable import ESpeakBackend

/// The speech compressor on real eSpeak speech: a prompt whose first half is 24 dB quieter.
@Suite(.serialized)
struct CompressedSpeechTests {
    @Test func speechPresetShrinksLoudnessRangeOfAPromptAndNeverClips() throws {
        let renderer = try ESpeakRenderer()
        let utterance = Utterance(segments: [
            .text(TextSegment(text: "In two miles, keep left", prosody: Prosody(volumeDB: -24))),
            .text(TextSegment(text: "then take exit four thirty-two towards Cesar Chavez Street")),
        ])
        let audio = try renderer.render(utterance, voice: .fallback)
        var compressed = audio.samples
        DynamicRangeCompressor.speech.process(&compressed, sampleRate: audio.sampleRate)
        let before = AudioAnalysis.loudnessRange(audio.samples, sampleRate: audio.sampleRate)
        let after = AudioAnalysis.loudnessRange(compressed, sampleRate: audio.sampleRate)
        print("speech loudness range: \(before) dB → \(after) dB")
        #expect(before - after >= 6, "loudness range \(before) dB → \(after) dB")
        let peak = compressed.map { abs(Int($0)) }.max() ?? 0
        #expect(peak <= Int(pow(10, -1.0 / 20) * 32767) + 1)
    }

    @Test func amazonEffectDRCInSSMLCompressesTheRenderedPrompt() throws {
        let renderer = try ESpeakRenderer()
        let body =
            #"<prosody volume="-24dB">In two miles, keep left</prosody> then take exit 432 towards Cesar Chavez Street"#
        let plain = try renderer.render(SSMLParser().parse("<speak>\(body)</speak>"), voice: .fallback)
        let effect = try renderer.render(
            SSMLParser().parse(#"<speak><amazon:effect name="drc">"# + body + "</amazon:effect></speak>"),
            voice: .fallback)
        let before = AudioAnalysis.loudnessRange(plain.samples, sampleRate: plain.sampleRate)
        let after = AudioAnalysis.loudnessRange(effect.samples, sampleRate: effect.sampleRate)
        #expect(before - after >= 6, "loudness range \(before) dB → \(after) dB")
        #expect((effect.samples.map { abs(Int($0)) }.max() ?? 0) < 32_767)
        // Compression changes levels, not timing.
        #expect(abs(effect.samples.count - plain.samples.count) < plain.sampleRate / 50)
    }

    /// The corpus's compressed prompts, rendered with and without `drc` (same segments, same
    /// timing): the first 40 ms must not come up more than the prompt as a whole does.
    @Test func compressorAddsNoOnsetBoostOnTheCorpus() throws {
        let renderer = try ESpeakRenderer()
        let parser = SSMLParser()
        let ssml = Array(Set(try TestFixtures.announcements().map(\.ssml))).sorted()
            .filter { $0.contains("amazon:effect") }
        #expect(ssml.count > 200)
        var onset: [Double] = []
        var early: [Double] = []
        var whole: [Double] = []
        for text in stride(from: 0, to: ssml.count, by: 4).map({ ssml[$0] }) {
            guard let utterance = try? parser.parse(text) else { continue }
            let compressed = try renderer.render(utterance, voice: .fallback)
            let plain = try renderer.render(Self.withoutCompression(utterance), voice: .fallback)
            let rate = plain.sampleRate
            let window = rate * 40 / 1000
            guard plain.samples.count > 4 * window, compressed.samples.count > 4 * window else { continue }
            let boost = { (range: Range<Int>) in
                AudioLevel.rmsDB(compressed.samples[range]) - AudioLevel.rmsDB(plain.samples[range])
            }
            onset.append(boost(0..<window))
            early.append(boost(0..<window / 2))
            let body = window..<min(plain.samples.count, compressed.samples.count)
            whole.append(boost(body))
        }
        let excess = zip(onset, whole).map { $0 - $1 }.sorted()
        let median = { (values: [Double]) in values.sorted()[values.count / 2] }
        print(
            "drc onset: first 20 ms \(median(early)) dB, first 40 ms \(median(onset)) dB, rest \(median(whole)) dB; "
                + "40 ms over the rest: median \(median(excess)) dB, worst \(excess.last ?? 0) dB (\(onset.count) prompts)"
        )
        #expect(onset.count > 50)
        #expect(median(excess) <= 1, "median onset boost over the rest: \(median(excess)) dB")
        #expect((excess.last ?? 0) <= 4, "worst onset boost over the rest: \(excess.last ?? 0) dB")
        // Nor is the first word pushed down: compression still brings it up like the rest.
        #expect(median(excess) >= -3, "median onset cut under the rest: \(median(excess)) dB")
    }

    /// The utterance with every text segment's compression turned off.
    static func withoutCompression(_ utterance: Utterance) -> Utterance {
        var plain = utterance
        plain.segments = utterance.segments.map { segment in
            guard case .text(var text) = segment else { return segment }
            text.isCompressed = false
            return .text(text)
        }
        return plain
    }
}
