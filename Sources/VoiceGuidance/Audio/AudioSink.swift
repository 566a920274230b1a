/// The shape of the PCM a sink is asked to play: mono (or interleaved) 16-bit samples at a rate.
public struct AudioFormat: Sendable, Hashable, CustomStringConvertible {
    /// Frames per second.
    public var sampleRate: Int
    /// Interleaved channels (the renderers make mono).
    public var channels: Int

    public init(sampleRate: Int, channels: Int = 1) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var description: String {
        "\(sampleRate) Hz, \(channels == 1 ? "mono" : "\(channels) channels"), S16"
    }
}

/// Where rendered speech goes: a sound device, a WAV file, memory, or nowhere.
///
/// A sink plays one prompt at a time: `begin`, any number of `write`s, then `finish` (play out
/// everything) or `interrupt` (end now). Writes block until the sink accepted the samples, so a
/// sink that plays in real time paces its caller. Sinks are driven from one thread at a time
/// (`SpeechSynthesizer` uses a playback thread of its own); the fades that make stopping
/// click-free are applied by the writer (`FadeRamp`), so every sink gets them.
public protocol AudioSink: AnyObject, Sendable {
    /// A name for messages (`ALSA device "default"`, `WAV file out.wav`).
    var name: String { get }

    /// Starts a prompt in `format`, opening (or reopening, after an error) the device if needed.
    ///
    /// - Throws: `AudioSinkError` when the device cannot be opened or set to the format.
    func begin(_ format: AudioFormat) throws

    /// Plays `samples` (interleaved, in the format given to `begin`), blocking until accepted.
    ///
    /// - Throws: `AudioSinkError` when the device fails; the sink is then reopened by the next `begin`.
    func write(_ samples: [Int16]) throws

    /// Ends the prompt after everything written has been heard.
    func finish() throws

    /// Ends the prompt now. The caller has already faded the last samples it wrote to zero.
    func interrupt()

    /// Seconds between handing a sample to `write` now and hearing it (the device's queue).
    var delay: Double { get }

    /// Seconds from the start of a prompt to hearing its first sample, as the device reports it
    /// (ALSA's buffer, the sound server's latency): what the scheduler plans with. 0 for sinks
    /// that do not play in real time (files, memory).
    var outputLatency: Double { get }

    /// Releases the device (or completes the file). A later `begin` opens it again.
    func close() throws
}

extension AudioSink {
    /// Sinks that do not play in real time hear a sample when it is written.
    public var outputLatency: Double { 0 }
}

/// Why a sink could not play.
public struct AudioSinkError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The device (or file) could not be opened or configured.
        case unavailable
        /// A write or drain failed (device unplugged, disk full).
        case writeFailed
        /// The sink was used out of order (write before begin) or with a format it cannot play.
        case invalidUse
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
