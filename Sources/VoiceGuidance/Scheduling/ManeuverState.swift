/// The fixed wordings of a maneuver's final prompt, with their lengths.
struct ManeuverTexts {
    var long: SpokenInstruction
    var short: SpokenInstruction
    var longDuration: Double
    var shortDuration: Double
    var longIsServer: Bool
}

/// What has been said (or given up) for one maneuver; only ever moves forward.
struct ManeuverState {
    var continueDone = false
    var continueSpoken = false
    var continueWaiting = false
    var prepareDone = false
    var approachDone = false
    var finalDone = false
    var mentionedInApproach = false
    var mentionedInFinal = false
    var lastSpokenDistance = Double.infinity
    var waitStart = Double.nan
    var texts: ManeuverTexts?
    var thenTexts: ManeuverTexts?
}
