/// The app prompts ("Speed camera ahead") waiting to be said, oldest first.
///
/// A `.high` prompt may cut any prompt but a final one; a `.normal` one waits for silence and the
/// gap after it. A prompt still waiting `AnnouncementTiming.customMaximumDelay` seconds after it
/// was queued is dropped. Whether it would still be heard when a final prompt is due is the
/// scheduler's check (it knows the maneuvers).
struct AppPromptQueue {
    /// One queued prompt.
    struct Item {
        var instruction: SpokenInstruction
        var priority: AnnouncementPriority
        /// When it was queued, seconds.
        var time: Double

        /// The prompt to say at `time`, `duration` seconds long, the vehicle `distance` meters
        /// before the next maneuver at `speed` m/s.
        func prompt(duration: Double, time: Double, distance: Double, speed: Double) -> ScheduledPrompt {
            ScheduledPrompt(
                instruction: instruction, tier: .custom, legIndex: -1, stepIndex: -1, spokenDistance: nil,
                duration: duration, time: time, estimatedDistance: distance, estimatedSpeed: speed,
                predictedEndBeforeManeuver: .nan, wording: .long, isFromServer: false,
                includesNextManeuver: false, priority: priority, distanceHeardAfter: nil)
        }
    }

    private var items: [Item] = []

    /// True when no prompt waits.
    var isEmpty: Bool { items.isEmpty }

    /// Queues a prompt at `time`.
    mutating func append(_ instruction: SpokenInstruction, priority: AnnouncementPriority, at time: Double) {
        items.append(Item(instruction: instruction, priority: priority, time: time))
    }

    /// Drops the prompts queued more than `maximumDelay` seconds before `time`, each with a
    /// `.expired` decision.
    mutating func dropExpired(
        at time: Double, maximumDelay: Double, into decisions: inout [AnnouncementDecision]
    ) {
        var index = 0
        while index < items.count {
            guard time - items[index].time > maximumDelay else {
                index += 1
                continue
            }
            items.remove(at: index)
            decisions.append(
                .drop(DroppedPrompt(time: time, tier: .custom, legIndex: -1, stepIndex: -1, reason: .expired))
            )
        }
    }

    /// The first prompt, if the speech lets it start at `time` (see the type's summary).
    func next(at time: Double, speaking: SpeakingState, minimumGap: Double) -> Item? {
        guard let item = items.first else { return nil }
        if speaking.isBusy(at: time) {
            if speaking.isSayingFinal(at: time) || item.priority == .normal { return nil }
        } else if !speaking.isSilent(at: time, for: minimumGap) {
            return nil
        }
        return item
    }

    /// Removes the first prompt (it is being said).
    mutating func removeFirst() {
        items.removeFirst()
    }
}
