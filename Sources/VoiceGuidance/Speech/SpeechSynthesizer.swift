import Foundation

/// The default `SpeechSynthesizing`: SSML parser → renderer → audio sink, on a playback thread
/// of its own.
///
/// Every `speak` fires `willSpeak` and then exactly one `didSpeak`, in call order, also when the
/// prompt is muted, cut off or fails; a prompt cut off by a newer one (or by
/// `interruptSpeaking`) fires `didInterrupt` just before its `didSpeak`. A suppressed prompt
/// (`willSpeak` hook) fires only `didSpeak`, with no error. Errors that end a prompt are sent as
/// an `error` event and carried by its `didSpeak`.
///
/// Prompts never overlap: a new `speak` cuts the current one with a ~10 ms fade, and the new
/// one starts when the fade has been written. Sink calls all happen on the playback thread,
/// which exists while there is something to say.
public final class SpeechSynthesizer: SpeechSynthesizing {
    /// Tuning knobs; the defaults suit navigation prompts.
    public struct Configuration: Sendable, Equatable {
        /// Most bytes of rendered audio kept by `prepare` and earlier prompts.
        public var cacheLimitBytes: Int
        /// Length of the fade when a prompt is interrupted or muted, in seconds.
        public var interruptFade: Double
        /// Length of the fade after `stopSpeaking`, in seconds.
        public var stopFade: Double
        /// Longest time `stopSpeaking` waits for the current word to end, in seconds.
        public var stopWordWait: Double
        /// Size of the pieces handed to the sink, in seconds (how often cuts are checked).
        public var pieceDuration: Double
        /// Silence played before each prompt, in seconds, so that an amplifier or a Bluetooth
        /// link that sleeps between sounds does not swallow the first word. Word and mark events
        /// still fire when their sound is heard; the scheduler counts it as output latency.
        public var leadIn: Double
        /// A chime played before each prompt (after the lead-in), at the voice loudness target;
        /// nil for none. Events are shifted by it like by the lead-in.
        public var chime: Chime.Kind?

        public init(
            cacheLimitBytes: Int = 32 << 20, interruptFade: Double = 0.010, stopFade: Double = 0.050,
            stopWordWait: Double = 1.0, pieceDuration: Double = 0.010, leadIn: Double = 0,
            chime: Chime.Kind? = nil
        ) {
            self.cacheLimitBytes = cacheLimitBytes
            self.interruptFade = interruptFade
            self.stopFade = stopFade
            self.stopWordWait = stopWordWait
            self.pieceDuration = pieceDuration
            self.leadIn = leadIn.isFinite ? min(max(0, leadIn), 10) : 0
            self.chime = chime
        }
    }

    /// Turns SSML into an utterance (`SSMLParser().parse`); throws when it does not parse.
    public typealias SSMLParsing = SpokenInstruction.SSMLParsing

    private struct State {
        var isMuted = false
        var volumeDB = 0.0
        var locale: String
        var voice: VoiceProfile
        var willSpeak: (@Sendable (SpokenInstruction) -> SpeechOverride)?
        var metricsHandler: (@Sendable (PromptMetrics) -> Void)?
        var queue: [SpeechJob] = []
        var current: SpeechJob?
        var isWorkerRunning = false
        /// The playback thread waits for work (and exits if none comes in time).
        var isWorkerIdle = false
    }

    /// How long the playback thread waits for the next prompt before it exits.
    private static let idleTimeout = 2.0

    /// The engine that makes the audio, behind the normalisation stage (`NormalizingRenderer`)
    /// unless it runs the stage itself.
    public let renderer: any SpeechRenderer
    /// Where the audio goes.
    public let sink: any AudioSink
    /// Voices `locale` may switch between (the first whose locale matches is used).
    public let voices: [VoiceProfile]
    public let configuration: Configuration
    private let parseSSML: SSMLParsing?
    private let hub = SpeechEventHub()
    private let cache: RenderCache
    private let state: Locked<State>
    private let wakeUp = DispatchSemaphore(value: 0)

    /// Makes a synthesizer.
    ///
    /// - Parameters:
    ///   - renderer: the engine (eSpeak NG, a command, a test renderer).
    ///   - sink: the output (ALSA device, WAV file, memory, null).
    ///   - voice: the voice to start with; its locale is the initial `locale`.
    ///   - voices: voices that setting `locale` may pick from.
    ///   - parseSSML: the SSML parser (`SSMLParser().parse` by default); nil speaks every
    ///     prompt's plain text.
    ///   - configuration: fades, cache size, piece size.
    public init(
        renderer: any SpeechRenderer, sink: any AudioSink, voice: VoiceProfile = .fallback,
        voices: [VoiceProfile] = [], parseSSML: SSMLParsing? = { try SSMLParser().parse($0) },
        configuration: Configuration = Configuration()
    ) {
        self.renderer = NormalizingRenderer.wrap(renderer)
        self.sink = sink
        self.voices = voices
        self.parseSSML = parseSSML
        self.configuration = configuration
        self.cache = RenderCache(limitBytes: configuration.cacheLimitBytes)
        self.state = Locked(State(locale: voice.locale, voice: voice))
    }

    // MARK: Settings

    public var isMuted: Bool {
        get { state.withLock { $0.isMuted } }
        set {
            state.withLock { state in
                state.isMuted = newValue
                if newValue { state.current?.cancel(.mute) }
            }
        }
    }

    public var volumeDB: Double {
        get { state.withLock { $0.volumeDB } }
        set { state.withLock { $0.volumeDB = newValue.isNaN ? 0 : min(newValue, 24) } }
    }

    /// The pinned locale; setting it picks the first of `voices` with that locale (or, failing
    /// that, that language) and keeps the current voice when none matches.
    public var locale: String {
        get { state.withLock { $0.locale } }
        set {
            let match =
                voices.first { $0.locale.caseInsensitiveCompare(newValue) == .orderedSame }
                ?? voices.first { $0.language == VoiceProfile.language(of: newValue) }
            state.withLock { state in
                state.locale = newValue
                if let match { state.voice = match }
            }
        }
    }

    /// The voice prompts are rendered in now.
    public var voice: VoiceProfile {
        get { state.withLock { $0.voice } }
        set { state.withLock { $0.voice = newValue } }
    }

    public var isSpeaking: Bool { state.withLock { $0.current != nil } }

    public var willSpeak: (@Sendable (SpokenInstruction) -> SpeechOverride)? {
        get { state.withLock { $0.willSpeak } }
        set { state.withLock { $0.willSpeak = newValue } }
    }

    /// Called on the playback thread after each prompt with its timing and CPU cost (for
    /// benchmarks: `firstFrameLatency` is `speak` → first samples handed to the sink).
    public var metricsHandler: (@Sendable (PromptMetrics) -> Void)? {
        get { state.withLock { $0.metricsHandler } }
        set { state.withLock { $0.metricsHandler = newValue } }
    }

    public func events() -> AsyncStream<SpeechEvent> { hub.stream() }

    // MARK: Speaking

    nonisolated(nonsending) public func speak(_ instruction: SpokenInstruction) async {
        let requested = ContinuousClock.now
        guard let spoken = SpeechOverride.resolve(instruction, with: willSpeak) else {
            hub.emit(.didSpeak(instruction, error: nil))
            return
        }
        let job = SpeechJob(instruction: spoken, requested: requested)
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                job.setContinuation(continuation)
                enqueue(job)
            }
        } onCancel: {
            job.cancel(.interrupt(by: nil))
        }
    }

    public func stopSpeaking() {
        state.withLock { state in
            state.current?.cancel(.stop)
            for job in state.queue { job.cancel(.stop) }
        }
    }

    public func interruptSpeaking() {
        state.withLock { state in
            state.current?.cancel(.interrupt(by: nil))
            for job in state.queue { job.cancel(.interrupt(by: nil)) }
        }
    }

    // MARK: Preparing

    public func prepare(_ instructions: [SpokenInstruction]) async {
        let voice = self.voice
        let missing = instructions.filter {
            cache.entry(for: RenderCache.Key(voice: Self.voice(voice, for: $0), instruction: $0)) == nil
        }
        guard !missing.isEmpty else { return }
        let failures: [SpeechError] = await Self.onOwnThread { [self] in
            var failures: [SpeechError] = []
            for instruction in missing {
                if case .failure(let error) = renderWhole(instruction, voice: voice) {
                    failures.append(error)
                }
            }
            return failures
        }
        for failure in failures { hub.emit(.error(failure)) }
    }

    public func duration(of instruction: SpokenInstruction) async throws -> Double {
        let voice = self.voice
        let chime = instruction.delivery.chime.map {
            Double(Chime.samples($0, sampleRate: renderer.sampleRate).count)
                / Double(max(1, renderer.sampleRate))
        }
        let key = RenderCache.Key(voice: Self.voice(voice, for: instruction), instruction: instruction)
        if let entry = cache.entry(for: key) { return entry.audio.duration + (chime ?? 0) }
        let result: Result<Double, SpeechError> = await Self.onOwnThread { [self] in
            renderWhole(instruction, voice: voice).map(\.audio.duration)
        }
        return try result.get() + (chime ?? 0)
    }

    /// The voice a prompt is rendered in: `voice` with the prompt's speed gain, when it has one.
    static func voice(_ voice: VoiceProfile, for instruction: SpokenInstruction) -> VoiceProfile {
        instruction.delivery.speedGainDB == 0 ? voice : voice.withSpeedGain(instruction.delivery.speedGainDB)
    }

    /// Renders a prompt into the cache (and returns it).
    private func renderWhole(_ instruction: SpokenInstruction, voice: VoiceProfile) -> Result<
        RenderCache.Entry, SpeechError
    > {
        let voice = Self.voice(voice, for: instruction)
        let key = RenderCache.Key(voice: voice, instruction: instruction)
        if let entry = cache.entry(for: key) { return .success(entry) }
        let (utterance, ssmlError) = makeUtterance(instruction, reportingErrors: false)
        do {
            let audio = try renderer.render(utterance, voice: voice)
            let entry = RenderCache.Entry(audio: audio, ssmlError: ssmlError)
            cache.insert(entry, for: key)
            return .success(entry)
        } catch {
            return .failure(SpeechError(.synthesis, "cannot render \"\(instruction.text)\": \(error)"))
        }
    }

    /// The utterance for a prompt (see `SpokenInstruction.utterance`), reporting an SSML error
    /// as an event when asked to.
    private func makeUtterance(_ instruction: SpokenInstruction, reportingErrors: Bool) -> (
        Utterance, SpeechError?
    ) {
        let (utterance, failure) = instruction.utterance(parsingWith: parseSSML)
        if reportingErrors, let failure { hub.emit(.error(failure)) }
        return (utterance, failure)
    }

    // MARK: Playback thread

    private func enqueue(_ job: SpeechJob) {
        let startsWorker = state.withLock { state -> Bool in
            state.current?.cancel(.interrupt(by: job.instruction))
            for queued in state.queue { queued.cancel(.interrupt(by: job.instruction)) }
            state.queue.append(job)
            if state.isWorkerIdle {
                state.isWorkerIdle = false
                wakeUp.signal()
            }
            guard !state.isWorkerRunning else { return false }
            state.isWorkerRunning = true
            return true
        }
        guard startsWorker else { return }
        let thread = Thread { [self] in runQueue() }
        thread.name = "VoiceGuidance playback"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// The playback thread: plays queued prompts in order, then waits a while for more before it
    /// exits (so back-to-back prompts do not pay for a new thread each).
    private func runQueue() {
        enum Step {
            case play(SpeechJob)
            case wait
            case exit
        }
        while true {
            let step = state.withLock { state -> Step in
                if !state.queue.isEmpty {
                    let job = state.queue.removeFirst()
                    state.current = job
                    state.isWorkerIdle = false
                    return .play(job)
                }
                state.current = nil
                if state.isWorkerIdle {
                    // Waited (or woke without work): stop the thread.
                    state.isWorkerIdle = false
                    state.isWorkerRunning = false
                    return .exit
                }
                state.isWorkerIdle = true
                return .wait
            }
            switch step {
            case .play(let job): play(job)
            case .wait: _ = wakeUp.wait(timeout: .now() + Self.idleTimeout)
            case .exit: return
            }
        }
    }

    private func play(_ job: SpeechJob) {
        let cpuStart = currentThreadCPUSeconds()
        let instruction = job.instruction
        hub.emit(.willSpeak(instruction))
        var wasCached = false
        let player = perform(job, wasCached: &wasCached)
        var error: SpeechError?
        switch player.ending {
        case .finished, nil: error = nil
        case .cancelled(let reason):
            if case .interrupt(let new) = reason { hub.emit(.didInterrupt(old: instruction, new: new)) }
            error = reason.error
        case .failed(let failure):
            hub.emit(.error(failure))
            error = failure
        }
        hub.emit(.didSpeak(instruction, error: error))
        // Not speaking any more once `speak` returns.
        state.withLock { state in
            if state.current === job { state.current = nil }
        }
        if let handler = metricsHandler {
            let metrics = PromptMetrics(
                instruction: instruction, wasCached: wasCached,
                firstFrameLatency: player.firstWrite.map { $0 - job.requested },
                audioSeconds: player.sampleRate > 0 ? Double(player.written) / Double(player.sampleRate) : 0,
                cpuSeconds: currentThreadCPUSeconds() - cpuStart, totalTime: .now - job.requested,
                error: error)
            handler(metrics)
        }
        job.resume()
    }

    /// Renders (or takes from the cache) and plays one prompt; the player says how it ended.
    private func perform(_ job: SpeechJob, wasCached: inout Bool) -> PromptPlayer {
        let instruction = job.instruction
        let (isMuted, volumeDB, voice) = state.withLock {
            ($0.isMuted, $0.volumeDB, Self.voice($0.voice, for: instruction))
        }
        let key = RenderCache.Key(voice: voice, instruction: instruction)
        let cached = cache.entry(for: key)
        let sampleRate = cached?.audio.sampleRate ?? renderer.sampleRate
        let player = PromptPlayer(
            sink: sink, job: job, hub: hub, sampleRate: sampleRate,
            gain: Decibels.amplitude(fromDB: volumeDB),
            configuration: configuration)
        if let cancellation = job.cancellation {
            player.endBeforeStart(cancellation)
            return player
        }
        if isMuted {
            player.endSilently()
            return player
        }
        do {
            try sink.begin(AudioFormat(sampleRate: sampleRate))
        } catch {
            player.endFailed(SpeechError(.audioDevice, "\(error)"))
            return player
        }
        if let cached {
            wasCached = true
            if let ssmlError = cached.ssmlError { hub.emit(.error(ssmlError)) }
            let boundaries =
                (cached.audio.words.map { ($0.sample, 0, Boundary.word($0)) }
                + cached.audio.marks.map { ($0.sample, 1, Boundary.mark($0)) })
                .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
            for (_, _, boundary) in boundaries {
                switch boundary {
                case .word(let word): player.schedule(word: word)
                case .mark(let mark): player.schedule(mark: mark)
                }
            }
            if player.feed(cached.audio.samples) { player.finish() }
            return player
        }
        let (utterance, ssmlError) = makeUtterance(instruction, reportingErrors: true)
        var samples: [Int16] = []
        do {
            let summary = try renderer.render(utterance, voice: voice) { event in
                switch event {
                case .audio(let chunk):
                    samples.append(contentsOf: chunk)
                    return player.feed(chunk) ? .continue : .stop
                case .word(let word):
                    player.schedule(word: word)
                case .mark(let mark):
                    player.schedule(mark: mark)
                }
                return player.ending == nil ? .continue : .stop
            }
            if player.ending == nil, !summary.wasStopped {
                cache.insert(
                    RenderCache.Entry(
                        audio: RenderedAudio(
                            sampleRate: summary.sampleRate, samples: samples, marks: summary.marks,
                            words: summary.words, warnings: summary.warnings),
                        ssmlError: ssmlError),
                    for: key)
            }
            player.finish()
        } catch {
            player.abandon(with: SpeechError(.synthesis, "cannot render \"\(instruction.text)\": \(error)"))
        }
        return player
    }

    /// A word or a mark of cached audio, to be scheduled in sample order.
    private enum Boundary {
        case word(WordBoundary)
        case mark(MarkBoundary)
    }

    /// Runs blocking work (rendering) on a thread of its own, off the cooperative pool.
    private static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.name = "VoiceGuidance render"
            thread.start()
        }
    }
}

extension VoiceProfile {
    /// The language part of a locale string, lower-cased (`en` for `en-US`).
    static func language(of locale: String) -> String {
        String(locale.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }
}
