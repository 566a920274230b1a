public import VoiceGuidance

/// Reads `stream` until `didSpeakCount` didSpeak events arrived (or `timeout` passed).
public func collectEvents(
    _ stream: AsyncStream<SpeechEvent>, didSpeakCount: Int, timeout: Duration = .seconds(20)
) async -> [SpeechEvent] {
    await withTaskGroup(of: [SpeechEvent]?.self) { group in
        group.addTask {
            var events: [SpeechEvent] = []
            var seen = 0
            for await event in stream {
                events.append(event)
                if case .didSpeak = event {
                    seen += 1
                    if seen == didSpeakCount { return events }
                }
            }
            return events
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first ?? []
    }
}

/// A compact spelling of an event for order checks: `will:A`, `did:A`, `did:A!cancelled`,
/// `interrupt:A>B`, `word:A:left`, `mark:A:m1`, `error:invalidSSML`.
public func label(_ event: SpeechEvent) -> String {
    switch event {
    case .willSpeak(let instruction): "will:\(instruction.text)"
    case .didSpeak(let instruction, let error):
        error.map { "did:\(instruction.text)!\($0.kind)" } ?? "did:\(instruction.text)"
    case .didInterrupt(let old, let new): "interrupt:\(old.text)>\(new?.text ?? "-")"
    case .error(let error): "error:\(error.kind)"
    case .word(let instruction, let word): "word:\(instruction.text):\(word.text)"
    case .mark(let instruction, let mark): "mark:\(instruction.text):\(mark.name)"
    }
}

/// Labels without word and mark events.
public func lifecycle(_ events: [SpeechEvent]) -> [String] {
    events.compactMap { event in
        switch event {
        case .word, .mark: nil
        default: label(event)
        }
    }
}

/// Waits (polling) until `condition` holds, or `timeout` passes; returns whether it held.
@discardableResult
public func waitUntil(timeout: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
