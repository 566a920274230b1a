public import VoiceGuidance

/// The rules every `SpeechRenderer` must follow, as a check any engine can run (eSpeak, a
/// command, one of your own).
///
/// It renders a prompt with a mark, streaming and whole, stops a render after its first chunk,
/// and renders an utterance with nothing to say, then checks: audio at the renderer's rate,
/// chunks that add up to the summary's count and to the whole render, words and marks in order
/// inside the audio, no audio after `.stop` (and `wasStopped` set), and for nothing to say either
/// no audio or a `RenderError` (no other error, no crash).
public enum SpeechRendererConformance {
    /// Runs the check and returns what was wrong (empty when the renderer conforms).
    public static func violations(of renderer: any SpeechRenderer, voice: VoiceProfile = .fallback)
        -> [String]
    {
        var problems: [String] = []
        let utterance = Utterance(segments: [
            .text(TextSegment(text: "In 300 meters, turn left")), .mark("then"),
            .text(TextSegment(text: "onto Main Street")),
        ])
        var streamed: [Int16] = []
        var offsets: [(kind: String, sample: Int)] = []
        let summary: RenderSummary
        do {
            summary = try renderer.render(utterance, voice: voice) { event in
                switch event {
                case .audio(let chunk):
                    if chunk.isEmpty { problems.append("an empty audio chunk") }
                    streamed += chunk
                case .word(let word): offsets.append(("word \"\(word.text)\"", word.sample))
                case .mark(let mark): offsets.append(("mark \(mark.name)", mark.sample))
                }
                return .continue
            }
        } catch {
            return ["rendering a plain prompt failed: \(error)"]
        }
        if summary.sampleRate != renderer.sampleRate {
            problems.append("summary rate \(summary.sampleRate) Hz, renderer says \(renderer.sampleRate) Hz")
        }
        if streamed.isEmpty { problems.append("no audio for a prompt") }
        if summary.sampleCount != streamed.count {
            problems.append("summary counts \(summary.sampleCount) samples, chunks held \(streamed.count)")
        }
        if summary.wasStopped { problems.append("wasStopped without a stop") }
        if !summary.marks.contains(where: { $0.name == "then" }) {
            problems.append("the mark was not reported")
        }
        for (previous, next) in zip(offsets, offsets.dropFirst()) where next.sample < previous.sample {
            problems.append(
                "\(next.kind) at \(next.sample) comes before \(previous.kind) at \(previous.sample)")
        }
        for offset in offsets where offset.sample < 0 || offset.sample > streamed.count {
            problems.append("\(offset.kind) at \(offset.sample) is outside the audio (\(streamed.count))")
        }
        if let whole = try? renderer.render(utterance, voice: voice), whole.samples.count != streamed.count {
            let tolerance = renderer.sampleRate / 20
            if abs(whole.samples.count - streamed.count) > tolerance {
                problems.append("whole render \(whole.samples.count) samples, streamed \(streamed.count)")
            }
        }
        problems += stopViolations(of: renderer, utterance: utterance, voice: voice)
        do {
            let nothing = try renderer.render(Utterance(segments: []), voice: voice)
            if !nothing.samples.isEmpty {
                problems.append("an utterance with nothing to say made \(nothing.samples.count) samples")
            }
        } catch is RenderError {
        } catch {
            problems.append("nothing to say threw \(type(of: error)), not a RenderError")
        }
        return problems
    }

    /// Stops after the first chunk: nothing may come after, and the summary says it stopped.
    private static func stopViolations(
        of renderer: any SpeechRenderer, utterance: Utterance, voice: VoiceProfile
    ) -> [String] {
        var chunks = 0
        var afterStop = 0
        do {
            let summary = try renderer.render(utterance, voice: voice) { event in
                guard case .audio = event else { return chunks > 0 ? .stop : .continue }
                chunks += 1
                if chunks > 1 { afterStop += 1 }
                return .stop
            }
            var problems: [String] = []
            if afterStop > 0 { problems.append("\(afterStop) chunks came after .stop") }
            if !summary.wasStopped { problems.append("a stopped render does not say wasStopped") }
            return problems
        } catch {
            return ["a stopped render threw \(error)"]
        }
    }
}
