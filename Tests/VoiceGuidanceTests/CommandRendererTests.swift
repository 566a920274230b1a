import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@Suite struct CommandRendererTests {
    @Test(arguments: [
        ("espeak-ng --stdout", ["espeak-ng", "--stdout"]),
        ("  a   b  ", ["a", "b"]),
        ("say 'two words' \"a \\\"q\\\" \\\\ \\n\"", ["say", "two words", "a \"q\" \\ \\n"]),
        ("echo $HOME;rm *|x>y", ["echo", "$HOME;rm", "*|x>y"]),
        ("a\\ b ''", ["a b", ""]),
    ])
    func splitsLikeSimpleShellWordsWithoutExpanding(command: String, expected: [String]) throws {
        #expect(try CommandRenderer.split(command) == expected)
    }

    @Test(arguments: ["", "   ", "say 'open", "say \"open", "trailing\\"])
    func badCommandsAreClearErrors(command: String) {
        #expect(throws: RenderError.self) { try CommandRenderer(command: command) }
    }

    @Test func aMissingProgramIsNamed() throws {
        let error = try #require(throws: RenderError.self) {
            try CommandRenderer(command: "no-such-tts-program -x")
        }
        #expect(error.kind == .engineUnavailable)
        #expect(error.message.contains("no-such-tts-program"))
    }

    @Test func rendersThroughEspeakNGStdout() throws {
        let renderer = try CommandRenderer(command: "espeak-ng --stdout")
        var chunks = 0
        var samples: [Int16] = []
        var words: [String] = []
        let summary = try renderer.render(Utterance(text: "Turn left onto Main Street"), voice: .fallback) {
            event in
            switch event {
            case .audio(let chunk):
                chunks += 1
                samples += chunk
            case .word(let word): words.append(word.text)
            case .mark: break
            }
            return .continue
        }
        #expect(summary.sampleRate == 22_050)
        #expect(summary.sampleCount == samples.count)
        #expect(summary.duration > 1 && summary.duration < 4)
        #expect(chunks > 10)
        #expect(words == ["Turn", "left", "onto", "Main", "Street"])
        let rms = (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
        #expect(rms > 500)
    }

    @Test func ssmlInputReachesTheProgram() throws {
        let utterance = Utterance(segments: [
            .text(TextSegment(text: "Exit", prosody: Prosody(rate: 1.5))), .pause(.seconds(0.5)), .mark("m"),
            .text(TextSegment(text: "now & then")),
        ])
        let ssml = CommandRenderer.ssml(for: utterance)
        #expect(
            ssml
                == "<speak><prosody rate=\"150%\">Exit</prosody> <break time=\"500ms\"/><mark name=\"m\"/>now &amp; then </speak>"
        )
        let renderer = try CommandRenderer(command: "espeak-ng -m --stdout", input: .ssml)
        let audio = try renderer.render(utterance, voice: .fallback)
        #expect(audio.duration > 0.8)
        #expect(audio.marks.map(\.name) == ["m"])
    }

    @Test func failuresCarryTheExitStatusAndStandardError() throws {
        let renderer = try CommandRenderer(command: "sh -c 'echo engine exploded >&2; exit 3'")
        let error = try #require(throws: RenderError.self) {
            try renderer.render(Utterance(text: "hello"), voice: .fallback)
        }
        #expect(error.kind == .synthesisFailed)
        #expect(error.message.contains("status 3") && error.message.contains("engine exploded"))
        let garbage = try CommandRenderer(command: "echo not a wav")
        #expect(throws: RenderError.self) { try garbage.render(Utterance(text: "hello"), voice: .fallback) }
    }

    @Test func slowProgramsTimeOut() throws {
        // The program would run for 1,000 s: returning at all means it was killed (no wall-clock
        // bound that load could break).
        let renderer = try CommandRenderer(command: "sleep 1000", timeout: 0.3)
        let error = try #require(throws: RenderError.self) {
            try renderer.render(Utterance(text: "hello"), voice: .fallback)
        }
        #expect(error.message.contains("longer than"))
    }

    @Test func speaksThroughTheSynthesizer() async throws {
        let sink = MemorySink()
        let renderer = try CommandRenderer(command: "espeak-ng --stdout")
        let synthesizer = SpeechSynthesizer(renderer: renderer, sink: sink)
        await synthesizer.speak(SpokenInstruction(text: "In 200 meters, turn right"))
        let direct = try renderer.render(Utterance(text: "In 200 meters, turn right"), voice: .fallback)
        #expect(sink.samples == direct.samples)
    }
}
