/// A text-to-speech engine that turns an `Utterance` into mono 16-bit PCM.
///
/// Renderers are synchronous and streaming: `render` calls `handler` with audio chunks and
/// word/mark events in order, as they are made, and returns when the utterance is done or the
/// handler asked to stop. eSpeak NG is the default; any engine that makes PCM can conform.
public protocol SpeechRenderer: Sendable {
    /// The sample rate of everything this renderer makes, in hertz.
    var sampleRate: Int { get }

    /// What the engine takes besides plain words (default: nothing, it gets plain words); the
    /// normalisation stage lowers the rest (see `NormalizationStage`).
    var accepts: RendererInput { get }

    /// True when the engine runs the normalisation stage itself (eSpeak); false (the default)
    /// when it expects normalised utterances, as `NormalizingRenderer` hands them.
    var normalizesInput: Bool { get }

    /// Renders `utterance` in `voice`, streaming events to `handler`.
    ///
    /// - Parameters:
    ///   - utterance: what to say.
    ///   - voice: the voice profile (engine voice, rate, pitch, volume).
    ///   - handler: receives each chunk and event in order; return `.stop` to cancel.
    /// - Returns: a summary of what was made (sample count, marks, words, warnings).
    /// - Throws: a `RenderError`.
    func render(
        _ utterance: Utterance, voice: VoiceProfile, handler: (RenderEvent) -> RenderControl
    ) throws -> RenderSummary
}

/// What a streaming renderer hands out, in order.
public enum RenderEvent: Sendable, Equatable {
    /// The next samples of the utterance (mono Int16 at the renderer's rate).
    case audio([Int16])
    /// A word starts at this sample offset (counted from the utterance's first sample).
    case word(WordBoundary)
    /// A `<mark>` falls at this sample offset.
    case mark(MarkBoundary)
}

/// Whether a streaming render goes on.
public enum RenderControl: Sendable, Equatable {
    case `continue`
    case stop
}

/// A word of the utterance and where its sound starts.
public struct WordBoundary: Sendable, Equatable, Codable {
    /// Sample offset of the word's start.
    public var sample: Int
    /// The word as written in the text handed to the engine, when known.
    public var text: String

    public init(sample: Int, text: String) {
        self.sample = sample
        self.text = text
    }
}

/// A `<mark>` and where it falls.
public struct MarkBoundary: Sendable, Equatable, Codable {
    public var name: String
    /// Sample offset of the mark.
    public var sample: Int

    public init(name: String, sample: Int) {
        self.name = name
        self.sample = sample
    }
}

/// What a render made, without its samples.
public struct RenderSummary: Sendable, Equatable {
    public var sampleRate: Int
    public var sampleCount: Int
    public var marks: [MarkBoundary]
    public var words: [WordBoundary]
    public var warnings: [String]
    /// True when the handler stopped the render before the end.
    public var wasStopped: Bool

    public init(
        sampleRate: Int, sampleCount: Int, marks: [MarkBoundary] = [], words: [WordBoundary] = [],
        warnings: [String] = [], wasStopped: Bool = false
    ) {
        self.sampleRate = sampleRate
        self.sampleCount = sampleCount
        self.marks = marks
        self.words = words
        self.warnings = warnings
        self.wasStopped = wasStopped
    }

    /// Length in seconds.
    public var duration: Double { Double(sampleCount) / Double(sampleRate) }
}

/// A whole rendered utterance: samples plus where words and marks fall.
public struct RenderedAudio: Sendable, Equatable {
    public var sampleRate: Int
    public var samples: [Int16]
    public var marks: [MarkBoundary]
    public var words: [WordBoundary]
    public var warnings: [String]

    public init(
        sampleRate: Int, samples: [Int16], marks: [MarkBoundary] = [], words: [WordBoundary] = [],
        warnings: [String] = []
    ) {
        self.sampleRate = sampleRate
        self.samples = samples
        self.marks = marks
        self.words = words
        self.warnings = warnings
    }

    /// Length in seconds.
    public var duration: Double { Double(samples.count) / Double(sampleRate) }
}

extension SpeechRenderer {
    public var accepts: RendererInput { [] }
    public var normalizesInput: Bool { false }

    /// Renders the whole utterance into memory.
    public func render(_ utterance: Utterance, voice: VoiceProfile) throws -> RenderedAudio {
        var samples: [Int16] = []
        let summary = try render(utterance, voice: voice) { event in
            if case .audio(let chunk) = event { samples.append(contentsOf: chunk) }
            return .continue
        }
        return RenderedAudio(
            sampleRate: summary.sampleRate, samples: samples, marks: summary.marks,
            words: summary.words, warnings: summary.warnings)
    }
}

/// Why a renderer could not render.
public struct RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The engine could not start (data files missing, library error).
        case engineUnavailable
        /// The voice asked for is not installed; the message lists the ones that are.
        case voiceNotFound
        /// The engine failed while synthesizing.
        case synthesisFailed
        /// The utterance cannot be rendered (too long, nothing to say).
        case invalidInput
    }
    public var kind: Kind
    public var message: String
    /// The library error it comes from, if any (eSpeak NG's or ALSA's status code).
    public var cause: ErrorCause?

    public init(_ kind: Kind, _ message: String, cause: ErrorCause? = nil) {
        self.kind = kind
        self.message = message
        self.cause = cause
    }

    public var description: String { message }
}
