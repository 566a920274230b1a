import Foundation
public import VoiceGuidance

/// Plays prompts through a sound server that speaks PulseAudio's protocol (PulseAudio, or
/// PipeWire through pipewire-pulse), as navigation: every prompt is a stream of its own carrying
/// `media.role` (`navigation` by default), the application's name and icon, so the server's role
/// policy (PulseAudio's `module-role-ducking`, WirePlumber's role links) lowers the music while
/// it speaks.
///
/// Nothing is opened before the first `begin`: a muted synthesizer never calls it, so a muted
/// voice never ducks anything. The connection is made on the first prompt and kept; the stream
/// is closed as soon as the prompt has been heard (`finish`, `interrupt`), so the server gives the
/// music its level back at once.
public final class PulseSink: AudioSink {
    /// Who we are to the server, and how we play.
    public struct Options: Sendable, Equatable {
        /// The server address (`unix:/path/native`, `tcp:host`); nil: the default server
        /// (`PULSE_SERVER`, then the user's own socket).
        public var server: String?
        /// The sink to play on; nil: the server's default.
        public var device: String?
        /// The stream's `media.role`: `navigation` (role policies duck music for it), or any other.
        public var role: String
        /// `application.name`, shown by mixers.
        public var applicationName: String
        /// `application.icon_name`, an icon theme name shown by mixers.
        public var iconName: String
        /// `media.name` of every prompt's stream.
        public var streamName: String
        /// The buffer asked for, in seconds: what a cut prompt still plays, and part of the latency.
        public var targetLatency: Double
        /// Longest wait for the server to answer a call, in seconds (a hung server is an error).
        public var timeout: Double

        public init(
            server: String? = nil, device: String? = nil, role: String = "navigation",
            applicationName: String = "VoiceGuidance", iconName: String = "voiceguide",
            streamName: String = "Navigation prompt", targetLatency: Double = 0.05, timeout: Double = 2
        ) {
            self.server = server
            self.device = device
            self.role = role
            self.applicationName = applicationName
            self.iconName = iconName
            self.streamName = streamName
            self.targetLatency = targetLatency
            self.timeout = timeout
        }

        /// The context's properties (who is connecting).
        var applicationProperties: [String: String] {
            ["application.name": applicationName, "application.icon_name": iconName]
        }

        /// A prompt stream's properties (what it plays, and as what).
        var streamProperties: [String: String] {
            applicationProperties.merging(["media.role": role, "media.name": streamName]) { $1 }
        }
    }

    private struct State {
        var connection: PulseConnection?
        var stream: PulseStream?
        var format: AudioFormat?
        var connectCount = 0
        var streamCount = 0
        var lastError: PulseError?
        /// The largest latency the server reported during the last prompt.
        var reportedLatency: Double?
        var promptLatency = 0.0
    }

    public let options: Options
    private let state = Locked(State())

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Whether a sound server answers at `server` (nil: the default one) within `timeout`
    /// seconds. Nothing is played and no server is started.
    public static func serverAnswers(server: String? = nil, timeout: Double = 0.5) -> Bool {
        do {
            let connection = try PulseConnection(
                server: server, properties: Options().applicationProperties, timeout: timeout)
            connection.close()
            return true
        } catch {
            return false
        }
    }

    public var name: String {
        "sound server \(options.server ?? "(default)")" + (options.device.map { " sink \"\($0)\"" } ?? "")
    }

    /// How many times the server was connected to (a reconnect after an error counts).
    public var connectCount: Int { state.withLock { $0.connectCount } }

    /// How many prompt streams were opened.
    public var streamCount: Int { state.withLock { $0.streamCount } }

    /// Whether a prompt's stream is open now.
    public var isStreamOpen: Bool { state.withLock { $0.stream != nil } }

    /// The last libpulse error met.
    public var lastError: PulseError? { state.withLock { $0.lastError } }

    public func begin(_ format: AudioFormat) throws {
        try state.withLock { state in
            guard format.sampleRate > 0, format.channels > 0 else {
                throw AudioSinkError(.invalidUse, "\(name): unusable format \(format)")
            }
            state.stream?.close()
            state.stream = nil
            do throws(PulseError) {
                let connection = try connected(&state)
                state.stream = try connection.openStream(
                    format: format, properties: options.streamProperties, device: options.device,
                    targetLatency: options.targetLatency, timeout: options.timeout)
            } catch {
                fail(&state, error)
                throw AudioSinkError(.unavailable, error.description)
            }
            state.streamCount += 1
            state.format = format
            state.promptLatency = state.stream?.bufferTime ?? 0
        }
    }

    public func write(_ samples: [Int16]) throws {
        try state.withLock { state in
            guard let stream = state.stream else {
                throw AudioSinkError(.invalidUse, "\(name): write before begin")
            }
            do throws(PulseError) {
                try stream.write(samples, timeout: options.timeout)
                state.promptLatency = max(state.promptLatency, stream.latency)
            } catch {
                fail(&state, error)
                throw AudioSinkError(.writeFailed, error.description)
            }
        }
    }

    public func finish() throws {
        try state.withLock { state in
            guard let stream = state.stream else { return }
            state.reportedLatency = state.promptLatency
            do throws(PulseError) {
                try stream.drain(timeout: stream.latency + options.timeout)
            } catch {
                fail(&state, error)
                throw AudioSinkError(.writeFailed, error.description)
            }
            stream.close()
            state.stream = nil
        }
    }

    /// Ends the prompt now. The writer has faded the last samples to zero, so what is queued
    /// (about `targetLatency`) is played out rather than dropped mid-waveform; then the stream
    /// is closed and the music comes back.
    public func interrupt() {
        state.withLock { state in
            guard let stream = state.stream else { return }
            do throws(PulseError) {
                try stream.drain(timeout: stream.latency + options.timeout)
            } catch {
                fail(&state, error)
                return
            }
            stream.close()
            state.stream = nil
        }
    }

    /// The server's reported latency (the largest during the last prompt played to its end; the
    /// buffer it granted for a prompt playing now), or `targetLatency` before any prompt.
    public var outputLatency: Double {
        state.withLock { state in
            if let reported = state.reportedLatency { return reported }
            return state.stream != nil ? state.promptLatency : options.targetLatency
        }
    }

    public var delay: Double {
        state.withLock { $0.stream?.latency ?? 0 }
    }

    public func close() throws {
        state.withLock { state in
            state.stream?.close()
            state.stream = nil
            state.connection?.close()
            state.connection = nil
        }
    }

    /// The open connection, made (again) when there is none or it broke.
    private func connected(_ state: inout State) throws(PulseError) -> PulseConnection {
        if let connection = state.connection, connection.isReady { return connection }
        state.connection?.close()
        state.connection = nil
        let connection = try PulseConnection(
            server: options.server, properties: options.applicationProperties, timeout: options.timeout)
        state.connection = connection
        state.connectCount += 1
        return connection
    }

    /// Records an error; the stream is closed (and the connection, if it broke) so the next
    /// prompt starts afresh.
    private func fail(_ state: inout State, _ error: PulseError) {
        state.lastError = error
        state.stream?.close()
        state.stream = nil
        if let connection = state.connection, !connection.isReady {
            connection.close()
            state.connection = nil
        }
    }
}
