/// The continue tier: the depart prompt ("Head north on …"), or "Continue for …" after a maneuver.
extension TierRules {
    /// One wording a continue prompt may take.
    struct ContinueCandidate {
        var instruction: SpokenInstruction
        var wording: Wording
        var isFromServer: Bool
        /// The distance it says, if any.
        var spoken: SpokenDistance?
    }

    /// Says the depart prompt or "Continue for …" if it fits before `roomBefore`; waits (when
    /// `mayWait`) for a moment when the distance is a rounder number.
    mutating func sayContinue(
        _ index: Int, at moment: Moment, roomBefore: Double, mayWait: Bool,
        into decisions: inout [AnnouncementDecision]
    ) -> Outcome {
        let latency = timing.outputLatency
        let timeLeft = moment.distance / moment.speed
        let candidates: [ContinueCandidate]
        if plan.points[index].followsDepart {
            candidates = departCandidates(index)
        } else {
            guard let found = continueCandidates(index, at: moment, mayWait: mayWait) else { return .notYet }
            candidates = found
        }
        let chime = timing.chimeLength(before: .continue)
        for candidate in candidates {
            let instruction = candidate.instruction
            let speech = durationOf(instruction)
            let duration = chime + speech
            guard timeLeft - duration - latency >= roomBefore else { continue }
            var prompt = makePrompt(
                instruction.withFreshID(moment.distance), tier: .continue, index: index, at: moment,
                spokenDistance: candidate.spoken?.meters, wording: candidate.wording,
                fromServer: candidate.isFromServer, then: false, duration: duration)
            prompt.predictedEndBeforeManeuver = timeLeft - duration - latency
            if let spoken = candidate.spoken {
                states[index].lastSpokenDistance = spoken.meters
                prompt.distanceHeardAfter =
                    latency + chime + Self.offset(of: spoken.text, in: instruction.text, duration: speech)
            }
            states[index].continueSpoken = true
            return .spoken(prompt)
        }
        return .skipped
    }

    /// The step before maneuver `index` (the one being driven).
    private func previousStep(_ index: Int) -> RouteStep {
        let point = plan.points[index]
        return route.legs[point.legIndex].steps[point.stepIndex - 1]
    }

    /// The depart prompts, longest first: the server's (when it has one for the start), then ours.
    private func departCandidates(_ index: Int) -> [ContinueCandidate] {
        let previous = previousStep(index)
        var candidates: [ContinueCandidate] = []
        if usesServerInstructions, let server = previous.voiceInstructions.first,
            previous.voiceInstructions.count >= 2
                || server.distanceAlongGeometry >= previous.distance * timing.serverDepartMinimumShare
        {
            candidates.append(
                ContinueCandidate(
                    instruction: SpokenInstruction(text: server.announcement, ssml: server.ssmlAnnouncement),
                    wording: .long, isFromServer: true, spoken: nil))
        }
        for wording in [Wording.long, .short] {
            candidates.append(
                ContinueCandidate(
                    instruction: SpokenInstruction(text: phrases.departText(for: previous, wording: wording)),
                    wording: wording, isFromServer: false, spoken: nil))
        }
        return candidates
    }

    /// "Continue for …" in each wording, with the distance heard while it is said; nil when
    /// `mayWait` and the distance is not round enough yet.
    private func continueCandidates(_ index: Int, at moment: Moment, mayWait: Bool) -> [ContinueCandidate]? {
        let previous = previousStep(index)
        var candidates: [ContinueCandidate] = []
        for wording in Wording.allCases {
            var offset = timing.continueDistanceHeardGuess
            for pass in 0..<2 {
                let heard = moment.distance - moment.speed * (timing.outputLatency + offset)
                guard let spoken = phrases.distance(heard), spoken.meters <= states[index].lastSpokenDistance
                else { break }
                if mayWait, abs(spoken.meters - heard) / heard > timing.roundingTolerance { return nil }
                let text = phrases.continueText(on: previous, distance: spoken, wording: wording)
                let newOffset = Self.offset(
                    of: spoken.text, in: text, duration: durationOf(SpokenInstruction(text: text)))
                if abs(newOffset - offset) < timing.continueHeardTolerance || pass == 1 {
                    candidates.append(
                        ContinueCandidate(
                            instruction: SpokenInstruction(text: text), wording: wording, isFromServer: false,
                            spoken: spoken))
                    break
                }
                offset = newOffset
            }
        }
        return candidates
    }
}
