import Foundation

/// Decides what is said when during a drive: pure and deterministic.
///
/// Feed it progress updates (about once a second); it returns what to speak now, what to cut,
/// and what it gave up on. Time comes only from the updates (and the `at:` arguments), so a test
/// drives it with a manual clock. The model is the one of `docs/timing.md`: each prompt's speech
/// ENDS a set time before its maneuver, given a speed estimate that rises at once and falls
/// slowly, the real length of the utterance (`durationOf`), the output latency and a GPS margin.
///
/// Server `voiceInstructions`: their wording is used for the prompts that carry no distance (the
/// final and arrival prompts, and the depart prompt), timed by this model. Prompts that carry a
/// distance (prepare, approach, continue) are rebuilt from the phrase book with the distance at
/// the moment it is heard: a server prompt fixes its number ("In a quarter mile") for a position
/// we do not speak at, and in the shared corpus those numbers are up to 16% off even where the
/// server meant them (1 mile said for 1380 m).
///
/// - Complexity: an update is O(1) (plus the maneuvers passed since the last one); text is built
///   only when a prompt is about to be due.
public struct AnnouncementScheduler {
    /// Gives the length in seconds of a prompt's speech.
    public typealias DurationProvider = (SpokenInstruction) -> Double

    /// The numbers of the timing model.
    public let timing: AnnouncementTiming
    /// Builds prompts from maneuvers.
    public let phrases: PhraseBuilder
    /// When false, server `voiceInstructions` are ignored.
    public let usesServerInstructions: Bool

    private let durationOf: DurationProvider
    /// The route, its maneuvers, what was said for each, and which prompt is due.
    private var rules: TierRules

    // The vehicle.
    private var vehicle = VehicleEstimate()
    private var target = 0
    /// The speed the last fix measured (the braking model starts from it).
    private var measuredSpeed = 0.0
    private var lastDistance = 0.0

    // The speech.
    private var speaking = SpeakingState()
    private var appPrompts = AppPromptQueue()

    /// Creates a scheduler for a route.
    ///
    /// - Parameters:
    ///   - route: the route to drive.
    ///   - phrases: builds prompts (and the short wordings) from maneuvers.
    ///   - timing: the numbers of the model.
    ///   - usesServerInstructions: use the route's `voiceInstructions` wording where it has some.
    ///   - durationOf: the length of a prompt's speech in seconds (the real renderer, or an estimate).
    public init(
        route: Route, phrases: PhraseBuilder, timing: AnnouncementTiming = AnnouncementTiming(),
        usesServerInstructions: Bool = true, durationOf: @escaping DurationProvider
    ) {
        self.phrases = phrases
        self.timing = timing
        self.usesServerInstructions = usesServerInstructions
        self.durationOf = durationOf
        self.rules = TierRules(
            route: route, phrases: phrases, timing: timing, usesServerInstructions: usesServerInstructions,
            durationOf: durationOf)
    }

    // MARK: Public API

    /// The route being driven.
    public var route: Route { rules.route }

    /// The prompt being said (as far as the scheduler knows), or nil.
    public var current: ScheduledPrompt? { speaking.current }

    /// Index (into the route's maneuvers, in order) of the next maneuver; equal to their count at the end.
    public var nextManeuverIndex: Int { target }

    /// Leg and step of the next maneuver, or nil at the end of the route.
    public var nextManeuver: (legIndex: Int, stepIndex: Int)? {
        let points = rules.plan.points
        return target < points.count ? (points[target].legIndex, points[target].stepIndex) : nil
    }

    /// The fixed prompts of the next maneuvers (final and arrival wordings), to pre-render.
    public func upcomingInstructions(count: Int = 2) -> [SpokenInstruction] {
        var found: [SpokenInstruction] = []
        var index = target
        while index < rules.plan.points.count, index < target + count {
            let step = rules.stepOf(index)
            if let server = rules.serverFinal(index) { found.append(server) }
            found.append(SpokenInstruction(text: phrases.finalText(for: step, wording: .long)))
            found.append(SpokenInstruction(text: phrases.finalText(for: step, wording: .short)))
            index += 1
        }
        return found
    }

    /// Takes a progress update and decides.
    ///
    /// Updates with indices outside the route, a distance or time that is not a finite number, or a
    /// time before the last one, are ignored.
    public mutating func update(_ progress: RouteProgress) -> [AnnouncementDecision] {
        guard progress.time.isFinite, progress.time >= vehicle.lastTime || !vehicle.hasFix,
            progress.distanceRemaining.isFinite,
            let global = rules.plan.globalStep(leg: progress.legIndex, step: progress.stepIndex)
        else { return [] }
        let time = progress.time
        let interval = takeFix(progress, step: global)
        var decisions: [AnnouncementDecision] = []
        let reported = rules.plan.nextPoint[global]
        if reported > target { advance(to: reported, time: time, into: &decisions) }
        speaking.forgetEnded(at: time)
        guard target < rules.plan.points.count else {
            serviceAppPrompts(time: time, into: &decisions)
            return decisions
        }
        let distance = max(0, rules.plan.points[target].position - vehicle.position)
        lastDistance = distance
        let moment = moment(time: time, distance: distance, halfStep: interval / 2)
        if let prompt = rules.evaluate(target, at: moment, into: &decisions) {
            start(prompt, time: time, into: &decisions)
        }
        serviceAppPrompts(time: time, into: &decisions)
        return decisions
    }

    /// Tells the scheduler that the speech it started has ended (earlier than predicted, or cut).
    public mutating func speechDidFinish(at time: Double) {
        speaking.finish(at: time)
    }

    /// The prompt just decided is not said after all (muted, alerts-only, an app's override):
    /// the speech is as it was before it, so nothing waits for it, nor for a gap after it.
    public mutating func speechWasWithheld() {
        speaking.withdraw()
    }

    /// Queues an app prompt ("Speed camera ahead"); it is said as soon as it fits.
    ///
    /// A `.high` prompt cuts any prompt but a final one; a `.normal` one waits for silence. Neither
    /// is said when a final prompt is due before it would end; either is dropped after
    /// `timing.customMaximumDelay` seconds.
    public mutating func announce(
        _ instruction: SpokenInstruction, priority: AnnouncementPriority = .normal, at time: Double
    ) -> [AnnouncementDecision] {
        appPrompts.append(instruction, priority: priority, at: time)
        var decisions: [AnnouncementDecision] = []
        serviceAppPrompts(time: time, into: &decisions)
        return decisions
    }

    /// Says the most relevant prompt again, with the distance as it is now.
    ///
    /// Does not change what is still due. Returns nothing while a final prompt is being said.
    public mutating func repeatInstruction(at time: Double) -> [AnnouncementDecision] {
        guard target < rules.plan.points.count, vehicle.hasFix else { return [] }
        if speaking.isSayingFinal(at: time) { return [] }
        let speed = usableSpeed
        let distance = max(0, lastDistance - speed * max(0, time - vehicle.lastTime))
        let moment = moment(time: time, distance: distance, halfStep: 0)
        let timeLeft = distance / speed
        let step = rules.stepOf(target)
        var prompt: ScheduledPrompt
        let heard = distance - speed * (timing.outputLatency + timing.repeatHeardDelay)
        if timeLeft > rules.leadOf(target) + rules.finalDuration(target, .long) + timing.outputLatency
            + timing.finalLookahead,
            let spoken = phrases.distance(heard)
        {
            let text = phrases.approachText(for: step, distance: spoken, wording: .long)
            prompt = rules.makePrompt(
                SpokenInstruction(text: text, distanceRemainingOnStep: distance), tier: .approach,
                index: target,
                at: moment, spokenDistance: spoken.meters, wording: .long, fromServer: false, then: false)
        } else {
            let text = phrases.finalText(for: step, wording: .short)
            prompt = rules.makePrompt(
                SpokenInstruction(text: text, distanceRemainingOnStep: distance),
                tier: rules.tierOfFinal(target),
                index: target, at: moment, spokenDistance: nil, wording: .short, fromServer: false,
                then: false)
        }
        prompt.predictedEndBeforeManeuver = timeLeft - prompt.duration - timing.outputLatency
        var decisions: [AnnouncementDecision] = []
        start(prompt, time: time, into: &decisions)
        return decisions
    }

    /// Switches to a new route (after a reroute), keeping what was already said.
    ///
    /// The new route's depart prompt ("Head north …") is never said; when its first maneuver is
    /// the one that was next (same type, modifier and place within `timing.sameManeuverRadius`),
    /// the prompts already given for it are not given again.
    public mutating func reroute(to newRoute: Route) {
        let oldState = target < rules.states.count ? rules.states[target] : nil
        let oldStep = target < rules.plan.points.count ? rules.stepOf(target) : nil
        rules.replaceRoute(with: newRoute)
        target = 0
        vehicle.hasFix = false
        guard !rules.states.isEmpty else { return }
        rules.states[0].continueDone = true
        if let oldState, let oldStep,
            oldStep.isSameManeuver(as: rules.stepOf(0), within: timing.sameManeuverRadius)
        {
            var carried = oldState
            carried.texts = nil
            carried.thenTexts = nil
            rules.states[0] = carried
            rules.states[0].continueDone = true
        }
    }

    // MARK: Updates

    private var usableSpeed: Double { max(vehicle.speed, timing.speedFloor) }

    /// Moves the vehicle estimate to the fix of `progress` on global step `step`; returns the
    /// interval since the last fix, seconds.
    private mutating func takeFix(_ progress: RouteProgress, step global: Int) -> Double {
        let time = progress.time
        let interval =
            vehicle.hasFix
            ? min(max(time - vehicle.lastTime, 0), timing.longestFixInterval) : timing.firstFixInterval
        let stepLength = rules.plan.stepLength[global]
        let remaining = min(max(progress.distanceRemaining, 0), stepLength)
        let fix = rules.plan.stepStart[global] + stepLength - remaining
        var measuredSpeed = rules.plan.stepSpeed[global]
        if let speed = progress.speed, speed.isFinite, speed >= 0 { measuredSpeed = speed }
        self.measuredSpeed = measuredSpeed
        let accuracy = progress.horizontalAccuracy.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 0
        vehicle.take(
            fix: fix, speed: measuredSpeed, accuracy: accuracy, at: time, interval: interval, timing: timing)
        return interval
    }

    /// What the tier rules see at `time`, the vehicle `distance` meters before the next maneuver.
    private func moment(time: Double, distance: Double, halfStep: Double) -> TierRules.Moment {
        TierRules.Moment(
            time: time, distance: distance, halfStep: halfStep, speed: usableSpeed,
            measuredSpeed: measuredSpeed,
            position: vehicle.position, accuracy: vehicle.accuracy, speaking: speaking)
    }

    /// Passes the maneuvers before `newTarget`, dropping the final prompts they did not get.
    private mutating func advance(
        to newTarget: Int, time: Double, into decisions: inout [AnnouncementDecision]
    ) {
        while target < newTarget, target < rules.plan.points.count {
            let state = rules.states[target]
            if !state.finalDone && !state.mentionedInFinal {
                rules.drop(
                    target, tier: rules.tierOfFinal(target), reason: .maneuverPassed, time: time,
                    into: &decisions)
            }
            rules.states[target].finalDone = true
            rules.states[target].texts = nil
            rules.states[target].thenTexts = nil
            target += 1
        }
    }

    /// Starts the first app prompt if the speech lets it and it ends before a final prompt is due.
    private mutating func serviceAppPrompts(time: Double, into decisions: inout [AnnouncementDecision]) {
        guard !appPrompts.isEmpty else { return }
        speaking.forgetEnded(at: time)
        appPrompts.dropExpired(at: time, maximumDelay: timing.customMaximumDelay, into: &decisions)
        guard let item = appPrompts.next(at: time, speaking: speaking, minimumGap: timing.minimumGap) else {
            return
        }
        let duration = timing.chimeLength(before: .custom) + durationOf(item.instruction)
        guard endsBeforeFinal(duration, time: time) else { return }
        appPrompts.removeFirst()
        let prompt = item.prompt(duration: duration, time: time, distance: lastDistance, speed: usableSpeed)
        start(prompt, time: time, into: &decisions)
    }

    /// Whether an app prompt `duration` seconds long started at `time` is no longer heard when the
    /// next maneuver's final prompt is due.
    private mutating func endsBeforeFinal(_ duration: Double, time: Double) -> Bool {
        guard target < rules.plan.points.count, !rules.states[target].finalDone,
            !rules.states[target].mentionedInFinal
        else { return true }
        let speed = usableSpeed
        let distance = max(0, lastDistance - speed * max(0, time - vehicle.lastTime))
        let finalStart = rules.leadOf(target) + rules.finalDuration(target, .long) + timing.outputLatency
        return !(distance / speed - duration - timing.outputLatency - timing.minimumGap < finalStart)
    }

    private mutating func start(
        _ prompt: ScheduledPrompt, time: Double, into decisions: inout [AnnouncementDecision]
    ) {
        let interrupted = speaking.start(prompt, at: time, latency: timing.outputLatency)
        decisions.append(.speak(prompt, interrupting: interrupted))
    }
}
