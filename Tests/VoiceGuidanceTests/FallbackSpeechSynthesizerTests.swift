import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@Suite struct FallbackSpeechSynthesizerTests {
    struct Pair {
        let renderer: RecordingRenderer
        let sink: MemorySink
        let synthesizer: SpeechSynthesizer

        init(failing: Bool = false, paced: Bool = false) {
            renderer = RecordingRenderer(
                failure: failing ? RenderError(.synthesisFailed, "engine broke") : nil)
            sink = MemorySink(pacesToRealTime: paced)
            synthesizer = SpeechSynthesizer(renderer: renderer, sink: sink)
        }
    }

    @Test func aSynthesisErrorHandsThePromptToTheNextSynthesizer() async throws {
        let first = Pair(failing: true)
        let second = Pair()
        let fallback = FallbackSpeechSynthesizer([first.synthesizer, second.synthesizer])
        let events = fallback.events()
        await fallback.speak(SpokenInstruction(text: "turn right"))
        let received = await collectEvents(events, didSpeakCount: 1)
        #expect(lifecycle(received) == ["will:turn right", "error:synthesis", "did:turn right"])
        #expect(received.filter { if case .word = $0 { true } else { false } }.count == 2)
        #expect(first.sink.prompts.isEmpty || first.sink.samples.isEmpty)
        #expect(second.sink.samples == (try renderedSamples("turn right")))
    }

    @Test func theLastFailureIsReportedWhenEverySynthesizerFails() async throws {
        let fallback = FallbackSpeechSynthesizer([
            Pair(failing: true).synthesizer, Pair(failing: true).synthesizer,
        ])
        let events = fallback.events()
        await fallback.speak(SpokenInstruction(text: "x"))
        let received = await collectEvents(events, didSpeakCount: 1)
        #expect(lifecycle(received) == ["will:x", "error:synthesis", "did:x!synthesis"])
    }

    @Test func anInterruptedPromptIsNotHandedOver() async throws {
        let first = Pair(paced: true)
        let second = Pair()
        let fallback = FallbackSpeechSynthesizer([first.synthesizer, second.synthesizer])
        let events = fallback.events()
        let speaking = Task { await fallback.speak(SpokenInstruction(text: longText)) }
        #expect(await waitUntil { first.sink.samples.count > 22_050 / 4 })
        fallback.interruptSpeaking()
        await speaking.value
        let received = await collectEvents(events, didSpeakCount: 1)
        #expect(
            lifecycle(received) == [
                "will:\(longText)", "interrupt:\(longText)>-", "did:\(longText)!cancelled",
            ])
        #expect(second.renderer.utterances.isEmpty)
        #expect(!first.sink.samples.isEmpty)
    }

    @Test func anAudioDeviceErrorIsNotHandedOver() async throws {
        let first = Pair()
        first.sink.setFailure(AudioSinkError(.unavailable, "no card"))
        let second = Pair()
        let fallback = FallbackSpeechSynthesizer([first.synthesizer, second.synthesizer])
        let events = fallback.events()
        await fallback.speak(SpokenInstruction(text: "x"))
        let received = await collectEvents(events, didSpeakCount: 1)
        #expect(lifecycle(received) == ["will:x", "did:x!audioDevice"])
        #expect(second.renderer.utterances.isEmpty)
    }

    @Test func settingsReachEverySynthesizer() {
        let first = Pair()
        let second = Pair()
        let fallback = FallbackSpeechSynthesizer([first.synthesizer, second.synthesizer])
        fallback.isMuted = true
        fallback.volumeDB = -3
        fallback.locale = "de-DE"
        for synthesizer in [first.synthesizer, second.synthesizer] {
            #expect(synthesizer.isMuted && synthesizer.volumeDB == -3 && synthesizer.locale == "de-DE")
        }
    }
}

@Suite struct SpeechSynthesizingConformanceTests {
    @Test func theDefaultSynthesizerConforms() async {
        let synthesizer = SpeechSynthesizer(
            renderer: RecordingRenderer(secondsPerCharacter: 0.003), sink: MemorySink(pacesToRealTime: true))
        let problems = await SpeechSynthesizingConformance.violations(of: synthesizer)
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func theFallbackSynthesizerConforms() async {
        let failing = SpeechSynthesizer(
            renderer: RecordingRenderer(failure: RenderError(.synthesisFailed, "down")), sink: MemorySink())
        let working = SpeechSynthesizer(
            renderer: RecordingRenderer(secondsPerCharacter: 0.003), sink: MemorySink(pacesToRealTime: true))
        let fallback = FallbackSpeechSynthesizer([failing, working])
        let problems = await SpeechSynthesizingConformance.violations(of: fallback, promptCount: 30)
        #expect(problems.isEmpty, "\(problems)")
    }

    /// The check itself fails a synthesizer that forgets didSpeak.
    @Test func theCheckCatchesAMissingDidSpeak() async {
        final class Forgetful: SpeechSynthesizing, @unchecked Sendable {
            let inner = SpeechSynthesizer(
                renderer: RecordingRenderer(secondsPerCharacter: 0.001), sink: NullSink())
            let (stream, continuation) = AsyncStream.makeStream(of: SpeechEvent.self)
            var isMuted = false
            var volumeDB = 0.0
            var locale = "en-US"
            var isSpeaking: Bool { false }
            var willSpeak: (@Sendable (SpokenInstruction) -> SpeechOverride)?
            func events() -> AsyncStream<SpeechEvent> { stream }
            func prepare(_ instructions: [SpokenInstruction]) async {}
            func duration(of instruction: SpokenInstruction) async throws -> Double { 0 }
            nonisolated(nonsending) func speak(_ instruction: SpokenInstruction) async {
                continuation.yield(.willSpeak(instruction))
                if !instruction.text.hasSuffix("3") { continuation.yield(.didSpeak(instruction, error: nil)) }
            }
            func stopSpeaking() {}
            func interruptSpeaking() {}
        }
        let problems = await SpeechSynthesizingConformance.violations(
            of: Forgetful(), promptCount: 6, tasks: 1, timeout: .milliseconds(500))
        #expect(!problems.isEmpty)
    }
}
