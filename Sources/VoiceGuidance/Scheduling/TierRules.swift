/// The tier rules of the timing model (`docs/timing.md`): which of a maneuver's prompts
/// (prepare, approach, continue, final or arrival) is due at a moment, and in which wording.
///
/// Holds the route as planned and what was said for each maneuver (`states`, with the texts and
/// lengths of its final prompt cached). The scheduler holds the vehicle estimate, the speech and
/// the app prompts, and asks the rules at every update with a `Moment`. Pure: time comes only
/// from the moment.
struct TierRules {
    /// What the rules see of one update.
    struct Moment {
        /// Seconds.
        var time: Double
        /// Meters to the next maneuver.
        var distance: Double
        /// Half the interval since the last fix, seconds.
        var halfStep: Double
        /// The speed estimate, never below `speedFloor`, m/s.
        var speed: Double
        /// The speed the last fix measured (braking is planned from it), m/s.
        var measuredSpeed: Double
        /// The vehicle's place along the route, meters from its start.
        var position: Double
        /// The last fix's accuracy, meters (0: unknown or exact).
        var accuracy: Double
        /// The speech at `time`.
        var speaking: SpeakingState
    }

    /// What a tier's rule did.
    enum Outcome {
        /// Not now: asked again at the next update.
        case notYet
        /// This prompt starts now.
        case spoken(ScheduledPrompt)
        /// Given up for this maneuver.
        case skipped

        /// The prompt to start, if any.
        var prompt: ScheduledPrompt? {
            if case .spoken(let prompt) = self { return prompt }
            return nil
        }
    }

    /// The figures of one evaluation that every tier uses, as time to the maneuver (seconds).
    struct Figures {
        /// Seconds until the maneuver.
        var timeLeft: Double
        /// The final prompt's lead, with the GPS margin.
        var lead: Double
        /// The long final prompt's length.
        var finalLong: Double
        /// True when the maneuver was said as the "then" of the previous final.
        var mentioned: Bool
    }

    /// The numbers of the timing model.
    let timing: AnnouncementTiming
    /// Builds prompts from maneuvers.
    let phrases: PhraseBuilder
    /// When false, server `voiceInstructions` are ignored.
    let usesServerInstructions: Bool
    /// The length of a prompt's speech in seconds.
    let durationOf: AnnouncementScheduler.DurationProvider
    /// The route being driven.
    private(set) var route: Route
    /// Where its maneuvers are.
    private(set) var plan: ManeuverPlan
    /// What has been said for each maneuver of `plan`.
    var states: [ManeuverState]

    init(
        route: Route, phrases: PhraseBuilder, timing: AnnouncementTiming, usesServerInstructions: Bool,
        durationOf: @escaping AnnouncementScheduler.DurationProvider
    ) {
        self.timing = timing
        self.phrases = phrases
        self.usesServerInstructions = usesServerInstructions
        self.durationOf = durationOf
        self.route = route
        self.plan = ManeuverPlan(route: route)
        self.states = Array(repeating: ManeuverState(), count: plan.points.count)
    }

    /// Plans `newRoute` with nothing said yet.
    mutating func replaceRoute(with newRoute: Route) {
        route = newRoute
        plan = ManeuverPlan(route: newRoute)
        states = Array(repeating: ManeuverState(), count: plan.points.count)
    }

    /// The prompt for maneuver `index` to start at `moment`, if one is due; what is given up goes
    /// into `decisions`.
    mutating func evaluate(
        _ index: Int, at moment: Moment, into decisions: inout [AnnouncementDecision]
    ) -> ScheduledPrompt? {
        if states[index].finalDone { return nil }
        // A maneuver already said as the "then" of the previous final gets a final of its own only
        // when it turns out far enough to hear one in full. Asked again at every update: the speed
        // estimate falls slowly after a turn, so the gap can open up later (the final's own window
        // still decides whether it is said).
        let mentioned = states[index].mentionedInFinal
        if mentioned {
            let point = plan.points[index]
            if (point.position - point.previousPosition) / moment.speed < timing.separateFinalMinimumGap {
                return nil
            }
        }
        let figures = Figures(
            timeLeft: timeToManeuver(index, at: moment),
            lead: leadOf(index) + timing.gpsMarginFactor * moment.accuracy / moment.speed,
            finalLong: finalDuration(index, .long), mentioned: mentioned)
        if let outcome = finalRule(index, at: moment, figures, into: &decisions) { return outcome.prompt }
        guard !moment.speaking.isBusy(at: moment.time),
            moment.speaking.isSilent(at: moment.time, for: timing.minimumGap)
        else { return nil }
        if states[index].mentionedInApproach || mentioned { return nil }
        return earlierTiers(index, at: moment, figures, into: &decisions)
    }

    /// The final (or arrival) prompt: nil when it is not in its window yet.
    private mutating func finalRule(
        _ index: Int, at moment: Moment, _ figures: Figures, into decisions: inout [AnnouncementDecision]
    ) -> Outcome? {
        let (latency, halfStep, timeLeft) = (timing.outputLatency, moment.halfStep, figures.timeLeft)
        guard timeLeft <= figures.lead + figures.finalLong + latency + halfStep + timing.finalLookahead else {
            return nil
        }
        let combine = shouldCombine(index, speed: moment.speed)
        let texts = combine ? thenTexts(index) : finalTexts(index)
        guard timeLeft <= figures.lead + texts.longDuration + latency + halfStep else { return nil }
        guard let wording = finalWording(texts, figures) else {
            states[index].finalDone = true
            if !figures.mentioned {
                drop(
                    index, tier: tierOfFinal(index), reason: .windowPassed, time: moment.time,
                    into: &decisions)
            }
            return .skipped
        }
        let duration = wording == .long ? texts.longDuration : texts.shortDuration
        if moment.speaking.isSayingFinal(at: moment.time) { return .notYet }
        if !moment.speaking.isBusy(at: moment.time),
            !moment.speaking.isSilent(at: moment.time, for: timing.minimumGap)
        {
            // Keep the gap unless waiting one more update would lose the prompt.
            let nextLeft = timeLeft - 2 * halfStep
            if nextLeft - texts.shortDuration - latency >= timing.finalMinimumLead { return .notYet }
        }
        let instruction = wording == .long ? texts.long : texts.short
        var prompt = makePrompt(
            instruction.withFreshID(moment.distance), tier: tierOfFinal(index), index: index, at: moment,
            spokenDistance: nil, wording: wording, fromServer: wording == .long && texts.longIsServer,
            then: combine, duration: duration)
        prompt.predictedEndBeforeManeuver = timeLeft - duration - latency
        states[index].finalDone = true
        if combine, index + 1 < states.count {
            states[index + 1].mentionedInFinal = true
            states[index + 1].mentionedInApproach = true
        }
        return .spoken(prompt)
    }

    /// The wording of a final prompt that still ends in time, or nil when none does.
    private func finalWording(_ texts: ManeuverTexts, _ figures: Figures) -> Wording? {
        let latency = timing.outputLatency
        if figures.timeLeft - texts.longDuration - latency >= timing.finalLongMinimumLead { return .long }
        let minimum = figures.mentioned ? timing.finalLongMinimumLead : timing.finalMinimumLead
        if figures.timeLeft - texts.shortDuration - latency >= minimum { return .short }
        return nil
    }

    /// The approach, continue and prepare prompts, in silence, for a maneuver not mentioned yet.
    private mutating func earlierTiers(
        _ index: Int, at moment: Moment, _ figures: Figures, into decisions: inout [AnnouncementDecision]
    ) -> ScheduledPrompt? {
        let (speed, latency) = (moment.speed, timing.outputLatency)
        let state = states[index]
        let finalStart = figures.lead + figures.finalLong + latency  // time-to-maneuver when the final starts
        let approachEnd = max(
            min(
                max(timing.approachLead, timing.approachDistance.lowerBound / speed),
                timing.approachDistance.upperBound / speed),
            finalStart + timing.minimumGap + timing.approachExtraGap)
        let approachEstimate = figures.finalLong + timing.approachExtraLength
        if !state.approachDone,
            figures.timeLeft
                <= approachEnd + approachEstimate + latency + moment.halfStep + timing.distancePromptLookahead
                + timing.roundingEarly
        {
            return approachRule(
                index, at: moment, end: approachEnd, roomBefore: finalStart + timing.minimumGap,
                into: &decisions)
        }
        let approachStart = approachEnd + approachEstimate + latency
        let point = plan.points[index]
        // For what is planned well ahead, the route's own speed of the step counts too (a car
        // leaving a slow street speeds up).
        let planSpeed = max(speed, plan.stepSpeed[plan.legOffset[point.legIndex] + point.stepIndex - 1])
        // At most two prompts (approach, final) for a maneuver close behind the previous one.
        let isClose = (point.position - point.previousPosition) / planSpeed < timing.closeManeuverTime
        if !state.continueDone {
            let willApproach =
                !state.approachDone
                && approachEnd * speed >= timing.approachDistance.lowerBound * timing.distanceBoundSlack
            let roomBefore = (willApproach ? approachStart : finalStart) + timing.minimumGap
            if let outcome = continueRule(
                index, at: moment, planSpeed: planSpeed, isClose: isClose, roomBefore: roomBefore,
                into: &decisions)
            {
                return outcome.prompt
            }
        }
        guard !state.prepareDone, !state.continueSpoken, !isClose else { return nil }
        return prepareRule(
            index, at: moment, figures, approachStart: approachStart, approachEstimate: approachEstimate,
            into: &decisions)
    }

    /// The approach prompt, in its window: its speech ends `end` seconds before the maneuver and
    /// before `roomBefore`.
    private mutating func approachRule(
        _ index: Int, at moment: Moment, end: Double, roomBefore: Double,
        into decisions: inout [AnnouncementDecision]
    ) -> ScheduledPrompt? {
        let approach = DistanceTier(
            tier: .approach, end: end, roomBefore: roomBefore,
            minimumDistance: timing.approachDistance.lowerBound)
        let result = tryDistancePrompt(index, approach, at: moment, into: &decisions)
        if case .notYet = result {} else { states[index].approachDone = true }
        if case .spoken = result {
            states[index].prepareDone = true
            states[index].continueDone = true
        }
        return result.prompt
    }

    /// The continue prompt (after a maneuver, or the depart prompt): nil when it is not its turn.
    private mutating func continueRule(
        _ index: Int, at moment: Moment, planSpeed: Double, isClose: Bool, roomBefore: Double,
        into decisions: inout [AnnouncementDecision]
    ) -> Outcome? {
        let point = plan.points[index]
        let speed = moment.speed
        let driven = moment.position - point.previousPosition
        let latest = max(speed * timing.continueLatestTime, timing.continueLatestDistance)
        if driven > latest
            || (driven > max(speed * timing.continueWindow, timing.continueWindowDistance)
                && !states[index].continueWaiting)
        {
            states[index].continueDone = true
            return nil
        }
        // Not past the previous maneuver yet (a fix ahead of the vehicle): wait.
        if driven < 0 { return nil }
        guard point.followsDepart || (moment.distance / planSpeed >= timing.continueMinimumTime && !isClose)
        else { return nil }
        let result = sayContinue(
            index, at: moment, roomBefore: roomBefore,
            mayWait: driven + speed * 2 * moment.halfStep <= latest, into: &decisions)
        switch result {
        case .notYet:
            states[index].continueWaiting = true
        case .spoken:
            states[index].continueDone = true
            if isClose { states[index].approachDone = true }
        case .skipped:
            states[index].continueDone = true
        }
        return result
    }

    /// The prepare prompt (fast roads only, when no continue prompt was given).
    private mutating func prepareRule(
        _ index: Int, at moment: Moment, _ figures: Figures, approachStart: Double, approachEstimate: Double,
        into decisions: inout [AnnouncementDecision]
    ) -> ScheduledPrompt? {
        let speed = moment.speed
        guard speed >= timing.prepareMinimumSpeed else { return nil }
        let prepareEnd = min(
            max(timing.prepareLead, timing.prepareDistance.lowerBound / speed),
            timing.prepareDistance.upperBound / speed)
        guard
            figures.timeLeft
                <= prepareEnd + approachEstimate + timing.outputLatency + moment.halfStep
                + timing.distancePromptLookahead + timing.roundingEarly
        else { return nil }
        let prepare = DistanceTier(
            tier: .prepare, end: prepareEnd, roomBefore: approachStart + timing.minimumGap,
            minimumDistance: timing.prepareDistance.lowerBound)
        let result = tryDistancePrompt(index, prepare, at: moment, into: &decisions)
        if case .notYet = result {} else { states[index].prepareDone = true }
        if case .spoken = result { states[index].continueDone = true }
        return result.prompt
    }
}
