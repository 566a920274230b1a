import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// The sinks and renderers of the core pass the conformance checks a user's own can run.
@Suite struct ConformanceTests {
    @Test(arguments: ["memory", "null", "wav", "streaming wav"])
    func sinksConform(_ kind: String) throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("out.wav")
        let sink: any AudioSink =
            switch kind {
            case "memory": MemorySink()
            case "null": NullSink()
            case "wav": WAVFileSink(url: url)
            default: StreamingWAVFileSink(url: url)
            }
        #expect(AudioSinkConformance.violations(of: sink) == [])
    }

    @Test(arguments: ["recording", "normalizing", "command"])
    func renderersConform(_ kind: String) throws {
        let renderer: any SpeechRenderer =
            switch kind {
            case "recording": RecordingRenderer()
            case "normalizing": NormalizingRenderer(RecordingRenderer())
            default: try CommandRenderer(command: "espeak-ng -m --stdout", input: .ssml)
            }
        #expect(SpeechRendererConformance.violations(of: renderer) == [])
    }

    /// The check finds a broken renderer: one that ignores `.stop` and reports the wrong rate.
    @Test func theRendererCheckCatchesABrokenEngine() {
        struct Broken: SpeechRenderer {
            var sampleRate: Int { 16_000 }
            func render(
                _ utterance: Utterance, voice: VoiceProfile, handler: (RenderEvent) -> RenderControl
            ) throws -> RenderSummary {
                for _ in 0..<3 { _ = handler(.audio([Int16](repeating: 100, count: 160))) }
                if utterance.segments.isEmpty { throw CocoaError(.featureUnsupported) }
                return RenderSummary(sampleRate: 22_050, sampleCount: 480)
            }
        }
        let problems = SpeechRendererConformance.violations(of: Broken())
        #expect(problems.contains { $0.contains("rate") })
        #expect(problems.contains { $0.contains("after .stop") })
        #expect(problems.contains { $0.contains("nothing to say") })
    }
}
