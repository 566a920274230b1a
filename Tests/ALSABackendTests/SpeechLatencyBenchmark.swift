import ALSABackend
import ESpeakBackend
import Foundation
import Synchronization
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// Time from `speak` to the first frame handed to ALSA, over 200 corpus prompts, cold (rendered
/// by eSpeak NG on the spot) and after `prepare`, and CPU time per second of audio, measured
/// with `SpeechSynthesizer.metricsHandler` on the `silent` (null) PCM.
@Suite(.serialized) struct SpeechLatencyBenchmark {
    struct Figures: CustomStringConvertible {
        var p50: Double
        var p99: Double
        var cpuPerAudioSecond: Double
        var description: String {
            String(
                format: "p50 %.2f ms, p99 %.2f ms, CPU %.2f ms per s of audio", p50, p99, cpuPerAudioSecond)
        }
    }

    static func measure(prepared: Bool) async throws -> Figures {
        _ = ALSATestEnvironment.shared
        let renderer = try ESpeakRenderer()
        let sink = ALSASink(device: "silent")
        let synthesizer = SpeechSynthesizer(renderer: renderer, sink: sink)
        let metrics = Mutex<[PromptMetrics]>([])
        synthesizer.metricsHandler = { value in metrics.withLock { $0.append(value) } }
        var seen = Set<String>()
        let prompts = try SharedFixtures.announcements().filter { seen.insert($0.ssml).inserted }.prefix(200)
            .map { SpokenInstruction(text: $0.text, ssml: $0.ssml) }
        // Open the device once so neither run measures ALSA's first configuration load.
        try sink.begin(AudioFormat(sampleRate: renderer.sampleRate))
        try sink.finish()
        if prepared { await synthesizer.prepare(prompts) }
        for prompt in prompts { await synthesizer.speak(prompt) }
        try sink.close()
        let recorded = metrics.withLock { $0 }
        #expect(recorded.count == prompts.count)
        #expect(recorded.allSatisfy { $0.error == nil && $0.wasCached == prepared })
        let latencies = recorded.compactMap(\.firstFrameLatency).map {
            Double($0.components.seconds) * 1_000 + Double($0.components.attoseconds) * 1e-15
        }.sorted()
        let cpu = recorded.reduce(0) { $0 + $1.cpuSeconds }
        let audio = recorded.reduce(0) { $0 + $1.audioSeconds }
        return Figures(
            p50: latencies[latencies.count / 2], p99: latencies[Int(Double(latencies.count - 1) * 0.99)],
            cpuPerAudioSecond: cpu / audio * 1_000)
    }

    @Test func speakToFirstFrameCold() async throws {
        let figures = try await Self.measure(prepared: false)
        print("speak → first frame to ALSA, cold (eSpeak NG render): \(figures)")
        #expect(figures.p99 < 50)
    }

    @Test func speakToFirstFramePrepared() async throws {
        let figures = try await Self.measure(prepared: true)
        print("speak → first frame to ALSA, prepared: \(figures)")
        #expect(figures.p99 < 10)
    }
}
