/// The fixed wordings of each maneuver's final prompt and their lengths, built once when first
/// needed and kept in its `ManeuverState` until the maneuver is passed.
extension TierRules {
    /// The server's final prompt for a maneuver: the last of the previous step's instructions
    /// (unless that step departs and has only one, which then serves as the depart prompt).
    func serverFinal(_ index: Int) -> SpokenInstruction? {
        guard usesServerInstructions else { return nil }
        let point = plan.points[index]
        let previous = route.legs[point.legIndex].steps[point.stepIndex - 1]
        guard let last = previous.voiceInstructions.last else { return nil }
        if point.followsDepart && previous.voiceInstructions.count < 2 { return nil }
        return SpokenInstruction(text: last.announcement, ssml: last.ssmlAnnouncement)
    }

    /// The final prompt of maneuver `index` alone, long (the server's when there is one) and short.
    mutating func finalTexts(_ index: Int) -> ManeuverTexts {
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

    /// The final prompt of maneuver `index` with the next one ("…, then …"), long and short.
    mutating func thenTexts(_ index: Int) -> ManeuverTexts {
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

    /// The length of maneuver `index`'s own final prompt in `wording`, seconds.
    mutating func finalDuration(_ index: Int, _ wording: Wording) -> Double {
        let texts = finalTexts(index)
        return wording == .long ? texts.longDuration : texts.shortDuration
    }

    /// `durationOf`, or the estimate when it gives no usable length.
    private func safeDuration(_ instruction: SpokenInstruction) -> Double {
        let value = durationOf(instruction)
        return value.isFinite && value >= 0 ? value : timing.estimatedDuration(of: instruction)
    }
}
