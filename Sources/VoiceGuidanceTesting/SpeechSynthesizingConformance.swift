import Foundation
public import VoiceGuidance

/// The rules every `SpeechSynthesizing` must follow, as a check any implementation can run
/// (an app's own synthesizer, a fallback chain, the default one).
///
/// It speaks `promptCount` prompts from several tasks at once while other tasks stop and
/// interrupt, then checks the event stream: exactly one `willSpeak` and one `didSpeak` per
/// prompt, `willSpeak` first; `didInterrupt` only for a prompt between its `willSpeak` and its
/// `didSpeak`; word and mark events only inside their prompt; no prompt begins while another is
/// open; and nothing is speaking at the end.
public enum SpeechSynthesizingConformance {
    /// Runs the check and returns what was wrong (empty when the synthesizer conforms).
    ///
    /// - Parameters:
    ///   - synthesizer: a synthesizer with no willSpeak hook and not muted.
    ///   - promptCount: prompts spoken in all (plus a stop or interrupt after every third).
    ///   - tasks: how many tasks speak at once.
    ///   - timeout: how long to wait for the last `didSpeak`.
    public static func violations(
        of synthesizer: any SpeechSynthesizing, promptCount: Int = 60, tasks: Int = 4,
        timeout: Duration = .seconds(60)
    ) async -> [String] {
        let stream = synthesizer.events()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var index = task
                    while index < promptCount {
                        await synthesizer.speak(SpokenInstruction(text: "conformance prompt \(index)"))
                        if index % 3 == 1 { synthesizer.interruptSpeaking() }
                        if index % 3 == 2 { synthesizer.stopSpeaking() }
                        index += tasks
                    }
                }
            }
        }
        let events = await collectEvents(stream, didSpeakCount: promptCount, timeout: timeout)
        var problems: [String] = []
        var will: [UUID: Int] = [:]
        var did: [UUID: Int] = [:]
        var open: SpokenInstruction?
        for event in events {
            switch event {
            case .willSpeak(let instruction):
                if let open {
                    problems.append("\"\(instruction.text)\" began while \"\(open.text)\" was open")
                }
                open = instruction
                will[instruction.id, default: 0] += 1
            case .didSpeak(let instruction, _):
                if will[instruction.id] == nil {
                    problems.append("didSpeak before willSpeak: \"\(instruction.text)\"")
                }
                if open?.id == instruction.id { open = nil }
                did[instruction.id, default: 0] += 1
            case .didInterrupt(let old, _):
                if open?.id != old.id {
                    problems.append("didInterrupt for \"\(old.text)\", which was not open")
                }
            case .word(let instruction, _), .mark(let instruction, _):
                if open?.id != instruction.id {
                    problems.append("word or mark of \"\(instruction.text)\" outside it")
                }
            case .error:
                continue
            }
        }
        if will.count != promptCount {
            problems.append("\(will.count) prompts got willSpeak, not \(promptCount)")
        }
        if did.count != promptCount {
            problems.append("\(did.count) prompts got didSpeak, not \(promptCount)")
        }
        for (id, count) in will where count != 1 {
            problems.append("\(count) willSpeak for one prompt (\(id))")
        }
        for (id, count) in did where count != 1 {
            problems.append("\(count) didSpeak for one prompt (\(id))")
        }
        if synthesizer.isSpeaking { problems.append("still speaking after every speak returned") }
        return problems
    }
}
