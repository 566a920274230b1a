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
}
