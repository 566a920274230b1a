/// Prompts with a distance ("In 300 meters, …"): the prepare and approach tiers.
extension TierRules {
    /// One tier of prompts with a distance, at one evaluation.
    struct DistanceTier {
        var tier: PromptTier
        /// The speech should end this long before the maneuver (seconds)…
        var end: Double
        /// …and must end before this time-to-maneuver.
        var roomBefore: Double
        /// The tier's lowest distance, meters.
        var minimumDistance: Double
    }

    /// A prompt's text with the distance it says, where that distance is heard and its length.
    struct DistanceText {
        var text: String
        var spoken: SpokenDistance
        /// Meters to the maneuver when the distance is heard.
        var heard: Double
        var duration: Double
        /// Seconds into the speech when the distance is heard.
        var offset: Double
    }

    /// Tries a prompt with a distance whose speech should end `tier.end` seconds before the
    /// maneuver and must end before `tier.roomBefore`; waits (up to `roundingWait`) for a moment
    /// when the distance is a rounder number.
    mutating func tryDistancePrompt(
        _ index: Int, _ tier: DistanceTier, at moment: Moment, into decisions: inout [AnnouncementDecision]
    ) -> Outcome {
        let (latency, halfStep) = (timing.outputLatency, moment.halfStep)
        let timeLeft = moment.distance / moment.speed
        let next: RouteStep? = shouldCombine(index, speed: moment.speed) ? stepOf(index + 1) : nil
        guard var chosen = distanceText(index, tier, at: moment, then: next) else {
            drop(index, tier: tier.tier, reason: .noRoom, time: moment.time, into: &decisions)
            return .skipped
        }
        let nominal = tier.end + chosen.duration + latency + halfStep
        if timeLeft > nominal + timing.roundingEarly { return .notYet }
        let isEarly = timeLeft > nominal
        if chosen.spoken.meters > states[index].lastSpokenDistance {
            return timeLeft - 2 * halfStep - chosen.duration - latency >= tier.roomBefore ? .notYet : .skipped
        }
        var wording = Wording.long
        if timeLeft - chosen.duration - latency < tier.roomBefore {
            guard let short = shortened(chosen, index, tier, timeLeft: timeLeft, then: next) else {
                drop(index, tier: tier.tier, reason: .noRoom, time: moment.time, into: &decisions)
                return .skipped
            }
            chosen = short
            wording = .short
        }
        let error = abs(chosen.spoken.meters - chosen.heard) / chosen.heard
        if isEarly && error > timing.roundingTolerance { return .notYet }
        if error > timing.roundingTolerance {
            if states[index].waitStart.isNaN { states[index].waitStart = moment.time }
            let canWait =
                moment.time - states[index].waitStart < timing.roundingWait
                && timeLeft - 2 * halfStep - chosen.duration - latency >= tier.roomBefore
            if canWait { return .notYet }
        }
        var prompt = makePrompt(
            SpokenInstruction(text: chosen.text, distanceRemainingOnStep: moment.distance), tier: tier.tier,
            index: index, at: moment, spokenDistance: chosen.spoken.meters, wording: wording,
            fromServer: false,
            then: next != nil, duration: chosen.duration)
        prompt.predictedEndBeforeManeuver = timeLeft - chosen.duration - latency
        prompt.distanceHeardAfter = latency + chosen.offset
        states[index].lastSpokenDistance = chosen.spoken.meters
        if next != nil, index + 1 < states.count { states[index + 1].mentionedInApproach = true }
        return .spoken(prompt)
    }

    /// The long wording with the distance heard while it is said (found in two passes: where the
    /// distance falls in the text moves what it should be); nil when no distance of the tier fits.
    private func distanceText(
        _ index: Int, _ tier: DistanceTier, at moment: Moment, then next: RouteStep?
    ) -> DistanceText? {
        let step = stepOf(index)
        let chime = timing.chimeLength(before: tier.tier)
        var offset = timing.distanceHeardGuess
        var built: DistanceText?
        for _ in 0..<2 {
            let heard = moment.distance - moment.speed * (timing.outputLatency + offset)
            guard heard >= tier.minimumDistance * timing.distanceBoundSlack,
                let spoken = phrases.distance(heard)
            else { return nil }
            let text = phrases.approachText(for: step, distance: spoken, wording: .long, then: next)
            let speech = durationOf(SpokenInstruction(text: text))
            let duration = chime + speech
            let newOffset = chime + Self.offset(of: spoken.text, in: text, duration: speech)
            built = DistanceText(
                text: text, spoken: spoken, heard: heard, duration: duration, offset: newOffset)
            if abs(newOffset - offset) < timing.distanceHeardTolerance { break }
            offset = newOffset
        }
        return built
    }

    /// The short wording of `chosen`, if it ends before `tier.roomBefore`.
    private func shortened(
        _ chosen: DistanceText, _ index: Int, _ tier: DistanceTier, timeLeft: Double, then next: RouteStep?
    ) -> DistanceText? {
        let text = phrases.approachText(
            for: stepOf(index), distance: chosen.spoken, wording: .short, then: next)
        let chime = timing.chimeLength(before: tier.tier)
        let speech = durationOf(SpokenInstruction(text: text))
        let duration = chime + speech
        guard timeLeft - duration - timing.outputLatency >= tier.roomBefore else { return nil }
        var short = chosen
        short.text = text
        short.duration = duration
        short.offset = chime + Self.offset(of: chosen.spoken.text, in: text, duration: speech)
        return short
    }

    /// Seconds into the speech when `phrase` (inside `text`) is heard, by its place in the text.
    static func offset(of phrase: String, in text: String, duration: Double) -> Double {
        guard let range = text.range(of: phrase), !text.isEmpty else { return duration / 2 }
        let before = text.distance(from: text.startIndex, to: range.lowerBound)
        let length = phrase.count
        return duration * (Double(before) + Double(length) / 2) / Double(text.count)
    }
}
