import Foundation
public import VoiceGuidance

/// Plays prompts on an ALSA PCM by name: `default`, `plughw:CARD=PCH,DEV=0`,
/// `file:'/tmp/out.raw',raw`, or any name from the user's ALSA configuration.
///
/// The device is opened on the first `begin` and kept open between prompts (reopened when the
/// format changes or after an error, such as an unplugged device). It plays S16 at the
/// renderer's rate, ALSA resampling allowed, with a small buffer (~40 ms, periods of ~10 ms) and a
/// start threshold of one period, so sound starts with the first chunk. Writes block; the
/// synthesizer calls them from its playback thread, never from the cooperative pool. Underruns
/// and suspends are recovered; ALSA's stderr messages are caught and end up in the errors.
public final class ALSASink: AudioSink {
    /// Buffer sizes and pacing.
    public struct Options: Sendable, Equatable {
        /// Wanted buffer length in seconds (ALSA picks the nearest it can do).
        public var bufferTime: Double
        /// Wanted period length in seconds.
        public var periodTime: Double
        /// Let ALSA resample when the device does not play the renderer's rate.
        public var allowsResampling: Bool
        /// Sleep so that writes take as long as the audio lasts, for PCMs that never block
        /// (`file`, `null`): makes interrupting a prompt "mid-way" testable without a sound card.
        public var pacesToRealTime: Bool

        public init(
            bufferTime: Double = 0.040, periodTime: Double = 0.010, allowsResampling: Bool = true,
            pacesToRealTime: Bool = false
        ) {
            self.bufferTime = bufferTime
            self.periodTime = periodTime
            self.allowsResampling = allowsResampling
            self.pacesToRealTime = pacesToRealTime
        }
    }

    /// What the open device was set to.
    public struct Configuration: Sendable, Equatable {
        public var sampleRate: Int
        public var channels: Int
        /// The buffer ALSA granted, in seconds.
        public var bufferTime: Double
        /// The period ALSA granted, in seconds.
        public var periodTime: Double
    }

    private struct State {
        var pcm: ALSAPCM?
        var format: AudioFormat?
        var pacer: RealTimePacer?
        var openCount = 0
        var lastError: ALSAError?
    }

    /// The PCM name.
    public let device: String
    public let options: Options
    private let state: Locked<State>

    public init(device: String = "default", options: Options = Options()) {
        self.device = device
        self.options = options
        self.state = Locked(State())
    }

    /// Playback devices from ALSA's name hints (outputs only), with descriptions.
    ///
    /// - Throws: `ALSAError` when ALSA cannot list them.
    public static func outputDevices() throws -> [ALSADevice] {
        try ALSACalls.outputDevices()
    }

    public var name: String { "ALSA device \"\(device)\"" }

    /// How many times the device was opened (a reopen after an error counts).
    public var openCount: Int { state.withLock { $0.openCount } }

    /// The last ALSA error met, with its code and ALSA's messages.
    public var lastError: ALSAError? { state.withLock { $0.lastError } }

    /// The buffer and period the open device got, if it is open.
    public var configuration: Configuration? {
        state.withLock { state in
            guard let setup = state.pcm?.setup else { return nil }
            let rate = Double(setup.sampleRate)
            return Configuration(
                sampleRate: setup.sampleRate, channels: setup.channels,
                bufferTime: Double(setup.bufferFrames) / rate, periodTime: Double(setup.periodFrames) / rate)
        }
    }

    public func begin(_ format: AudioFormat) throws {
        try state.withLock { state in
            guard format.sampleRate > 0, format.channels > 0 else {
                throw AudioSinkError(.invalidUse, "\(name): unusable format \(format)")
            }
            if let pcm = state.pcm, state.format == format {
                do {
                    try pcm.prepare()
                    return
                } catch {
                    // Fall through: reopen.
                    pcm.close()
                    state.pcm = nil
                }
            }
            state.pcm?.close()
            state.pcm = nil
            do throws(ALSAError) {
                state.pcm = try ALSAPCM(
                    device: device, sampleRate: format.sampleRate, channels: format.channels,
                    bufferTime: options.bufferTime, periodTime: options.periodTime,
                    allowsResampling: options.allowsResampling)
            } catch {
                state.lastError = error
                throw AudioSinkError(.unavailable, error.description, cause: error.cause)
            }
            state.openCount += 1
            state.format = format
            if options.pacesToRealTime {
                state.pacer = RealTimePacer(sampleRate: format.sampleRate, lead: options.bufferTime)
            }
        }
    }

    public func write(_ samples: [Int16]) throws {
        try state.withLock { state in
            guard let pcm = state.pcm else {
                throw AudioSinkError(.invalidUse, "\(name): write before begin")
            }
            state.pacer?.write(frames: samples.count / max(1, pcm.setup.channels))
            do throws(ALSAError) {
                try pcm.write(samples)
            } catch {
                fail(&state, error)
                throw AudioSinkError(.writeFailed, error.description, cause: error.cause)
            }
        }
    }

    public func finish() throws {
        try state.withLock { state in
            guard let pcm = state.pcm else { return }
            do throws(ALSAError) {
                try pcm.drain()
            } catch {
                fail(&state, error)
                throw AudioSinkError(.writeFailed, error.description, cause: error.cause)
            }
            state.pacer?.drain()
        }
    }

    /// Ends the prompt now. The writer has faded the last samples to zero, so what is still
    /// queued (at most one buffer, ~40 ms) is played out rather than dropped mid-waveform, which
    /// would click.
    public func interrupt() {
        state.withLock { state in
            guard let pcm = state.pcm else { return }
            do throws(ALSAError) {
                try pcm.drain()
            } catch {
                fail(&state, error)
            }
            state.pacer?.reset()
        }
    }

    /// The buffer ALSA granted (what `snd_pcm_delay` reports while a prompt plays), or the
    /// buffer asked for before the device was first opened.
    public var outputLatency: Double {
        configuration?.bufferTime ?? options.bufferTime
    }

    public var delay: Double {
        state.withLock { state in
            if let pacer = state.pacer { return pacer.delay }
            guard let pcm = state.pcm else { return 0 }
            return Double(pcm.delayFrames()) / Double(pcm.setup.sampleRate)
        }
    }

    public func close() throws {
        state.withLock { state in
            state.pcm?.close()
            state.pcm = nil
            state.pacer?.reset()
        }
    }

    /// Records an error; the device is closed so the next prompt opens it again.
    private func fail(_ state: inout State, _ error: ALSAError) {
        state.lastError = error
        state.pcm?.close()
        state.pcm = nil
        state.pacer?.reset()
    }
}
