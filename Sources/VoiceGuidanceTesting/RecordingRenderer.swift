import Foundation
public import VoiceGuidance

/// A deterministic renderer for tests: each text segment becomes a tone whose length grows with
/// the number of characters, each pause becomes silence, and every utterance is recorded.
///
/// Use it where the real engine's sound does not matter: scheduler timelines, synthesizer
/// event order, sinks.
public final class RecordingRenderer: SpeechRenderer {
    public let sampleRate: Int
    /// Seconds of tone per character of text.
    public let secondsPerCharacter: Double
    /// Samples per chunk handed to the handler.
    public let chunkSize: Int
    /// When set, `render` throws this instead of rendering.
    private let failure: Locked<RenderError?>
    private let recorded = Locked<[Utterance]>([])

    public init(
        sampleRate: Int = 22_050, secondsPerCharacter: Double = 0.06, chunkSize: Int = 1_024,
        failure: RenderError? = nil
    ) {
        self.sampleRate = sampleRate
        self.secondsPerCharacter = secondsPerCharacter
        self.chunkSize = chunkSize
        self.failure = Locked(failure)
    }

    /// Every utterance rendered so far, in order.
    public var utterances: [Utterance] { recorded.withLock { $0 } }

    /// Makes later renders fail with `error` (or succeed again with nil).
    public func setFailure(_ error: RenderError?) { failure.withLock { $0 = error } }

    /// The length in seconds this renderer gives `utterance`.
    public func duration(of utterance: Utterance) -> Double {
        utterance.segments.reduce(0) { total, segment in
            switch segment {
            case .text(let text): total + Double(text.text.count) * secondsPerCharacter / text.prosody.rate
            case .pause(let pause): total + pause.seconds
            case .mark: total
            }
        }
    }

    public func render(
        _ utterance: Utterance, voice: VoiceProfile, handler: (RenderEvent) -> RenderControl
    ) throws -> RenderSummary {
        if let error = failure.withLock({ $0 }) { throw error }
        recorded.withLock { $0.append(utterance) }
        var produced = 0
        var marks: [MarkBoundary] = []
        var words: [WordBoundary] = []
        func emit(_ count: Int, tone: Bool) -> Bool {
            var remaining = count
            while remaining > 0 {
                let size = min(chunkSize, remaining)
                let chunk = (0..<size).map { index -> Int16 in
                    guard tone else { return 0 }
                    let phase = Double(produced + index) * 440 * 2 * Double.pi / Double(sampleRate)
                    return Int16(8_000 * sin(phase))
                }
                produced += size
                remaining -= size
                if handler(.audio(chunk)) == .stop { return false }
            }
            return true
        }
        for segment in utterance.segments {
            switch segment {
            case .mark(let name):
                let mark = MarkBoundary(name: name, sample: produced)
                marks.append(mark)
                if handler(.mark(mark)) == .stop {
                    return RenderSummary(
                        sampleRate: sampleRate, sampleCount: produced, marks: marks, words: words,
                        wasStopped: true)
                }
            case .pause(let pause):
                if !emit(Int(pause.seconds * Double(sampleRate)), tone: false) {
                    return RenderSummary(
                        sampleRate: sampleRate, sampleCount: produced, marks: marks, words: words,
                        wasStopped: true)
                }
            case .text(let text):
                for word in text.text.split(separator: " ") {
                    let boundary = WordBoundary(sample: produced, text: String(word))
                    words.append(boundary)
                    _ = handler(.word(boundary))
                    let seconds = Double(word.count + 1) * secondsPerCharacter / text.prosody.rate
                    if !emit(Int(seconds * Double(sampleRate)), tone: true) {
                        return RenderSummary(
                            sampleRate: sampleRate, sampleCount: produced, marks: marks, words: words,
                            wasStopped: true)
                    }
                }
            }
        }
        return RenderSummary(sampleRate: sampleRate, sampleCount: produced, marks: marks, words: words)
    }
}
