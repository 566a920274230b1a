import ALSABackend
import Foundation
import Synchronization
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

let longPrompt = "turn left onto main street then continue"

func rendered(_ text: String) throws -> [Int16] {
    try RecordingRenderer().render(Utterance(text: text), voice: .fallback).samples
}

func fileSize(_ url: URL) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
}

@Suite(.serialized) struct ALSASinkTests {
    let environment = ALSATestEnvironment.shared

    /// ALSA passes the sink conformance check a user's own sink can run.
    @Test func theALSASinkConforms() throws {
        _ = try environment.captureFile("conformance")
        #expect(AudioSinkConformance.violations(of: ALSASink(device: "capture")) == [])
    }

    /// A device that cannot be opened is an error that keeps ALSA's own status code.
    @Test func aMissingDeviceKeepsALSAsCode() throws {
        let error = try #require(throws: AudioSinkError.self) {
            try ALSASink(device: "nosuch").begin(AudioFormat(sampleRate: 22_050))
        }
        #expect(error.kind == .unavailable)
        #expect(error.cause?.library == "libasound")
        #expect((error.cause?.code ?? 0) != 0)
    }

    @Test func capturedBytesEqualTheRenderedPCM() async throws {
        let file = try environment.captureFile("exact")
        let sink = ALSASink(device: "capture")
        let synthesizer = SpeechSynthesizer(renderer: RecordingRenderer(), sink: sink)
        let events = synthesizer.events()
        await synthesizer.speak(SpokenInstruction(text: "turn left now"))
        await synthesizer.speak(SpokenInstruction(text: "then right"))
        let configuration = try #require(sink.configuration)
        try sink.close()
        let received = await collectEvents(events, didSpeakCount: 2)
        #expect(
            lifecycle(received) == [
                "will:turn left now", "did:turn left now", "will:then right", "did:then right",
            ])
        let captured = ALSATestEnvironment.samples(in: file)
        let first = try rendered("turn left now")
        let second = try rendered("then right")
        // One open for both prompts; ALSA may pad each drained prompt with zeros.
        #expect(sink.openCount == 1)
        #expect(Array(captured.prefix(first.count)) == first)
        let rest = Array(captured.dropFirst(first.count).drop { $0 == 0 })
        #expect(isPaddedCopy(rest, of: Array(second.drop { $0 == 0 })))
        #expect(configuration.sampleRate == 22_050 && configuration.channels == 1)
        #expect(abs(configuration.bufferTime - 0.040) < 0.005, "buffer \(configuration.bufferTime) s")
        // The latency the scheduler plans with is the buffer the device granted.
        #expect(sink.outputLatency == configuration.bufferTime)
        #expect(ALSASink(device: "capture").outputLatency == 0.040, "before opening: the buffer asked for")
        #expect(abs(configuration.periodTime - 0.010) < 0.003, "period \(configuration.periodTime) s")
    }

    @Test func interruptingMidPromptLeavesFewerBytesEndingInARamp() async throws {
        let file = try environment.captureFile("interrupt")
        let sink = ALSASink(device: "capture", options: .init(pacesToRealTime: true))
        let synthesizer = SpeechSynthesizer(renderer: RecordingRenderer(), sink: sink)
        let events = synthesizer.events()
        let speaking = Task { await synthesizer.speak(SpokenInstruction(text: longPrompt)) }
        #expect(await waitUntil { fileSize(file) > 22_050 / 2 })
        synthesizer.interruptSpeaking()
        await speaking.value
        try sink.close()
        let received = await collectEvents(events, didSpeakCount: 1)
        #expect(
            lifecycle(received) == [
                "will:\(longPrompt)", "interrupt:\(longPrompt)>-", "did:\(longPrompt)!cancelled",
            ])
        let full = try rendered(longPrompt)
        let captured = ALSATestEnvironment.samples(in: file)
        #expect(captured.count > 22_050 / 4 && captured.count < full.count / 2)
        // The capture is the rendered audio up to the cut, then a 10 ms ramp to zero, then zeros.
        let cut = try #require(captured.indices.first { $0 < full.count && captured[$0] != full[$0] })
        let fade = 221
        // (The ramp may start a sample or two before `cut` where rounding kept a sample equal.)
        #expect(cut + fade - 3 <= captured.count)
        for (offset, sample) in captured[cut..<min(cut + fade, captured.count)].enumerated() {
            #expect(abs(Int(sample)) <= 8_000 * (fade - offset) / fade + 2)
        }
        #expect(captured.dropFirst(cut + fade - 1).allSatisfy { $0 == 0 })
    }

    @Test func muteCutsThePromptAndMutedPromptsWriteNothing() async throws {
        let file = try environment.captureFile("mute")
        let sink = ALSASink(device: "capture", options: .init(pacesToRealTime: true))
        let synthesizer = SpeechSynthesizer(renderer: RecordingRenderer(), sink: sink)
        let events = synthesizer.events()
        let speaking = Task { await synthesizer.speak(SpokenInstruction(text: longPrompt)) }
        #expect(await waitUntil { fileSize(file) > 22_050 / 2 })
        synthesizer.isMuted = true
        await speaking.value
        let cutSize = ALSATestEnvironment.samples(in: file).count
        #expect(cutSize < (try rendered(longPrompt)).count / 2)
        for index in 0..<3 { await synthesizer.speak(SpokenInstruction(text: "muted \(index)")) }
        try sink.close()
        let received = await collectEvents(events, didSpeakCount: 4)
        #expect(ALSATestEnvironment.samples(in: file).count == cutSize)
        #expect(
            lifecycle(received) == [
                "will:\(longPrompt)", "did:\(longPrompt)!cancelled", "will:muted 0", "did:muted 0",
                "will:muted 1",
                "did:muted 1", "will:muted 2", "did:muted 2",
            ])
    }

    @Test func aBrokenDeviceIsAnErrorAndTheNextPromptPlaysOnceItWorks() async throws {
        try environment.breakCapture()
        let sink = ALSASink(device: "capture")
        let synthesizer = SpeechSynthesizer(renderer: RecordingRenderer(), sink: sink)
        let events = synthesizer.events()
        var standardError = ""
        await synthesizer.speak(SpokenInstruction(text: "lost"))
        let failure = try #require(sink.lastError)
        #expect(failure.code == .noSpace || failure.code == .ioError, "\(failure)")
        let file = try environment.captureFile("recovered")
        await synthesizer.speak(SpokenInstruction(text: "found"))
        try sink.close()
        let received = await collectEvents(events, didSpeakCount: 2)
        #expect(
            lifecycle(received) == [
                "will:lost", "error:audioDevice", "did:lost!audioDevice", "will:found", "did:found",
            ])
        #expect(isPaddedCopy(ALSATestEnvironment.samples(in: file), of: try rendered("found")))
        #expect(sink.openCount == 2)

        // The `broken` PCM of the configuration fails the same way, and ALSA prints nothing.
        let broken = ALSASink(device: "broken")
        standardError = try capturingStandardError {
            try broken.begin(AudioFormat(sampleRate: 22_050))
            #expect(throws: AudioSinkError.self) {
                for _ in 0..<20 { try broken.write([Int16](repeating: 1_000, count: 2_205)) }
                try broken.finish()
            }
        }
        #expect(standardError.isEmpty, "ALSA wrote: \(standardError)")
    }

    @Test func noSuchDeviceNamesItAndSuggestsAlternatives() async throws {
        let sink = ALSASink(device: "hw:7")
        var thrown: AudioSinkError?
        let standardError = capturingStandardError {
            do {
                try sink.begin(AudioFormat(sampleRate: 22_050))
            } catch let error as AudioSinkError {
                thrown = error
            } catch {}
        }
        let error = try #require(thrown)
        #expect(error.kind == .unavailable)
        #expect(error.message.contains("\"hw:7\""))
        #expect(error.message.contains("--device NAME") && error.message.contains("--output FILE.wav"))
        #expect(standardError.isEmpty, "ALSA wrote: \(standardError)")
        #expect(sink.lastError?.operation == "snd_pcm_open")

        let synthesizer = SpeechSynthesizer(renderer: RecordingRenderer(), sink: sink)
        let events = synthesizer.events()
        await synthesizer.speak(SpokenInstruction(text: "hello"))
        let received = await collectEvents(events, didSpeakCount: 1)
        #expect(lifecycle(received) == ["will:hello", "error:audioDevice", "did:hello!audioDevice"])
    }

    @Test func fileDeviceNamesWithArgumentsWork() async throws {
        let file = environment.folder.appendingPathComponent("by-name.raw")
        let sink = ALSASink(device: "file:'\(file.path)',raw")
        let synthesizer = SpeechSynthesizer(renderer: RecordingRenderer(), sink: sink)
        await synthesizer.speak(SpokenInstruction(text: "named"))
        try sink.close()
        #expect(isPaddedCopy(ALSATestEnvironment.samples(in: file), of: try rendered("named")))
    }

    @Test func listsOutputDevicesWithDescriptions() throws {
        let devices = try ALSASink.outputDevices()
        let capture = try #require(devices.first { $0.name == "capture" }, "\(devices)")
        #expect(capture.description == "Test capture")
        #expect(devices.allSatisfy { !$0.name.isEmpty })
    }

    @Test func espeakThroughTheCommandEngineIsCapturedExactly() async throws {
        let file = try environment.captureFile("espeak")
        let renderer = try CommandRenderer(command: "espeak-ng --stdout")
        let sink = ALSASink(device: "capture")
        let synthesizer = SpeechSynthesizer(renderer: renderer, sink: sink)
        await synthesizer.speak(SpokenInstruction(text: "In 300 meters, keep left"))
        try sink.close()
        let expected = try renderer.render(Utterance(text: "In 300 meters, keep left"), voice: .fallback)
            .samples
        #expect(expected.count > 22_050)
        #expect(isPaddedCopy(ALSATestEnvironment.samples(in: file), of: expected))
    }

    /// 100 speaks, stops and interrupts from several tasks on a real (captured) ALSA device:
    /// exact counts and order.
    @Test func concurrentUseKeepsExactEventCounts() async throws {
        _ = try environment.captureFile("concurrent")
        let sink = ALSASink(device: "capture", options: .init(pacesToRealTime: true))
        let synthesizer = SpeechSynthesizer(
            renderer: RecordingRenderer(secondsPerCharacter: 0.003), sink: sink)
        let events = synthesizer.events()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for step in 0..<25 {
                        let index = worker * 25 + step
                        switch index % 5 {
                        case 1: synthesizer.interruptSpeaking()
                        case 3: synthesizer.stopSpeaking()
                        default: await synthesizer.speak(SpokenInstruction(text: "prompt \(index)"))
                        }
                    }
                }
            }
        }
        try sink.close()
        let received = await collectEvents(events, didSpeakCount: 60)
        var counts: [String: Int] = [:]
        var open: String?
        for label in lifecycle(received) {
            let parts = label.split(separator: ":", maxSplits: 1).map(String.init)
            counts[parts[0], default: 0] += 1
            let text = parts[1].split(separator: "!").first.map(String.init) ?? ""
            switch parts[0] {
            case "will":
                #expect(open == nil)
                open = text
            case "did":
                #expect(open == text)
                open = nil
            case "interrupt":
                #expect(open.map { parts[1].hasPrefix($0 + ">") } == true)
            default:
                Issue.record("unexpected \(label)")
            }
        }
        #expect(counts["will"] == 60 && counts["did"] == 60)
        #expect(sink.lastError == nil)
    }
}
