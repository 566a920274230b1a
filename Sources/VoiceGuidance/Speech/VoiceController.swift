import Foundation

/// The app-facing guidance object: feed it progress, it speaks the right prompt at the right time.
///
/// It runs an `AnnouncementScheduler` and speaks its decisions through a `SpeechSynthesizing`,
/// asking the synthesizer for the real length of upcoming prompts (and preparing them) before the
/// scheduler needs it. Muting, the alerts-only mode, the override hook, app prompts, repeat and
/// reroute live here; every decision is also an `Event` (stream and callback) an app can log.
public actor VoiceController {
    /// Something the controller decided or did.
    public enum Event: Sendable, Equatable {
        /// A decision of the scheduler, before muting, mode or override apply.
        case decided(AnnouncementDecision)
        /// A prompt handed over to be said (after any override); one cut before the synthesizer
        /// began it is followed by `suppressed(_, .interrupted)`.
        case spoke(ScheduledPrompt)
        /// A prompt not handed to the synthesizer, and why.
        case suppressed(ScheduledPrompt, SuppressionReason)
        /// The override hook replaced a prompt's instruction.
        case replaced(ScheduledPrompt, with: SpokenInstruction)
        /// The prompt being said was cut off for a more important one.
        case interrupted(ScheduledPrompt)
        /// The route was replaced.
        case rerouted
        /// Muting was switched on (true) or off (false).
        case mutedChanged(Bool)
    }

    /// Why a prompt was not spoken.
    public enum SuppressionReason: String, Sendable, Equatable {
        case muted, alertsOnly, override
        /// Handed over while another prompt was being said, and cut (by a more important
        /// prompt, or muting) before that one ended: none of it was said.
        case interrupted
    }

    /// Which prompts are spoken.
    public enum Mode: String, Sendable, Equatable {
        /// Every prompt.
        case all
        /// Only app prompts (`announce`), such as speed camera alerts.
        case alertsOnly
    }

    private let synthesizer: any SpeechSynthesizing
    private let clock: any GuidanceClock
    private var scheduler: AnnouncementScheduler
    private let durations: DurationCache
    private var preparedTarget = -1
    private var lastSpeech: Task<Void, Never>?
    /// Prompts handed to a speech task whose `speak` has not returned yet.
    private var unfinishedSpeeches = 0
    /// Counts the cuts (interruptions and muting): a prompt handed over before one, still
    /// waiting for the prompt before it to end, is not said.
    private var cuts = 0
    /// The car's speed at the last progress update (nil before one with a speed).
    private var speed: Double?
    /// True from a reroute until the next prompt (which gets the reroute sound).
    private var isAfterReroute = false
    private var continuations: [UUID: AsyncStream<Event>.Continuation] = [:]

    /// When true nothing is heard; the scheduler still advances, so unmuting never replays a backlog.
    public private(set) var isMuted = false
    /// Which prompts are spoken.
    public var mode: Mode = .all
    /// Called with every prompt before it is spoken: keep, replace or suppress it.
    public var willSpeak: (@Sendable (ScheduledPrompt) -> SpeechOverride)?
    /// Called with every event, in order, on the controller.
    public var onEvent: (@Sendable (Event) -> Void)?
    /// How prompts are delivered: the speed gain (from the car's speed at the update that starts
    /// the prompt) and the chimes; each spoken prompt's instruction carries its `delivery`.
    public let sound: PromptSound

    /// Creates a controller for a route.
    ///
    /// - Parameters:
    ///   - route: the route to guide along.
    ///   - synthesizer: speaks the prompts.
    ///   - phrases: builds prompts from maneuvers, in the voice's language and units.
    ///   - timing: the numbers of the timing model.
    ///   - clock: the time for app prompts and repeats (progress updates carry their own time).
    ///   - usesServerInstructions: use the route's `voiceInstructions` wording where it has some.
    ///   - estimate: the length of a prompt whose real length the synthesizer has not reported
    ///     yet; nil uses `timing.estimatedDuration(of:)`.
    ///   - sound: speed gain and chimes (the chimes' lengths are added to `timing`).
    public init(
        route: Route, synthesizer: any SpeechSynthesizing, phrases: PhraseBuilder,
        timing: AnnouncementTiming = AnnouncementTiming(), clock: any GuidanceClock = SystemGuidanceClock(),
        usesServerInstructions: Bool = true,
        estimate: (@Sendable (SpokenInstruction) -> Double)? = nil, sound: PromptSound = .plain
    ) {
        let cache = DurationCache(estimate: estimate ?? { timing.estimatedDuration(of: $0) })
        self.durations = cache
        self.synthesizer = synthesizer
        self.clock = clock
        self.sound = sound
        self.scheduler = AnnouncementScheduler(
            route: route, phrases: phrases, timing: sound.timing(timing),
            usesServerInstructions: usesServerInstructions,
            durationOf: { cache.duration(of: $0) })
    }

    /// A new stream of every event from now on.
    public func events() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        let id = UUID()
        continuations[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeContinuation(id) }
        }
        return stream
    }

    private func removeContinuation(_ id: UUID) { continuations[id] = nil }

    public func setMode(_ mode: Mode) { self.mode = mode }
    public func setWillSpeak(_ hook: (@Sendable (ScheduledPrompt) -> SpeechOverride)?) { willSpeak = hook }
    public func setOnEvent(_ callback: (@Sendable (Event) -> Void)?) { onEvent = callback }

    /// Leg and step of the next maneuver, or nil at the end.
    public var nextManeuver: (legIndex: Int, stepIndex: Int)? { scheduler.nextManeuver }

    /// Takes a progress update: prepares upcoming prompts, then speaks what is due.
    public func update(_ progress: RouteProgress) async {
        if let measured = progress.speed, measured.isFinite, measured >= 0 { speed = measured }
        await prepareUpcoming()
        await measureUnknownLengths(for: progress)
        let decisions = scheduler.update(progress)
        await act(on: decisions)
    }

    /// Switches to a new route; what was said for a maneuver both routes share is not said again,
    /// and the new route's depart prompt is never said.
    public func reroute(to route: Route) async {
        scheduler.reroute(to: route)
        preparedTarget = -1
        isAfterReroute = sound.chimes.reroute
        emit(.rerouted)
    }

    /// Mutes at once (cutting the current prompt); the scheduler keeps advancing.
    public func mute() {
        guard !isMuted else { return }
        isMuted = true
        cuts += 1
        if synthesizer.isSpeaking || lastSpeech != nil { synthesizer.interruptSpeaking() }
        scheduler.speechDidFinish(at: clock.now)
        emit(.mutedChanged(true))
    }

    /// Unmutes; nothing missed while muted is replayed.
    public func unmute() {
        guard isMuted else { return }
        isMuted = false
        emit(.mutedChanged(false))
    }

    /// Says the most relevant prompt again with a fresh distance (even in alerts-only mode).
    public func repeatInstruction() async {
        let decisions = scheduler.repeatInstruction(at: clock.now)
        await act(on: decisions, isRepeat: true)
    }

    /// Queues an app prompt ("Speed camera ahead"), said as soon as it fits (see
    /// `AnnouncementScheduler.announce`).
    public func announce(_ instruction: SpokenInstruction, priority: AnnouncementPriority = .normal) async {
        let decisions = scheduler.announce(instruction, priority: priority, at: clock.now)
        await act(on: decisions)
    }

    /// Returns when every prompt handed to the synthesizer so far has finished.
    public func waitUntilIdle() async {
        await lastSpeech?.value
    }

    // MARK: Private

    private func prepareUpcoming() async {
        guard scheduler.nextManeuverIndex != preparedTarget else { return }
        preparedTarget = scheduler.nextManeuverIndex
        let upcoming = scheduler.upcomingInstructions()
        let missing = upcoming.filter { !durations.contains($0) }
        guard !missing.isEmpty else { return }
        await synthesizer.prepare(missing)
        for instruction in missing {
            if let seconds = try? await synthesizer.duration(of: instruction), seconds.isFinite, seconds >= 0
            {
                durations.store(seconds, for: instruction)
            }
        }
    }

    /// Most rounds of `measureUnknownLengths` per update (each real length can change the text
    /// the scheduler builds next: an approach's distance is rounded from when it is heard).
    private static let measuringRounds = 3

    /// Makes the scheduler decide on real lengths: prompts built during the update (an approach
    /// with its distance, not known in advance) are found by a trial update on a copy of the
    /// scheduler, and their lengths asked of the synthesizer (rendering them), before the real one.
    private func measureUnknownLengths(for progress: RouteProgress) async {
        for _ in 0..<Self.measuringRounds {
            var trial = scheduler
            durations.startRecordingMisses()
            _ = trial.update(progress)
            let missing = durations.stopRecordingMisses()
            guard !missing.isEmpty else { return }
            await synthesizer.prepare(missing)
            for instruction in missing {
                let measured = try? await synthesizer.duration(of: instruction)
                if let seconds = measured, seconds.isFinite, seconds >= 0 {
                    durations.store(seconds, for: instruction)
                } else {
                    // Not measurable: the estimate stands (and is not asked for again).
                    durations.store(durations.estimate(instruction), for: instruction)
                }
            }
        }
    }

    private func act(on decisions: [AnnouncementDecision], isRepeat: Bool = false) async {
        for decision in decisions {
            emit(.decided(decision))
            guard case .speak(let prompt, let interrupted) = decision else { continue }
            if isMuted {
                suppress(prompt, .muted, cutting: interrupted)
                continue
            }
            if mode == .alertsOnly && prompt.tier != .custom && !isRepeat {
                suppress(prompt, .alertsOnly, cutting: interrupted)
                continue
            }
            var instruction = prompt.instruction
            switch willSpeak?(prompt) ?? .keep {
            case .keep:
                break
            case .suppress:
                suppress(prompt, .override, cutting: interrupted)
                continue
            case .replace(let replacement):
                instruction = replacement
                emit(.replaced(prompt, with: replacement))
            }
            if let interrupted {
                cuts += 1
                synthesizer.interruptSpeaking()
                emit(.interrupted(interrupted))
            }
            instruction.delivery = sound.delivery(
                tier: prompt.tier, metersPerSecond: speed, afterReroute: isAfterReroute)
            if instruction.delivery.chime == .reroute { isAfterReroute = false }
            var spoken = prompt
            spoken.instruction = instruction
            emit(.spoke(spoken))
            handOver(spoken, promptID: prompt.instruction.id)
        }
    }

    /// Hands `spoken` to a speech task, after the prompts handed over before it.
    ///
    /// With nothing before it, the task starts on this actor ahead of the next call to it, and
    /// `speak` takes the prompt in before it first waits: a turn prompt the next update decides
    /// cuts this one (an alert) at once, however the threads run (awaiting a finished task would
    /// let that update run first, and this prompt be said in full). A prompt queued behind
    /// another is not said if a cut came while it waited (`suppressed(_, .interrupted)`).
    private func handOver(_ spoken: ScheduledPrompt, promptID: UUID) {
        let previous = unfinishedSpeeches > 0 ? lastSpeech : nil
        let synthesizer = self.synthesizer
        let cutsBefore = cuts
        unfinishedSpeeches += 1
        lastSpeech = Task {
            if let previous { await previous.value }
            if self.cuts == cutsBefore {
                await synthesizer.speak(spoken.instruction)
            } else {
                self.emit(.suppressed(spoken, .interrupted))
            }
            self.speechEnded(promptID)
        }
    }

    /// A prompt the scheduler decided to say is not said. Unless it was to cut a prompt still
    /// being said (which then goes on), the scheduler forgets it, so an app prompt after it (an
    /// alert in alerts-only mode) is not held back by a prompt nobody hears.
    private func suppress(_ prompt: ScheduledPrompt, _ reason: SuppressionReason, cutting: ScheduledPrompt?) {
        emit(.suppressed(prompt, reason))
        if cutting == nil, scheduler.current?.instruction.id == prompt.instruction.id {
            scheduler.speechWasWithheld()
        }
    }

    /// The synthesizer is done with a prompt (its `speak` returns after its `didSpeak`, also when
    /// it was cut): if it is the one the scheduler believes is being said, the scheduler learns
    /// that the speech really ended now.
    private func speechEnded(_ promptID: UUID) {
        unfinishedSpeeches -= 1
        guard scheduler.current?.instruction.id == promptID else { return }
        scheduler.speechDidFinish(at: clock.now)
    }

    private func emit(_ event: Event) {
        onEvent?(event)
        for continuation in continuations.values { continuation.yield(event) }
    }
}

/// Real prompt lengths as the synthesizer reported them, with an estimate for the others.
final class DurationCache: Sendable {
    private struct Misses {
        var isRecording = false
        var keys: Set<PromptKey> = []
        var instructions: [SpokenInstruction] = []
    }
    private let known = Locked<[PromptKey: Double]>([:])
    private let misses = Locked(Misses())
    let estimate: @Sendable (SpokenInstruction) -> Double

    init(estimate: @escaping @Sendable (SpokenInstruction) -> Double) { self.estimate = estimate }

    func contains(_ instruction: SpokenInstruction) -> Bool {
        known.withLock { $0[PromptKey(instruction)] != nil }
    }

    func store(_ seconds: Double, for instruction: SpokenInstruction) {
        known.withLock { $0[PromptKey(instruction)] = seconds }
    }

    func duration(of instruction: SpokenInstruction) -> Double {
        let key = PromptKey(instruction)
        if let seconds = known.withLock({ $0[key] }) { return seconds }
        misses.withLock { misses in
            if misses.isRecording, misses.keys.insert(key).inserted {
                misses.instructions.append(instruction)
            }
        }
        return estimate(instruction)
    }

    /// Starts noting the prompts asked for whose length is not known.
    func startRecordingMisses() { misses.withLock { $0 = Misses(isRecording: true) } }

    /// Stops noting, and returns the prompts noted.
    func stopRecordingMisses() -> [SpokenInstruction] {
        misses.withLock { misses in
            defer { misses = Misses() }
            return misses.instructions
        }
    }
}
