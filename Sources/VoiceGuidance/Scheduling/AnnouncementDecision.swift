/// What a prompt is for; it decides its timing and whether it may cut another prompt.
public enum PromptTier: String, Sendable, Hashable, Codable, CaseIterable {
    /// Early notice on fast roads: "In 2 kilometers, take the exit".
    case prepare
    /// "In 300 meters, turn left onto Main Street".
    case approach
    /// "Turn left onto Main Street": always given; never cut.
    case final
    /// "Your destination is ahead on your left": the final prompt of an arrival.
    case arrival
    /// Said after a maneuver (or at departure) when the next one is far: "Continue for 5 kilometers".
    case `continue`
    /// A prompt the app injected ("Speed camera ahead").
    case custom

    /// True for the tiers that are never cut off and may cut a lower one.
    public var isFinal: Bool { self == .final || self == .arrival }
}

/// A prompt the scheduler decided to speak now.
public struct ScheduledPrompt: Sendable, Equatable {
    /// What to say.
    public var instruction: SpokenInstruction
    /// Why it is said.
    public var tier: PromptTier
    /// Leg of the step whose maneuver the prompt announces (-1 for an app prompt).
    public var legIndex: Int
    /// Step whose maneuver (at its start) the prompt announces (-1 for an app prompt).
    public var stepIndex: Int
    /// The distance the prompt says, in meters, or nil when it says none.
    public var spokenDistance: Double?
    /// Expected length of the speech in seconds.
    public var duration: Double
    /// When the decision was made (speak now), in clock seconds.
    public var time: Double
    /// The scheduler's estimate of the distance to the maneuver at `time`.
    public var estimatedDistance: Double
    /// The scheduler's speed estimate at `time`, m/s.
    public var estimatedSpeed: Double
    /// Predicted seconds between the end of the speech and the maneuver.
    public var predictedEndBeforeManeuver: Double
    /// Long or short wording.
    public var wording: Wording
    /// True when the text is the server's `voiceInstructions` wording.
    public var isFromServer: Bool
    /// True when the prompt also announces the maneuver after ("…, then …").
    public var includesNextManeuver: Bool
    /// App priority (custom prompts only).
    public var priority: AnnouncementPriority?
    /// Seconds after the speech starts when the spoken distance is heard, if the prompt says one.
    public var distanceHeardAfter: Double?
}

/// How important an app prompt is.
public enum AnnouncementPriority: Int, Sendable, Hashable, Codable, Comparable {
    /// Waits until nothing is said and no final prompt is due.
    case normal = 0
    /// May cut off a prompt that is not a final one; never cuts a final prompt.
    case high = 1

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Why a prompt was not (or no longer) spoken.
public enum DropReason: String, Sendable, Hashable, Codable {
    /// Its window passed before it could be said in full.
    case windowPassed
    /// There was no room for it between other prompts.
    case noRoom
    /// The vehicle passed the maneuver first.
    case maneuverPassed
    /// An app prompt waited too long.
    case expired
}

/// A prompt the scheduler gave up on.
public struct DroppedPrompt: Sendable, Equatable {
    public var time: Double
    public var tier: PromptTier
    public var legIndex: Int
    public var stepIndex: Int
    public var reason: DropReason
}

/// A decision of the scheduler.
public enum AnnouncementDecision: Sendable, Equatable {
    /// Speak this now; when `interrupting` is set, cut that prompt off first (with a short fade).
    case speak(ScheduledPrompt, interrupting: ScheduledPrompt?)
    /// This prompt will not be said.
    case drop(DroppedPrompt)
}
