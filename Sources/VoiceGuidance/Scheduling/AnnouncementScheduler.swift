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
    /// The route being driven.
    public private(set) var route: Route
    /// Builds prompts from maneuvers.
    public let phrases: PhraseBuilder
    /// When false, server `voiceInstructions` are ignored.
    public let usesServerInstructions: Bool

    private let durationOf: DurationProvider
    private var plan: ManeuverPlan
    private var states: [ManeuverState]

    // The vehicle.
    private var vehicle = VehicleEstimate()
    private var target = 0
    /// The speed the last fix measured (the braking model starts from it).
    private var measuredSpeed = 0.0
    private var lastDistance = 0.0

    // The speech.
    /// The prompt being said (as far as the scheduler knows), or nil.
    public private(set) var current: ScheduledPrompt?
    private var busyUntil = -Double.infinity
    private var pendingCustom:
        [(instruction: SpokenInstruction, priority: AnnouncementPriority, time: Double)] = []

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
        self.route = route
        self.phrases = phrases
        self.timing = timing
        self.usesServerInstructions = usesServerInstructions
        self.durationOf = durationOf
        self.plan = ManeuverPlan(route: route)
        self.states = Array(repeating: ManeuverState(), count: plan.points.count)
    }

    // MARK: Public API

    /// Index (into the route's maneuvers, in order) of the next maneuver; equal to their count at the end.
    public var nextManeuverIndex: Int { target }

    /// Leg and step of the next maneuver, or nil at the end of the route.
    public var nextManeuver: (legIndex: Int, stepIndex: Int)? {
        target < plan.points.count ? (plan.points[target].legIndex, plan.points[target].stepIndex) : nil
    }

    /// The fixed prompts of the next maneuvers (final and arrival wordings), to pre-render.
    public func upcomingInstructions(count: Int = 2) -> [SpokenInstruction] {
        var found: [SpokenInstruction] = []
        var index = target
        while index < plan.points.count, index < target + count {
            let step = stepOf(index)
            if let server = serverFinal(index) { found.append(server) }
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
            let global = plan.globalStep(leg: progress.legIndex, step: progress.stepIndex)
        else { return [] }
        let time = progress.time
        let interval = vehicle.hasFix ? min(max(time - vehicle.lastTime, 0), 2) : 1
        let stepLength = plan.stepLength[global]
        let remaining = min(max(progress.distanceRemaining, 0), stepLength)
        let fix = plan.stepStart[global] + stepLength - remaining
        var measuredSpeed = plan.stepSpeed[global]
        if let speed = progress.speed, speed.isFinite, speed >= 0 { measuredSpeed = speed }
        self.measuredSpeed = measuredSpeed
        let accuracy = progress.horizontalAccuracy.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 0
        vehicle.take(
            fix: fix, speed: measuredSpeed, accuracy: accuracy, at: time, interval: interval, timing: timing)

        var decisions: [AnnouncementDecision] = []
        let reported = plan.nextPoint[global]
        if reported > target { advance(to: reported, time: time, into: &decisions) }
        if current != nil, time >= busyUntil { current = nil }
        guard target < plan.points.count else {
            serviceCustom(time: time, into: &decisions)
            return decisions
        }
        let distance = max(0, plan.points[target].position - vehicle.position)
        lastDistance = distance
        evaluate(time: time, distance: distance, halfStep: interval / 2, into: &decisions)
        serviceCustom(time: time, into: &decisions)
        return decisions
    }

    /// Tells the scheduler that the speech it started has ended (earlier than predicted, or cut).
    public mutating func speechDidFinish(at time: Double) {
        busyUntil = min(busyUntil, time)
        if time >= busyUntil { current = nil }
    }

    /// Queues an app prompt ("Speed camera ahead"); it is said as soon as it fits.
    ///
    /// A `.high` prompt cuts any prompt but a final one; a `.normal` one waits for silence. Neither
    /// is said when a final prompt is due before it would end; either is dropped after
    /// `timing.customMaximumDelay` seconds.
    public mutating func announce(
        _ instruction: SpokenInstruction, priority: AnnouncementPriority = .normal, at time: Double
    ) -> [AnnouncementDecision] {
        pendingCustom.append((instruction, priority, time))
        var decisions: [AnnouncementDecision] = []
        serviceCustom(time: time, into: &decisions)
        return decisions
    }

    /// Says the most relevant prompt again, with the distance as it is now.
    ///
    /// Does not change what is still due. Returns nothing while a final prompt is being said.
    public mutating func repeatInstruction(at time: Double) -> [AnnouncementDecision] {
        guard target < plan.points.count, vehicle.hasFix else { return [] }
        if let speaking = current, time < busyUntil, speaking.tier.isFinal { return [] }
        let speed = usableSpeed
        let distance = max(0, lastDistance - speed * max(0, time - vehicle.lastTime))
        let timeLeft = distance / speed
        let step = stepOf(target)
        let tier: PromptTier = step.maneuver.type == .arrive ? .arrival : .final
        var prompt: ScheduledPrompt
        let heard = distance - speed * (timing.outputLatency + timing.repeatHeardDelay)
        if timeLeft > leadOf(target) + finalDuration(target, .long) + timing.outputLatency
            + timing.finalLookahead,
            let spoken = phrases.distance(heard)
        {
            let text = phrases.approachText(for: step, distance: spoken, wording: .long)
            let instruction = SpokenInstruction(text: text, distanceRemainingOnStep: distance)
            prompt = makePrompt(
                instruction, tier: .approach, index: target, time: time, distance: distance,
                spokenDistance: spoken.meters, wording: .long, fromServer: false, then: false)
        } else {
            let text = phrases.finalText(for: step, wording: .short)
            prompt = makePrompt(
                SpokenInstruction(text: text, distanceRemainingOnStep: distance), tier: tier, index: target,
                time: time,
                distance: distance, spokenDistance: nil, wording: .short, fromServer: false, then: false)
        }
        prompt.predictedEndBeforeManeuver = timeLeft - prompt.duration - timing.outputLatency
        var decisions: [AnnouncementDecision] = []
        start(prompt, time: time, into: &decisions)
        return decisions
    }

    /// Switches to a new route (after a reroute), keeping what was already said.
    ///
    /// The new route's depart prompt ("Head north …") is never said; when its first maneuver is
    /// the one that was next (same type, modifier and place within 30 m), the prompts already
    /// given for it are not given again.
    public mutating func reroute(to newRoute: Route) {
        let oldState = target < states.count ? states[target] : nil
        let oldStep = target < plan.points.count ? stepOf(target) : nil
        route = newRoute
        plan = ManeuverPlan(route: newRoute)
        states = Array(repeating: ManeuverState(), count: plan.points.count)
        target = 0
        vehicle.hasFix = false
        guard !states.isEmpty else { return }
        states[0].continueDone = true
        if let oldState, let oldStep, oldStep.isSameManeuver(as: stepOf(0), within: timing.sameManeuverRadius)
        {
            var carried = oldState
            carried.texts = nil
            carried.thenTexts = nil
            states[0] = carried
            states[0].continueDone = true
        }
    }

    // MARK: Evaluation

    private var usableSpeed: Double { max(vehicle.speed, timing.speedFloor) }

    private mutating func advance(
        to newTarget: Int, time: Double, into decisions: inout [AnnouncementDecision]
    ) {
        while target < newTarget, target < plan.points.count {
            let state = states[target]
            if !state.finalDone && !state.mentionedInFinal {
                let point = plan.points[target]
                decisions.append(
                    .drop(
                        DroppedPrompt(
                            time: time, tier: tierOfFinal(target), legIndex: point.legIndex,
                            stepIndex: point.stepIndex, reason: .maneuverPassed)))
            }
            states[target].finalDone = true
            states[target].texts = nil
            states[target].thenTexts = nil
            target += 1
        }
    }

    private mutating func evaluate(
        time: Double, distance: Double, halfStep: Double, into decisions: inout [AnnouncementDecision]
    ) {
        let index = target
        if states[index].finalDone { return }
        // A maneuver already said as the "then" of the previous final gets a final of its own only
        // when it turns out far enough to hear one in full. Asked again at every update: the speed
        // estimate falls slowly after a turn, so the gap can open up later (the final's own window
        // still decides whether it is said).
        let mentioned = states[index].mentionedInFinal
        if mentioned {
            let point = plan.points[index]
            if (point.position - point.previousPosition) / usableSpeed < timing.separateFinalMinimumGap {
                return
            }
        }
        let speed = usableSpeed
        let timeLeft = timeToManeuver(index, distance: distance, speed: speed)
        let latency = timing.outputLatency
        let lead = leadOf(index) + timing.gpsMarginFactor * vehicle.accuracy / speed
        let finalLong = finalDuration(index, .long)
        let busy = current != nil && time < busyUntil
        let silentLongEnough = time >= busyUntil + timing.minimumGap

        // Final (or arrival).
        if timeLeft <= lead + finalLong + latency + halfStep + timing.finalLookahead {
            let combine = shouldCombine(index, speed: speed)
            let texts = combine ? thenTexts(index) : finalTexts(index)
            if timeLeft <= lead + texts.longDuration + latency + halfStep {
                let wording: Wording
                if timeLeft - texts.longDuration - latency >= timing.finalLongMinimumLead {
                    wording = .long
                } else if timeLeft - texts.shortDuration - latency
                    >= (mentioned ? timing.finalLongMinimumLead : timing.finalMinimumLead)
                {
                    wording = .short
                } else {
                    states[index].finalDone = true
                    if !mentioned {
                        drop(
                            index, tier: tierOfFinal(index), reason: .windowPassed, time: time,
                            into: &decisions)
                    }
                    return
                }
                let duration = wording == .long ? texts.longDuration : texts.shortDuration
                if busy, let speaking = current, speaking.tier.isFinal {
                    return
                }
                if !busy && !silentLongEnough {
                    // Keep the gap unless waiting one more update would lose the prompt.
                    let nextLeft = timeLeft - 2 * halfStep
                    if nextLeft - texts.shortDuration - latency >= timing.finalMinimumLead { return }
                }
                let instruction = wording == .long ? texts.long : texts.short
                var prompt = makePrompt(
                    instruction.withFreshID(distance), tier: tierOfFinal(index), index: index, time: time,
                    distance: distance, spokenDistance: nil, wording: wording,
                    fromServer: wording == .long && texts.longIsServer, then: combine, duration: duration)
                prompt.predictedEndBeforeManeuver = timeLeft - duration - latency
                states[index].finalDone = true
                if combine, index + 1 < states.count {
                    states[index + 1].mentionedInFinal = true
                    states[index + 1].mentionedInApproach = true
                }
                start(prompt, time: time, into: &decisions)
                return
            }
        }
        if busy || !silentLongEnough { return }
        let state = states[index]
        if state.mentionedInApproach || mentioned { return }
        let finalStart = lead + finalLong + latency  // time-to-maneuver when the final starts
        let approachEnd = max(
            min(
                max(timing.approachLead, timing.approachDistance.lowerBound / speed),
                timing.approachDistance.upperBound / speed),
            finalStart + timing.minimumGap + timing.approachExtraGap)
        let approachEstimate = finalLong + timing.approachExtraLength

        // Approach.
        if !state.approachDone {
            if timeLeft <= approachEnd + approachEstimate + latency + halfStep + 1 + timing.roundingEarly {
                let result = tryDistancePrompt(
                    index, tier: .approach, time: time, distance: distance, speed: speed, end: approachEnd,
                    roomBefore: finalStart + timing.minimumGap,
                    minimumDistance: timing.approachDistance.lowerBound,
                    halfStep: halfStep, into: &decisions)
                if result != .notYet { states[index].approachDone = true }
                if result == .spoken {
                    states[index].prepareDone = true
                    states[index].continueDone = true
                }
                return
            }
        }
        let approachStart = approachEnd + approachEstimate + latency

        let point = plan.points[index]
        // For what is planned well ahead, the route's own speed of the step counts too (a car
        // leaving a slow street speeds up).
        let planSpeed = max(speed, plan.stepSpeed[plan.legOffset[point.legIndex] + point.stepIndex - 1])
        // At most two prompts (approach, final) for a maneuver close behind the previous one.
        let isClose = (point.position - point.previousPosition) / planSpeed < timing.closeManeuverTime

        // Continue (after a maneuver, or the depart prompt).
        if !state.continueDone {
            let driven = vehicle.position - point.previousPosition
            let latest = max(speed * timing.continueLatestTime, timing.continueLatestDistance)
            if driven > latest
                || (driven > max(speed * timing.continueWindow, timing.continueWindowDistance)
                    && !state.continueWaiting)
            {
                states[index].continueDone = true
            } else if driven < 0 {
                // Not past the previous maneuver yet (a fix ahead of the vehicle): wait.
            } else if point.followsDepart || (distance / planSpeed >= timing.continueMinimumTime && !isClose)
            {
                let willApproach =
                    !state.approachDone
                    && approachEnd * speed >= timing.approachDistance.lowerBound * timing.distanceBoundSlack
                let nextStart = willApproach ? approachStart : finalStart
                let result = sayContinue(
                    index, time: time, distance: distance, speed: speed,
                    roomBefore: nextStart + timing.minimumGap,
                    mayWait: driven + speed * 2 * halfStep <= latest, into: &decisions)
                switch result {
                case .notYet:
                    states[index].continueWaiting = true
                case .spoken:
                    states[index].continueDone = true
                    if isClose { states[index].approachDone = true }
                case .skipped:
                    states[index].continueDone = true
                }
                return
            }
        }

        // Prepare (fast roads only, when no continue prompt was given).
        if !state.prepareDone, !state.continueSpoken, !isClose, speed >= timing.prepareMinimumSpeed {
            let prepareEnd = min(
                max(timing.prepareLead, timing.prepareDistance.lowerBound / speed),
                timing.prepareDistance.upperBound / speed)
            if timeLeft <= prepareEnd + approachEstimate + latency + halfStep + 1 + timing.roundingEarly {
                let result = tryDistancePrompt(
                    index, tier: .prepare, time: time, distance: distance, speed: speed, end: prepareEnd,
                    roomBefore: approachStart + timing.minimumGap,
                    minimumDistance: timing.prepareDistance.lowerBound, halfStep: halfStep, into: &decisions)
                if result != .notYet { states[index].prepareDone = true }
                if result == .spoken { states[index].continueDone = true }
            }
        }
    }

    private enum Outcome { case notYet, spoken, skipped }

    /// Tries a prompt with a distance ("In 300 meters, …") whose speech should end `end` seconds
    /// before the maneuver and must end before `roomBefore`.
    private mutating func tryDistancePrompt(
        _ index: Int, tier: PromptTier, time: Double, distance: Double, speed: Double, end: Double,
        roomBefore: Double, minimumDistance: Double, halfStep: Double,
        into decisions: inout [AnnouncementDecision]
    ) -> Outcome {
        let latency = timing.outputLatency
        let chime = timing.chimeLength(before: tier)
        let timeLeft = distance / speed
        let step = stepOf(index)
        let next: RouteStep? = shouldCombine(index, speed: speed) ? stepOf(index + 1) : nil
        var offset = timing.distanceHeardGuess
        var built: (text: String, spoken: SpokenDistance, heard: Double, duration: Double, offset: Double)?
        for _ in 0..<2 {
            let heard = distance - speed * (latency + offset)
            guard heard >= minimumDistance * timing.distanceBoundSlack, let spoken = phrases.distance(heard)
            else {
                drop(index, tier: tier, reason: .noRoom, time: time, into: &decisions)
                return .skipped
            }
            let text = phrases.approachText(for: step, distance: spoken, wording: .long, then: next)
            let speech = durationOf(SpokenInstruction(text: text))
            let duration = chime + speech
            let newOffset = chime + Self.offset(of: spoken.text, in: text, duration: speech)
            built = (text, spoken, heard, duration, newOffset)
            if abs(newOffset - offset) < 0.15 { break }
            offset = newOffset
        }
        guard var chosen = built else { return .skipped }
        let nominal = end + chosen.duration + latency + halfStep
        if timeLeft > nominal + timing.roundingEarly { return .notYet }
        let isEarly = timeLeft > nominal
        if chosen.spoken.meters > states[index].lastSpokenDistance {
            return timeLeft - 2 * halfStep - chosen.duration - latency >= roomBefore ? .notYet : .skipped
        }
        var wording = Wording.long
        if timeLeft - chosen.duration - latency < roomBefore {
            let shortText = phrases.approachText(
                for: step, distance: chosen.spoken, wording: .short, then: next)
            let shortSpeech = durationOf(SpokenInstruction(text: shortText))
            let shortDuration = chime + shortSpeech
            guard timeLeft - shortDuration - latency >= roomBefore else {
                drop(index, tier: tier, reason: .noRoom, time: time, into: &decisions)
                return .skipped
            }
            chosen.text = shortText
            chosen.duration = shortDuration
            chosen.offset = chime + Self.offset(of: chosen.spoken.text, in: shortText, duration: shortSpeech)
            wording = .short
        }
        let error = abs(chosen.spoken.meters - chosen.heard) / chosen.heard
        if isEarly && error > timing.roundingTolerance { return .notYet }
        if error > timing.roundingTolerance {
            if states[index].waitStart.isNaN { states[index].waitStart = time }
            let canWait =
                time - states[index].waitStart < timing.roundingWait
                && timeLeft - 2 * halfStep - chosen.duration - latency >= roomBefore
            if canWait { return .notYet }
        }
        var prompt = makePrompt(
            SpokenInstruction(text: chosen.text, distanceRemainingOnStep: distance), tier: tier, index: index,
            time: time, distance: distance, spokenDistance: chosen.spoken.meters, wording: wording,
            fromServer: false, then: next != nil, duration: chosen.duration)
        prompt.predictedEndBeforeManeuver = timeLeft - chosen.duration - latency
        prompt.distanceHeardAfter = latency + chosen.offset
        states[index].lastSpokenDistance = chosen.spoken.meters
        if next != nil, index + 1 < states.count { states[index + 1].mentionedInApproach = true }
        start(prompt, time: time, into: &decisions)
        return .spoken
    }

    /// Says the depart prompt or "Continue for …" if it fits before `roomBefore`; waits (when
    /// `mayWait`) for a moment when the distance is a rounder number.
    private mutating func sayContinue(
        _ index: Int, time: Double, distance: Double, speed: Double, roomBefore: Double, mayWait: Bool,
        into decisions: inout [AnnouncementDecision]
    ) -> Outcome {
        let point = plan.points[index]
        let latency = timing.outputLatency
        let timeLeft = distance / speed
        let previous = route.legs[point.legIndex].steps[point.stepIndex - 1]
        var candidates: [(SpokenInstruction, Wording, Bool, SpokenDistance?)] = []
        if point.followsDepart {
            if usesServerInstructions, let server = previous.voiceInstructions.first,
                previous.voiceInstructions.count >= 2
                    || server.distanceAlongGeometry >= previous.distance * 0.9
            {
                candidates.append(
                    (
                        SpokenInstruction(text: server.announcement, ssml: server.ssmlAnnouncement), .long,
                        true, nil
                    ))
            }
            candidates.append(
                (
                    SpokenInstruction(text: phrases.departText(for: previous, wording: .long)), .long, false,
                    nil
                ))
            candidates.append(
                (
                    SpokenInstruction(text: phrases.departText(for: previous, wording: .short)), .short,
                    false, nil
                ))
        } else {
            for wording in Wording.allCases {
                var offset = timing.continueDistanceHeardGuess
                for pass in 0..<2 {
                    let heard = distance - speed * (latency + offset)
                    guard let spoken = phrases.distance(heard),
                        spoken.meters <= states[index].lastSpokenDistance
                    else { break }
                    if mayWait, abs(spoken.meters - heard) / heard > timing.roundingTolerance {
                        return .notYet
                    }
                    let text = phrases.continueText(on: previous, distance: spoken, wording: wording)
                    let newOffset = Self.offset(
                        of: spoken.text, in: text, duration: durationOf(SpokenInstruction(text: text)))
                    if abs(newOffset - offset) < 0.3 || pass == 1 {
                        candidates.append((SpokenInstruction(text: text), wording, false, spoken))
                        break
                    }
                    offset = newOffset
                }
            }
        }
        let chime = timing.chimeLength(before: .continue)
        for (instruction, wording, fromServer, spoken) in candidates {
            let speech = durationOf(instruction)
            let duration = chime + speech
            guard timeLeft - duration - latency >= roomBefore else { continue }
            var prompt = makePrompt(
                instruction.withFreshID(distance), tier: .continue, index: index, time: time,
                distance: distance,
                spokenDistance: spoken?.meters, wording: wording, fromServer: fromServer, then: false,
                duration: duration)
            prompt.predictedEndBeforeManeuver = timeLeft - duration - latency
            if let spoken {
                states[index].lastSpokenDistance = spoken.meters
                prompt.distanceHeardAfter =
                    latency + chime + Self.offset(of: spoken.text, in: instruction.text, duration: speech)
            }
            states[index].continueSpoken = true
            start(prompt, time: time, into: &decisions)
            return .spoken
        }
        return .skipped
    }

    private mutating func serviceCustom(time: Double, into decisions: inout [AnnouncementDecision]) {
        guard !pendingCustom.isEmpty else { return }
        if current != nil, time >= busyUntil { current = nil }
        var index = 0
        while index < pendingCustom.count {
            let item = pendingCustom[index]
            if time - item.time > timing.customMaximumDelay {
                pendingCustom.remove(at: index)
                decisions.append(
                    .drop(
                        DroppedPrompt(
                            time: time, tier: .custom, legIndex: -1, stepIndex: -1, reason: .expired)))
                continue
            }
            index += 1
        }
        guard let item = pendingCustom.first else { return }
        let busy = current != nil && time < busyUntil
        if busy, let speaking = current, speaking.tier.isFinal || item.priority == .normal { return }
        if !busy && time < busyUntil + timing.minimumGap { return }
        let duration = timing.chimeLength(before: .custom) + durationOf(item.instruction)
        // Never start an app prompt that would still be heard when a final prompt is due.
        if target < plan.points.count, !states[target].finalDone, !states[target].mentionedInFinal {
            let speed = usableSpeed
            let distance = max(0, lastDistance - speed * max(0, time - vehicle.lastTime))
            let finalStart =
                leadOf(target) + finalDuration(target, .long) + timing.outputLatency
            if distance / speed - duration - timing.outputLatency - timing.minimumGap < finalStart { return }
        }
        pendingCustom.removeFirst()
        let prompt = ScheduledPrompt(
            instruction: item.instruction, tier: .custom, legIndex: -1, stepIndex: -1, spokenDistance: nil,
            duration: duration, time: time, estimatedDistance: lastDistance, estimatedSpeed: usableSpeed,
            predictedEndBeforeManeuver: .nan, wording: .long, isFromServer: false,
            includesNextManeuver: false,
            priority: item.priority, distanceHeardAfter: nil)
        start(prompt, time: time, into: &decisions)
    }

    private mutating func start(
        _ prompt: ScheduledPrompt, time: Double, into decisions: inout [AnnouncementDecision]
    ) {
        let interrupted = (current != nil && time < busyUntil) ? current : nil
        decisions.append(.speak(prompt, interrupting: interrupted))
        current = prompt
        busyUntil = time + timing.outputLatency + prompt.duration
    }

    private func drop(
        _ index: Int, tier: PromptTier, reason: DropReason, time: Double,
        into decisions: inout [AnnouncementDecision]
    ) {
        let point = plan.points[index]
        decisions.append(
            .drop(
                DroppedPrompt(
                    time: time, tier: tier, legIndex: point.legIndex, stepIndex: point.stepIndex,
                    reason: reason)))
    }

    private func makePrompt(
        _ instruction: SpokenInstruction, tier: PromptTier, index: Int, time: Double, distance: Double,
        spokenDistance: Double?, wording: Wording, fromServer: Bool, then: Bool, duration known: Double? = nil
    ) -> ScheduledPrompt {
        let point = plan.points[index]
        let duration = known ?? timing.chimeLength(before: tier) + durationOf(instruction)
        return ScheduledPrompt(
            instruction: instruction, tier: tier, legIndex: point.legIndex, stepIndex: point.stepIndex,
            spokenDistance: spokenDistance, duration: duration, time: time, estimatedDistance: distance,
            estimatedSpeed: usableSpeed,
            predictedEndBeforeManeuver: distance / usableSpeed - duration - timing.outputLatency,
            wording: wording, isFromServer: fromServer, includesNextManeuver: then, priority: nil,
            distanceHeardAfter: nil)
    }

    // MARK: Texts

    private func stepOf(_ index: Int) -> RouteStep {
        let point = plan.points[index]
        return route.legs[point.legIndex].steps[point.stepIndex]
    }

    private func tierOfFinal(_ index: Int) -> PromptTier {
        stepOf(index).maneuver.type == .arrive ? .arrival : .final
    }

    /// Seconds until the car reaches maneuver `index`, `distance` meters ahead: distance / speed,
    /// or, when `timing.expectsBraking`, with the braking expected before it from the speed
    /// measured now (corrected at every update as the car slows).
    private func timeToManeuver(_ index: Int, distance: Double, speed: Double) -> Double {
        guard timing.expectsBraking else { return distance / speed }
        return timing.brakingTime(distance: distance, speed: measuredSpeed, turnSpeed: expectedSpeed(index))
    }

    /// The speed a driver takes maneuver `index` at: by its angle (from the maneuver's bearings,
    /// else its modifier), never above the routed speed of the road after it; 0 at an arrival.
    private func expectedSpeed(_ index: Int) -> Double {
        let step = stepOf(index)
        let maneuver = step.maneuver
        if maneuver.type == .arrive { return 0 }
        if [.roundabout, .rotary, .roundaboutTurn].contains(maneuver.type) { return timing.roundaboutSpeed }
        let angle: Double
        if let before = maneuver.bearingBefore, let after = maneuver.bearingAfter, before != 0 || after != 0 {
            let difference = abs((before - after).truncatingRemainder(dividingBy: 360))
            angle = difference > 180 ? 360 - difference : difference
        } else {
            switch maneuver.modifier {
            case .uTurn?: angle = 180
            case .sharpLeft?, .sharpRight?: angle = 135
            case .left?, .right?: angle = 90
            case .slightLeft?, .slightRight?: angle = 35
            default: angle = 0
            }
        }
        let point = plan.points[index]
        let routed = plan.stepSpeed[plan.legOffset[point.legIndex] + point.stepIndex]
        let byAngle = timing.turnSpeed(angle: angle)
        return routed > 0 ? min(byAngle, routed) : byAngle
    }

    private func leadOf(_ index: Int) -> Double {
        stepOf(index).maneuver.type == .arrive
            ? timing.arrivalLead : timing.expectsBraking ? timing.brakingFinalLead : timing.finalLead
    }

    /// The server's final prompt for a maneuver: the last of the previous step's instructions
    /// (unless that step departs and has only one, which then serves as the depart prompt).
    private func serverFinal(_ index: Int) -> SpokenInstruction? {
        guard usesServerInstructions else { return nil }
        let point = plan.points[index]
        let previous = route.legs[point.legIndex].steps[point.stepIndex - 1]
        guard let last = previous.voiceInstructions.last else { return nil }
        if point.followsDepart && previous.voiceInstructions.count < 2 { return nil }
        return SpokenInstruction(text: last.announcement, ssml: last.ssmlAnnouncement)
    }

    private mutating func finalTexts(_ index: Int) -> ManeuverTexts {
        if let texts = states[index].texts { return texts }
        let step = stepOf(index)
        let short = SpokenInstruction(text: phrases.finalText(for: step, wording: .short))
        let server = serverFinal(index)
        let long = server ?? SpokenInstruction(text: phrases.finalText(for: step, wording: .long))
        let chime = timing.chimeLength(before: tierOfFinal(index))
        let texts = ManeuverTexts(
            long: long, short: short, longDuration: chime + safeDuration(long),
            shortDuration: chime + safeDuration(short), longIsServer: server != nil)
        states[index].texts = texts
        return texts
    }

    private mutating func thenTexts(_ index: Int) -> ManeuverTexts {
        if let texts = states[index].thenTexts { return texts }
        let step = stepOf(index)
        let next = stepOf(index + 1)
        let long = SpokenInstruction(text: phrases.finalText(for: step, wording: .long, then: next))
        let short = SpokenInstruction(text: phrases.finalText(for: step, wording: .short, then: next))
        let chime = timing.chimeLength(before: tierOfFinal(index))
        let texts = ManeuverTexts(
            long: long, short: short, longDuration: chime + safeDuration(long),
            shortDuration: chime + safeDuration(short), longIsServer: false)
        states[index].thenTexts = texts
        return texts
    }

    private mutating func finalDuration(_ index: Int, _ wording: Wording) -> Double {
        let texts = finalTexts(index)
        return wording == .long ? texts.longDuration : texts.shortDuration
    }

    private func safeDuration(_ instruction: SpokenInstruction) -> Double {
        let value = durationOf(instruction)
        return value.isFinite && value >= 0 ? value : timing.estimatedDuration(of: instruction)
    }

    /// True when the maneuver after `index` (same leg) follows too soon for a final prompt of its own.
    private mutating func shouldCombine(_ index: Int, speed: Double) -> Bool {
        guard index + 1 < plan.points.count else { return false }
        let point = plan.points[index]
        let next = plan.points[index + 1]
        guard next.legIndex == point.legIndex, stepOf(index).maneuver.type != .arrive else { return false }
        let gap = (next.position - point.position) / speed
        let needed = finalDuration(index + 1, .short) + leadOf(index + 1) + timing.combineReaction
        return gap < needed
    }

    /// Seconds into the speech when `phrase` (inside `text`) is heard, by its place in the text.
    static func offset(of phrase: String, in text: String, duration: Double) -> Double {
        guard let range = text.range(of: phrase), !text.isEmpty else { return duration / 2 }
        let before = text.distance(from: text.startIndex, to: range.lowerBound)
        let length = phrase.count
        return duration * (Double(before) + Double(length) / 2) / Double(text.count)
    }
}

extension SpokenInstruction {
    /// A copy with a new identity (each time a prompt is said it is a new prompt).
    func withFreshID(_ distance: Double) -> SpokenInstruction {
        SpokenInstruction(text: text, ssml: ssml, distanceRemainingOnStep: distance)
    }
}
