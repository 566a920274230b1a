public import VoiceGuidance

/// eSpeak NG's raw output for one utterance: the half of rendering that needs the engine.
///
/// `ESpeakRenderer.synthesize(_:voice:)` makes it while holding the process's one engine;
/// `ESpeakRenderer.finish(_:)` turns it into audio (trimming, gain, compression, beeps, word and
/// mark offsets) on any thread, exactly as `render` would have. A batch can so keep the engine
/// busy on one thread while another finishes and writes the previous utterance.
public struct ESpeakSynthesis: Sendable {
    /// One chunk as eSpeak handed it over, with the events reported with it.
    struct Chunk: Sendable {
        var samples: [Int16]
        var events: [ESpeakEvent]
    }

    let steps: [ESpeakRenderer.Step]
    /// The chunks of each speech step, by step index.
    let chunks: [Int: [Chunk]]
    let warnings: [String]
    /// The voice's speed gain, if it has one.
    var speedGain: SpeedGainStage?

    /// Samples eSpeak made (before trimming and pauses), to size buffers and queues.
    public var rawSampleCount: Int {
        chunks.values.reduce(0) { total, chunks in total + chunks.reduce(0) { $0 + $1.samples.count } }
    }
}

extension ESpeakRenderer {
    /// Runs eSpeak NG for `utterance` and keeps what it made; see ``ESpeakSynthesis``.
    ///
    /// - Throws: what `render` throws.
    public func synthesize(_ utterance: Utterance, voice: VoiceProfile) throws -> ESpeakSynthesis {
        let plan = try plan(utterance, voice: voice)
        var warnings = plan.warnings
        var chunks: [Int: [ESpeakSynthesis.Chunk]] = [:]
        for (index, step) in plan.steps.enumerated() {
            guard case .speech(let speech) = step else { continue }
            var captured: [ESpeakSynthesis.Chunk] = []
            let warning = try synthesize(speech, profileVoice: plan.profileVoice) { samples, events in
                captured.append(ESpeakSynthesis.Chunk(samples: Array(samples), events: events))
                return true
            }
            if let warning, !warnings.contains(warning) { warnings.append(warning) }
            chunks[index] = captured
        }
        return ESpeakSynthesis(
            steps: plan.steps, chunks: chunks, warnings: warnings, speedGain: plan.speedGain)
    }

    /// Turns a synthesis into audio, streamed to `handler` as `render` streams it; needs no
    /// engine, so it runs on any thread, alongside other renders.
    public func finish(_ synthesis: ESpeakSynthesis, handler: (RenderEvent) -> RenderControl) -> RenderSummary
    {
        var warnings = synthesis.warnings
        let gain = synthesis.speedGain
        return perform(synthesis.steps, warnings: &warnings, speedGain: gain, handler: handler) {
            index, _, output in
            for chunk in synthesis.chunks[index] ?? [] {
                let isGoingOn = chunk.samples.withUnsafeBufferPointer {
                    output.receive($0, events: chunk.events)
                }
                if !isGoingOn { break }
            }
            return nil
        }
    }

    /// Turns a synthesis into the whole utterance's audio.
    public func finish(_ synthesis: ESpeakSynthesis) -> RenderedAudio {
        var samples: [Int16] = []
        samples.reserveCapacity(synthesis.rawSampleCount)
        let summary = finish(synthesis) { event in
            if case .audio(let chunk) = event { samples.append(contentsOf: chunk) }
            return .continue
        }
        return RenderedAudio(
            sampleRate: summary.sampleRate, samples: samples, marks: summary.marks, words: summary.words,
            warnings: summary.warnings)
    }
}
