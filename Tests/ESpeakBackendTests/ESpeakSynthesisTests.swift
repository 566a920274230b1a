import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@testable import ESpeakBackend

/// The two halves of a render (serialized: eSpeak is one process-wide engine).
@Suite(.serialized)
struct ESpeakSynthesisTests {
    let renderer: ESpeakRenderer
    let english = VoiceProfile.fallback

    init() throws {
        renderer = try ESpeakRenderer()
    }

    /// Utterances that use every kind of step: pauses, marks, gain, compression, a beep,
    /// phonemes, another language, emphasis.
    static let ssml = [
        #"<speak>Turn left<break time="400ms"/><mark name="m1"/>then turn right</speak>"#,
        #"<speak><amazon:effect name="drc">In 2 miles, take exit <say-as interpret-as="address">53</say-as></amazon:effect></speak>"#,
        #"<speak><prosody volume="+6dB">Loud</prosody> and <emphasis level="strong">now</emphasis></speak>"#,
        #"<speak>What the <say-as interpret-as="expletive">heck</say-as> is that</speak>"#,
        #"<speak>Say <phoneme alphabet="ipa" ph="təˈmɑːtoʊ">tomato</phoneme> and <lang xml:lang="de-DE">Straße</lang></speak>"#,
    ]

    @Test(arguments: ssml)
    func finishingASynthesisSoundsLikeRendering(_ ssml: String) throws {
        let utterance = try SSMLParser().parse(ssml)
        // eSpeak NG's output depends a little on the utterance before (pauses move by up to
        // 5%): both halves are compared after the same one.
        _ = try renderer.render(utterance, voice: english)
        let rendered = try renderer.render(utterance, voice: english)
        let finished = renderer.finish(try renderer.synthesize(utterance, voice: english))
        #expect(finished.marks.map(\.name) == rendered.marks.map(\.name))
        #expect(finished.words.map(\.text) == rendered.words.map(\.text))
        #expect(finished.warnings == rendered.warnings)
        let lengths = Double(finished.samples.count) / Double(max(1, rendered.samples.count))
        #expect(abs(lengths - 1) < 0.02, "\(finished.samples.count) against \(rendered.samples.count)")
        #expect(AudioAnalysis.spectralSimilarity(finished.samples, rendered.samples) > 0.95)
        // Gain and compression are applied alike: the same loudness and peak.
        #expect(abs(AudioLevel.rmsDB(finished.samples) - AudioLevel.rmsDB(rendered.samples)) < 0.5)
        // A single sample decides the peak, and eSpeak's samples move a little with what it spoke
        // before; with the profiles' loudness gain (+4.9 dB) the limiter is at work on it too.
        // Measured: up to 0.53 dB apart on the expletive prompt; loudness stays within 0.5 dB.
        #expect(abs(AudioLevel.peakDB(finished.samples) - AudioLevel.peakDB(rendered.samples)) < 1)
    }

    @Test func aBreakIsExactAfterFinishing() throws {
        let utterance = try SSMLParser().parse(#"<speak>Turn left<break time="1500ms"/>now</speak>"#)
        let audio = renderer.finish(try renderer.synthesize(utterance, voice: english))
        let gap = AudioAnalysis.longestSilentRun(audio.samples)
        #expect(abs(Double(gap.count) / 22_050 - 1.5) <= 0.015)
    }

    @Test func finishingIsDeterministicAndRunsOnAnyThreadWhileTheEngineWorks() throws {
        let parser = SSMLParser()
        let syntheses = try Self.ssml.map { try renderer.synthesize(try parser.parse($0), voice: english) }
        let expected = syntheses.map { renderer.finish($0).samples }
        // Finish all of them again on other threads while this one keeps eSpeak busy.
        let results = Locked([Int: [Int16]]())
        let group = DispatchGroup()
        for (index, synthesis) in syntheses.enumerated() {
            DispatchQueue.global().async(group: group) { [renderer] in
                let samples = renderer.finish(synthesis).samples
                results.withLock { $0[index] = samples }
            }
        }
        for ssml in Self.ssml { _ = try renderer.render(try parser.parse(ssml), voice: english) }
        group.wait()
        for (index, samples) in expected.enumerated() {
            #expect(results.withLock { $0[index] } == samples)
        }
    }

    @Test func synthesisFailuresAreRenderErrors() throws {
        let long = Utterance(segments: [.pause(.seconds(400)), .pause(.seconds(400))])
        #expect(throws: RenderError.self) { try renderer.synthesize(long, voice: english) }
        var unknown = english
        unknown.espeakVoice = "no-such-voice"
        #expect(throws: RenderError.self) {
            try renderer.synthesize(Utterance(segments: [.text(TextSegment(text: "hi"))]), voice: unknown)
        }
    }
}

/// eSpeak NG passes the renderer conformance check a user's own engine can run.
@Suite(.serialized) struct ESpeakConformanceTests {
    @Test func theESpeakRendererConforms() throws {
        #expect(SpeechRendererConformance.violations(of: try ESpeakRenderer()) == [])
    }
}
