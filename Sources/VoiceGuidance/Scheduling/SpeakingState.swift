/// The prompt being said, as far as the scheduler knows: started by its decisions, and ended at
/// the predicted time or earlier when the speech reports it (`speechDidFinish`).
struct SpeakingState {
    /// The prompt being said, or nil.
    private(set) var current: ScheduledPrompt?
    /// When the current prompt's speech ends (latest known), seconds.
    private(set) var busyUntil = -Double.infinity
    /// When the speech before the current prompt ended (what `withdraw` goes back to).
    private var endBeforeCurrent = -Double.infinity

    /// True while a prompt is being said at `time`.
    func isBusy(at time: Double) -> Bool { current != nil && time < busyUntil }

    /// True while a final (or arrival) prompt is being said at `time`: nothing cuts it.
    func isSayingFinal(at time: Double) -> Bool {
        guard isBusy(at: time), let current else { return false }
        return current.tier.isFinal
    }

    /// True when the speech ended at least `gap` seconds before `time`.
    func isSilent(at time: Double, for gap: Double) -> Bool { time >= busyUntil + gap }

    /// Forgets the current prompt once its speech has ended at `time`.
    mutating func forgetEnded(at time: Double) {
        if current != nil, time >= busyUntil { current = nil }
    }

    /// Takes the end of the speech reported at `time` (earlier than predicted, or cut).
    mutating func finish(at time: Double) {
        busyUntil = min(busyUntil, time)
        if time >= busyUntil { current = nil }
    }

    /// Forgets the current prompt as if it had never started: it is not said after all.
    mutating func withdraw() {
        current = nil
        busyUntil = endBeforeCurrent
    }

    /// Starts `prompt` at `time`, heard after `latency` seconds; returns the prompt it cuts, if any.
    mutating func start(_ prompt: ScheduledPrompt, at time: Double, latency: Double) -> ScheduledPrompt? {
        let interrupted = isBusy(at: time) ? current : nil
        endBeforeCurrent = min(busyUntil, time)
        current = prompt
        busyUntil = time + latency + prompt.duration
        return interrupted
    }
}
