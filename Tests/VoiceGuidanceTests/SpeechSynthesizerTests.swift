import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@Suite struct SpeechSynthesizerTests {
    @Test func speakWritesTheRenderedSamplesAndFiresEventsInOrder() async throws {
        let sink = MemorySink()
        let synthesizer = SpeechSynthesizer(renderer: RecordingRenderer(), sink: sink)
        let events = synthesizer.events()
        let prompt = SpokenInstruction(text: "turn left now")
        await synthesizer.speak(prompt)
        let received = await collectEvents(events, didSpeakCount: 1)
        #expect(sink.samples == (try renderedSamples("turn left now")))
        #expect(sink.prompts.count == 1)
        #expect(sink.prompts[0].format == AudioFormat(sampleRate: 22_050))
        #expect(sink.prompts[0].isComplete && !sink.prompts[0].wasInterrupted)
        #expect(
            received.map(label) == [
                "will:turn left now", "word:turn left now:turn", "word:turn left now:left",
                "word:turn left now:now", "did:turn left now",
            ])
    }

    @Test func interruptingMidPromptFadesTheTailAndReportsIt() async throws {
        let sink = MemorySink(pacesToRealTime: true)
        let synthesizer = SpeechSynthesizer(renderer: RecordingRenderer(), sink: sink)
        let events = synthesizer.events()
        let speaking = Task { await synthesizer.speak(SpokenInstruction(text: longText)) }
        #expect(await waitUntil { sink.samples.count > 22_050 / 4 })
        #expect(synthesizer.isSpeaking)
        synthesizer.interruptSpeaking()
        await speaking.value
        let received = await collectEvents(events, didSpeakCount: 1)
        let full = try renderedSamples(longText)
        let played = sink.samples
        #expect(played.count < full.count / 2)
        #expect(played.count > 22_050 / 4)
        // Everything before the fade is the rendered audio unchanged.
        #expect(Array(played.prefix(played.count - 221)) == Array(full.prefix(played.count - 221)))
        #expect(tailRampsToZero(played, length: 221, peak: 8_000))
        #expect(sink.prompts.last?.wasInterrupted == true)
        #expect(
            lifecycle(received) == [
                "will:\(longText)", "interrupt:\(longText)>-", "did:\(longText)!cancelled",
            ])
    }

    @Test func aNewPromptCutsTheCurrentOneAndNeverOverlaps() async throws {
        let sink = MemorySink(pacesToRealTime: true)
        let synthesizer = SpeechSynthesizer(renderer: RecordingRenderer(), sink: sink)
        let events = synthesizer.events()
        let first = Task { await synthesizer.speak(SpokenInstruction(text: longText)) }
        #expect(await waitUntil { sink.samples.count > 22_050 / 4 })
        await synthesizer.speak(SpokenInstruction(text: "now"))
        await first.value
        let received = await collectEvents(events, didSpeakCount: 2)
        #expect(
            lifecycle(received) == [
                "will:\(longText)", "interrupt:\(longText)>now", "did:\(longText)!cancelled", "will:now",
                "did:now",
            ])
        try #require(sink.prompts.count == 2)
        #expect(sink.prompts[0].wasInterrupted && sink.prompts[0].samples.last == 0)
        #expect(sink.prompts[1].samples == (try renderedSamples("now")))
    }

    @Test func muteCutsTheCurrentPromptAndMutedPromptsAreSilent() async throws {
        let sink = MemorySink(pacesToRealTime: true)
        let synthesizer = SpeechSynthesizer(renderer: RecordingRenderer(), sink: sink)
        let events = synthesizer.events()
        let speaking = Task { await synthesizer.speak(SpokenInstruction(text: longText)) }
        #expect(await waitUntil { sink.samples.count > 22_050 / 4 })
        synthesizer.isMuted = true
        await speaking.value
        let cut = sink.samples.count
        #expect(cut < (try renderedSamples(longText)).count / 2)
        #expect(sink.samples.last == 0)
        for index in 0..<3 { await synthesizer.speak(SpokenInstruction(text: "muted \(index)")) }
        let received = await collectEvents(events, didSpeakCount: 4)
        #expect(sink.samples.count == cut)
        #expect(sink.prompts.count == 1)
        #expect(
            lifecycle(received) == [
                "will:\(longText)", "did:\(longText)!cancelled", "will:muted 0", "did:muted 0",
                "will:muted 1",
                "did:muted 1", "will:muted 2", "did:muted 2",
            ])
        synthesizer.isMuted = false
        await synthesizer.speak(SpokenInstruction(text: "back"))
        #expect(sink.prompts.count == 2)
    }

    @Test func stopFinishesTheWordThenFades() async throws {
        let sink = MemorySink(pacesToRealTime: true)
        let renderer = RecordingRenderer()
        let synthesizer = SpeechSynthesizer(renderer: renderer, sink: sink)
        let events = synthesizer.events()
        let speaking = Task { await synthesizer.speak(SpokenInstruction(text: longText)) }
        #expect(await waitUntil { sink.samples.count > 22_050 / 3 })
        synthesizer.stopSpeaking()
        await speaking.value
        let received = await collectEvents(events, didSpeakCount: 1)
        let rendered = try renderer.render(Utterance(text: longText), voice: .fallback)
        let played = sink.samples
        let fade = Int((0.05 * 22_050).rounded())
        // The fade starts exactly where a word starts.
        let cutAt = played.count - fade
        #expect(rendered.words.map(\.sample).contains(cutAt))
        #expect(Array(played.prefix(cutAt)) == Array(rendered.samples.prefix(cutAt)))
        #expect(tailRampsToZero(played, length: fade, peak: 8_000))
        #expect(lifecycle(received) == ["will:\(longText)", "did:\(longText)!cancelled"])
    }

    @Test func wordEventsFireWhenTheWordIsHeard() async throws {
        let sink = MemorySink(pacesToRealTime: true)
        let synthesizer = SpeechSynthesizer(renderer: RecordingRenderer(), sink: sink)
        let stream = synthesizer.events()
        let times = Locked<[(String, ContinuousClock.Instant)]>([])
        let listener = Task {
            for await event in stream {
                switch event {
                case .word(_, let word): times.withLock { $0.append((word.text, .now)) }
                case .didSpeak: return
                default: continue
                }
            }
        }
        let text = "keep right at the fork"
        // Events can reach the listener late (a busy pool), never early: time them from the call.
        let start = ContinuousClock.now
        await synthesizer.speak(SpokenInstruction(text: text))
        await listener.value
        let rendered = try RecordingRenderer().render(Utterance(text: text), voice: .fallback)
        let recorded = times.withLock { $0 }
        let heard = recorded
        #expect(heard.map(\.0) == rendered.words.map(\.text))
        for (word, (_, time)) in zip(rendered.words, heard) {
            let expected = Double(word.sample) / 22_050
            let actual =
                Double((time - start).components.attoseconds) * 1e-18
                + Double((time - start).components.seconds)
            // Never before it is heard (40 ms of audio are queued ahead). No upper bound: the
            // listener runs on the cooperative pool, which other tests may keep busy.
            #expect(actual >= expected - 0.001, "\(word.text) at \(actual) s, heard at \(expected) s")
        }
    }

    @Test func invalidSSMLFallsBackToTheTextWithAnErrorEvent() async throws {
        struct Broken: Error {}
        let renderer = RecordingRenderer()
        let synthesizer = SpeechSynthesizer(
            renderer: renderer, sink: MemorySink(), parseSSML: { _ in throw Broken() })
        let events = synthesizer.events()
        await synthesizer.speak(SpokenInstruction(text: "exit now", ssml: "<speak>exit <b>now</speak>"))
        let received = await collectEvents(events, didSpeakCount: 1)
        #expect(renderer.utterances == [Utterance(text: "exit now")])
        #expect(lifecycle(received) == ["will:exit now", "error:invalidSSML", "did:exit now"])
    }

    @Test func parsedSSMLIsRendered() async throws {
        let renderer = RecordingRenderer()
        let parsed = Utterance(segments: [
            .text(TextSegment(text: "exit")), .mark("m1"), .text(TextSegment(text: "now")),
        ])
        let synthesizer = SpeechSynthesizer(
            renderer: renderer, sink: MemorySink(), parseSSML: { _ in parsed })
        let events = synthesizer.events()
        await synthesizer.speak(
            SpokenInstruction(text: "exit now", ssml: "<speak>exit <mark name='m1'/>now</speak>"))
        let received = await collectEvents(events, didSpeakCount: 1)
        #expect(renderer.utterances == [parsed])
        #expect(
            received.map(label) == [
                "will:exit now", "word:exit now:exit", "mark:exit now:m1", "word:exit now:now",
                "did:exit now",
            ])
    }

    @Test func willSpeakHookReplacesOrSuppresses() async throws {
        let sink = MemorySink()
        let synthesizer = SpeechSynthesizer(renderer: RecordingRenderer(), sink: sink)
        synthesizer.willSpeak = { instruction in
            switch instruction.text {
            case "secret": .suppress
            case "old": .replace(SpokenInstruction(text: "new"))
            default: .keep
            }
        }
        let events = synthesizer.events()
        await synthesizer.speak(SpokenInstruction(text: "secret"))
        await synthesizer.speak(SpokenInstruction(text: "old"))
        let received = await collectEvents(events, didSpeakCount: 2)
        #expect(lifecycle(received) == ["did:secret", "will:new", "did:new"])
        #expect(sink.samples == (try renderedSamples("new")))
    }

    @Test func volumeScalesTheSamples() async throws {
        let sink = MemorySink()
        let synthesizer = SpeechSynthesizer(renderer: RecordingRenderer(), sink: sink)
        synthesizer.volumeDB = -6.020_599_913
        await synthesizer.speak(SpokenInstruction(text: "quiet"))
        let full = try renderedSamples("quiet")
        #expect(sink.samples.count == full.count)
        for (played, original) in zip(sink.samples, full) {
            #expect(abs(Int(played) - Int((Double(original) / 2).rounded())) <= 1)
        }
    }

    @Test func prepareRendersOnceAndSpeakingUsesTheCache() async throws {
        let renderer = RecordingRenderer()
        let sink = MemorySink()
        let synthesizer = SpeechSynthesizer(renderer: renderer, sink: sink)
        let metrics = Locked<[PromptMetrics]>([])
        synthesizer.metricsHandler = { value in metrics.withLock { $0.append(value) } }
        let prompts = [SpokenInstruction(text: "one"), SpokenInstruction(text: "two")]
        await synthesizer.prepare(prompts)
        #expect(renderer.utterances.count == 2)
        await synthesizer.prepare(prompts)
        #expect(renderer.utterances.count == 2)
        #expect(
            abs(
                try await synthesizer.duration(of: prompts[0]) - Double((try renderedSamples("one")).count)
                    / 22_050) < 1e-9)
        for prompt in prompts { await synthesizer.speak(prompt) }
        #expect(renderer.utterances.count == 2)
        #expect(sink.samples == (try renderedSamples("one")) + (try renderedSamples("two")))
        let recorded = metrics.withLock { $0 }
        #expect(recorded.map(\.wasCached) == [true, true])
        #expect(recorded.allSatisfy { $0.firstFrameLatency != nil && $0.audioSeconds > 0 })
    }

    @Test func cacheIsBoundedAndDropsTheLeastRecentlyUsed() async throws {
        let renderer = RecordingRenderer()
        // "aaaa" renders 0.3 s = 6,615 samples = 13.5 kB; room for two such prompts.
        let synthesizer = SpeechSynthesizer(
            renderer: renderer, sink: NullSink(), configuration: .init(cacheLimitBytes: 28_000))
        let a = SpokenInstruction(text: "aaaa")
        let b = SpokenInstruction(text: "bbbb")
        let c = SpokenInstruction(text: "cccc")
        await synthesizer.prepare([a, b])
        await synthesizer.speak(a)  // a is now the most recently used
        await synthesizer.prepare([c])  // drops b
        #expect(renderer.utterances.count == 3)
        await synthesizer.speak(a)
        #expect(renderer.utterances.count == 3)
        await synthesizer.speak(b)
        #expect(renderer.utterances.count == 4)
    }

    @Test func renderAndDeviceFailuresEndThePromptWithTheError() async throws {
        let renderer = RecordingRenderer(failure: RenderError(.synthesisFailed, "engine broke"))
        let sink = MemorySink()
        let synthesizer = SpeechSynthesizer(renderer: renderer, sink: sink)
        let events = synthesizer.events()
        await synthesizer.speak(SpokenInstruction(text: "a"))
        renderer.setFailure(nil)
        sink.setFailure(AudioSinkError(.unavailable, "device gone"))
        await synthesizer.speak(SpokenInstruction(text: "b"))
        sink.setFailure(nil)
        await synthesizer.speak(SpokenInstruction(text: "c"))
        let received = await collectEvents(events, didSpeakCount: 3)
        #expect(
            lifecycle(received) == [
                "will:a", "error:synthesis", "did:a!synthesis", "will:b", "error:audioDevice",
                "did:b!audioDevice",
                "will:c", "did:c",
            ])
        #expect(sink.samples == (try renderedSamples("c")))
    }

    @Test func cancellingTheSpeakingTaskInterruptsThePrompt() async throws {
        let sink = MemorySink(pacesToRealTime: true)
        let synthesizer = SpeechSynthesizer(renderer: RecordingRenderer(), sink: sink)
        let events = synthesizer.events()
        let speaking = Task { await synthesizer.speak(SpokenInstruction(text: longText)) }
        #expect(await waitUntil { sink.samples.count > 22_050 / 5 })
        speaking.cancel()
        await speaking.value
        let received = await collectEvents(events, didSpeakCount: 1)
        #expect(
            lifecycle(received) == [
                "will:\(longText)", "interrupt:\(longText)>-", "did:\(longText)!cancelled",
            ])
        #expect(sink.samples.last == 0)
    }

    @Test func localePicksAMatchingVoice() {
        let german = VoiceProfile(id: "de-DE", locale: "de-DE", espeakVoice: "de")
        let british = VoiceProfile(id: "en-GB", locale: "en-GB", espeakVoice: "en-gb")
        let synthesizer = SpeechSynthesizer(
            renderer: RecordingRenderer(), sink: NullSink(), voices: [german, british])
        #expect(synthesizer.locale == "en-US")
        synthesizer.locale = "de-AT"
        #expect(synthesizer.voice == german)
        synthesizer.locale = "en-GB"
        #expect(synthesizer.voice == british)
        synthesizer.locale = "fr-FR"
        #expect(synthesizer.voice == british)
        #expect(synthesizer.locale == "fr-FR")
    }

    /// 100 speaks, stops and interrupts from several tasks at once: every speak gets exactly one
    /// willSpeak and one didSpeak, in that order, a didInterrupt only right before its own
    /// didSpeak, and prompts never overlap in the sink.
    @Test func eventsStayConsistentUnderConcurrentUse() async throws {
        let sink = MemorySink(pacesToRealTime: true)
        let synthesizer = SpeechSynthesizer(
            renderer: RecordingRenderer(secondsPerCharacter: 0.004), sink: sink)
        let events = synthesizer.events()
        let speakCount = 70
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<5 {
                group.addTask {
                    for step in 0..<20 {
                        let index = worker * 20 + step
                        switch index % 10 {
                        case 3: synthesizer.stopSpeaking()
                        case 6, 9: synthesizer.interruptSpeaking()
                        default: await synthesizer.speak(SpokenInstruction(text: "prompt number \(index)"))
                        }
                    }
                }
            }
        }
        let received = await collectEvents(events, didSpeakCount: speakCount)
        var will: [String: Int] = [:]
        var did: [String: Int] = [:]
        var open: String?
        for event in received {
            switch event {
            case .willSpeak(let instruction):
                #expect(open == nil, "willSpeak \(instruction.text) while \(open ?? "") is open")
                open = instruction.text
                will[instruction.text, default: 0] += 1
            case .didSpeak(let instruction, _):
                #expect(open == instruction.text)
                open = nil
                did[instruction.text, default: 0] += 1
            case .didInterrupt(let old, _):
                #expect(open == old.text)
            case .word(let instruction, _), .mark(let instruction, _):
                #expect(open == instruction.text)
            case .error(let error):
                Issue.record("unexpected error \(error)")
            }
        }
        #expect(will.count == speakCount && will.values.allSatisfy { $0 == 1 })
        #expect(did.count == speakCount && did.values.allSatisfy { $0 == 1 })
        #expect(sink.prompts.allSatisfy { $0.isComplete })
        #expect(!synthesizer.isSpeaking)
    }
}

@Suite struct SpeechSynthesizerSSMLTests {
    @Test func theDefaultParserTurnsSSMLIntoMarksAndPauses() async throws {
        let renderer = RecordingRenderer()
        let synthesizer = SpeechSynthesizer(renderer: renderer, sink: MemorySink())
        let events = synthesizer.events()
        await synthesizer.speak(
            SpokenInstruction(
                text: "exit now", ssml: "<speak>exit <break time=\"200ms\"/><mark name=\"m\"/>now</speak>"))
        let received = await collectEvents(events, didSpeakCount: 1)
        let utterance = try #require(renderer.utterances.first)
        #expect(utterance.segments.contains(.mark("m")))
        #expect(utterance.segments.contains(.pause(.seconds(0.2))))
        #expect(received.map(label).contains("mark:exit now:m"))
        #expect(lifecycle(received) == ["will:exit now", "did:exit now"])
    }

    @Test func malformedSSMLSpeaksTheTextWithAnErrorEvent() async throws {
        let renderer = RecordingRenderer()
        let synthesizer = SpeechSynthesizer(renderer: renderer, sink: MemorySink())
        let events = synthesizer.events()
        await synthesizer.speak(SpokenInstruction(text: "exit now", ssml: "<speak>exit <prosody>now</speak>"))
        let received = await collectEvents(events, didSpeakCount: 1)
        #expect(renderer.utterances == [Utterance(text: "exit now")])
        #expect(lifecycle(received) == ["will:exit now", "error:invalidSSML", "did:exit now"])
        let message = received.compactMap { event -> String? in
            if case .error(let error) = event { return error.message }
            return nil
        }
        #expect(
            message.first?.contains("line 1") == true || message.first?.contains("1:") == true, "\(message)")
    }
}
