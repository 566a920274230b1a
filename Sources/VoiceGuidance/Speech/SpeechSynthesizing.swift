public import Foundation

/// A prompt to speak, as in Directions v5 `voiceInstructions`.
public struct SpokenInstruction: Sendable, Hashable, Identifiable {
    /// Identity of this prompt (events name it).
    public var id: UUID
    /// The plain text (`announcement`); spoken when there is no SSML or it fails to parse.
    public var text: String
    /// The SSML (`ssmlAnnouncement`), if any.
    public var ssml: String?
    /// Distance in meters remaining to the step's end when the prompt is due (`distanceAlongGeometry`).
    public var distanceRemainingOnStep: Double
    /// The speed gain and chime it is spoken with (set by `VoiceController`; plain by default).
    public var delivery: PromptDelivery

    public init(
        id: UUID = UUID(), text: String, ssml: String? = nil, distanceRemainingOnStep: Double = 0,
        delivery: PromptDelivery = .plain
    ) {
        self.id = id
        self.text = text
        self.ssml = ssml
        self.distanceRemainingOnStep = distanceRemainingOnStep
        self.delivery = delivery
    }
}

/// What a synthesizer reports, in order, to whoever listens.
public enum SpeechEvent: Sendable, Equatable {
    /// About to speak (after any `willSpeak` override).
    case willSpeak(SpokenInstruction)
    /// Finished with a prompt: exactly once per `speak`, also when muted, interrupted or failed.
    case didSpeak(SpokenInstruction, error: SpeechError?)
    /// `old` was cut off so that `new` (nil for a plain interrupt) could speak.
    case didInterrupt(old: SpokenInstruction, new: SpokenInstruction?)
    /// Something went wrong: SSML fell back to text, or (just before its didSpeak) what ended a prompt.
    case error(SpeechError)
    /// A word is heard now (timed by the sink's delay, not the render offset).
    case word(SpokenInstruction, WordBoundary)
    /// A `<mark>` is heard now.
    case mark(SpokenInstruction, MarkBoundary)
}

/// Why speech failed, as a synthesizer reports it.
public struct SpeechError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// SSML did not parse (the text was spoken instead).
        case invalidSSML
        /// The engine could not render (a fallback synthesizer tries the next one).
        case synthesis
        /// The audio device failed (a fallback synthesizer does not try another engine).
        case audioDevice
        /// The prompt was cut off by `interruptSpeaking` or `stopSpeaking` (never retried).
        case cancelled
    }
    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// What a `willSpeak` hook decides for a prompt.
public enum SpeechOverride: Sendable, Equatable {
    /// Speak it as it is.
    case keep
    /// Speak this instead.
    case replace(SpokenInstruction)
    /// Do not speak it (didSpeak still fires, with no error).
    case suppress

    /// What to speak for `instruction` once `hook` has had its say: the instruction itself, its
    /// replacement, or nil when it is suppressed.
    public static func resolve(
        _ instruction: SpokenInstruction, with hook: ((SpokenInstruction) -> SpeechOverride)?
    ) -> SpokenInstruction? {
        switch hook?(instruction) ?? .keep {
        case .keep: instruction
        case .replace(let replacement): replacement
        case .suppress: nil
        }
    }
}

/// The app-facing speech interface, shaped like the Mapbox Navigation SDK's `SpeechSynthesizing`.
///
/// Implementations are thread-safe: any task may call any method at any time.
public protocol SpeechSynthesizing: AnyObject, Sendable {
    /// When true nothing is heard; setting it cuts the current prompt at once.
    var isMuted: Bool { get set }
    /// Output gain in decibels (0 is the voice's own level).
    var volumeDB: Double { get set }
    /// The locale the app pinned (a route's locale never overwrites it).
    var locale: String { get set }
    /// True while a prompt is being heard.
    var isSpeaking: Bool { get }
    /// Called before each prompt is spoken; may replace or suppress it.
    var willSpeak: (@Sendable (SpokenInstruction) -> SpeechOverride)? { get set }

    /// A new stream of every event from now on. Each call gets its own stream.
    func events() -> AsyncStream<SpeechEvent>

    /// Pre-renders and caches these prompts so that speaking them starts at once.
    func prepare(_ instructions: [SpokenInstruction]) async

    /// The length in seconds a prompt will take to say (rendering it if needed, then caching it).
    func duration(of instruction: SpokenInstruction) async throws -> Double

    /// Speaks a prompt, cutting off (with a short fade) whatever is being said; returns when it has
    /// been heard, cut off, or failed. Fires willSpeak, then exactly one didSpeak.
    ///
    /// A conformer marks it `nonisolated(nonsending)` too and takes the prompt in before it
    /// first waits: it then runs on the caller's actor until then, and a `stopSpeaking` or
    /// `interruptSpeaking` the caller sends next cuts this prompt even if none of it has been
    /// heard yet (`VoiceController` relies on that when a turn prompt cuts an alert it has just
    /// handed over; without the mark, the call hops first and the cut can come before it).
    nonisolated(nonsending) func speak(_ instruction: SpokenInstruction) async

    /// Finishes the current word, fades out, and ends the current prompt.
    func stopSpeaking()

    /// Cuts the current prompt now with a ~10 ms fade (no click).
    func interruptSpeaking()
}
