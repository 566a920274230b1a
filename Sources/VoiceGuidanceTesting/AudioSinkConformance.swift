public import VoiceGuidance

/// The rules every `AudioSink` must follow, as a check any sink can run (ALSA, a file, memory,
/// one of your own).
///
/// It plays a prompt and finishes it, plays one and interrupts it, closes, then opens again by
/// `begin`, and asks for an unusable format, then checks: each call in order succeeds, `delay`
/// is a finite number of seconds, the sink can be used again after `interrupt` and `close`, and
/// an unusable format is an `AudioSinkError` (not a crash).
public enum AudioSinkConformance {
    /// Runs the check and returns what was wrong (empty when the sink conforms).
    ///
    /// - Parameter sink: a sink that can be opened (it is closed at the end).
    public static func violations(of sink: any AudioSink, sampleRate: Int = 22_050) -> [String] {
        var problems: [String] = []
        if sink.name.isEmpty { problems.append("the sink has no name") }
        let tone = (0..<sampleRate / 10).map { Int16(truncatingIfNeeded: ($0 % 50) * 400 - 10_000) }
        func step(_ label: String, _ body: () throws -> Void) {
            do { try body() } catch { problems.append("\(label) failed: \(error)") }
        }
        let format = AudioFormat(sampleRate: sampleRate)
        step("begin") { try sink.begin(format) }
        step("write") {
            try sink.write(Array(tone[..<(tone.count / 2)]))
            try sink.write(Array(tone[(tone.count / 2)...]))
        }
        if !sink.delay.isFinite || sink.delay < 0 { problems.append("delay is \(sink.delay) s") }
        step("finish") { try sink.finish() }
        step("begin after finish") { try sink.begin(format) }
        step("write after finish") { try sink.write(tone) }
        sink.interrupt()
        step("begin after interrupt") { try sink.begin(format) }
        step("write after interrupt") { try sink.write(tone) }
        step("finish after interrupt") { try sink.finish() }
        step("close") { try sink.close() }
        step("begin after close") { try sink.begin(format) }
        step("write after close") { try sink.write(tone) }
        step("finish after close") { try sink.finish() }
        do {
            try sink.begin(AudioFormat(sampleRate: 0))
            problems.append("a 0 Hz format was accepted")
        } catch is AudioSinkError {
        } catch {
            problems.append("a 0 Hz format threw \(type(of: error)), not an AudioSinkError")
        }
        step("close at the end") { try sink.close() }
        return problems
    }
}
