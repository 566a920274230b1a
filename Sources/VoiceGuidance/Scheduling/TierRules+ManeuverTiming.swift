/// When a maneuver is reached and how its final prompt is placed: braking, turn speeds, leads,
/// combining; and the prompts and drops the rules give for it.
extension TierRules {
    /// The route step of maneuver `index`.
    func stepOf(_ index: Int) -> RouteStep {
        let point = plan.points[index]
        return route.legs[point.legIndex].steps[point.stepIndex]
    }

    /// The tier of maneuver `index`'s last prompt: arrival or final.
    func tierOfFinal(_ index: Int) -> PromptTier {
        stepOf(index).maneuver.type == .arrive ? .arrival : .final
    }

    /// Seconds until the car reaches maneuver `index`, `moment.distance` meters ahead: distance /
    /// speed, or, when `timing.expectsBraking`, with the braking expected before it from the speed
    /// measured now (corrected at every update as the car slows).
    func timeToManeuver(_ index: Int, at moment: Moment) -> Double {
        guard timing.expectsBraking else { return moment.distance / moment.speed }
        return timing.brakingTime(
            distance: moment.distance, speed: moment.measuredSpeed, turnSpeed: expectedSpeed(index))
    }

    /// The speed a driver takes maneuver `index` at: by its angle (from the maneuver's bearings,
    /// else its modifier), never above the routed speed of the road after it; 0 at an arrival.
    private func expectedSpeed(_ index: Int) -> Double {
        let maneuver = stepOf(index).maneuver
        if maneuver.type == .arrive { return 0 }
        if [.roundabout, .rotary, .roundaboutTurn].contains(maneuver.type) { return timing.roundaboutSpeed }
        let angle: Double
        if let before = maneuver.bearingBefore, let after = maneuver.bearingAfter, before != 0 || after != 0 {
            let difference = abs((before - after).truncatingRemainder(dividingBy: 360))
            angle = difference > 180 ? 360 - difference : difference
        } else {
            angle = modifierAngle(maneuver.modifier)
        }
        let point = plan.points[index]
        let routed = plan.stepSpeed[plan.legOffset[point.legIndex] + point.stepIndex]
        let byAngle = timing.turnSpeed(angle: angle)
        return routed > 0 ? min(byAngle, routed) : byAngle
    }

    /// The angle of a turn by its modifier alone, degrees.
    private func modifierAngle(_ modifier: ManeuverModifier?) -> Double {
        switch modifier {
        case .uTurn?: timing.uTurnAngle
        case .sharpLeft?, .sharpRight?: timing.sharpTurnAngle
        case .left?, .right?: timing.turnAngle
        case .slightLeft?, .slightRight?: timing.slightTurnAngle
        default: 0
        }
    }

    /// How long before maneuver `index` its final prompt should end, seconds.
    func leadOf(_ index: Int) -> Double {
        stepOf(index).maneuver.type == .arrive
            ? timing.arrivalLead : timing.expectsBraking ? timing.brakingFinalLead : timing.finalLead
    }

    /// True when the maneuver after `index` (same leg) follows too soon for a final prompt of its own.
    mutating func shouldCombine(_ index: Int, speed: Double) -> Bool {
        guard index + 1 < plan.points.count else { return false }
        let point = plan.points[index]
        let next = plan.points[index + 1]
        guard next.legIndex == point.legIndex, stepOf(index).maneuver.type != .arrive else { return false }
        let gap = (next.position - point.position) / speed
        let needed = finalDuration(index + 1, .short) + leadOf(index + 1) + timing.combineReaction
        return gap < needed
    }

    /// A prompt for maneuver `index` starting at `moment` (its length measured unless `known`).
    func makePrompt(
        _ instruction: SpokenInstruction, tier: PromptTier, index: Int, at moment: Moment,
        spokenDistance: Double?, wording: Wording, fromServer: Bool, then: Bool, duration known: Double? = nil
    ) -> ScheduledPrompt {
        let point = plan.points[index]
        let duration = known ?? timing.chimeLength(before: tier) + durationOf(instruction)
        return ScheduledPrompt(
            instruction: instruction, tier: tier, legIndex: point.legIndex, stepIndex: point.stepIndex,
            spokenDistance: spokenDistance, duration: duration, time: moment.time,
            estimatedDistance: moment.distance, estimatedSpeed: moment.speed,
            predictedEndBeforeManeuver: moment.distance / moment.speed - duration - timing.outputLatency,
            wording: wording, isFromServer: fromServer, includesNextManeuver: then, priority: nil,
            distanceHeardAfter: nil)
    }

    /// Gives up maneuver `index`'s prompt of `tier`, for `reason`.
    func drop(
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
}

extension SpokenInstruction {
    /// A copy with a new identity (each time a prompt is said it is a new prompt).
    func withFreshID(_ distance: Double) -> SpokenInstruction {
        SpokenInstruction(text: text, ssml: ssml, distanceRemainingOnStep: distance)
    }
}
