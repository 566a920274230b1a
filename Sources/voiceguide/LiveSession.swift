import DriveSimulation
import Foundation
import VoiceGuidance

/// What `navigate` does with a live drive's output: each prompt heard goes into the audio track
/// at its time, prompts and events become JSON lines on stdout (flushed at once).
final class LiveSession: Sendable {
    private struct State {
        var track: DriveAudioTrack
        var end = 0.0
        var failure: (any Error)?
    }

    private let state: Locked<State>
    private let order = Locked(())
    private let json: Bool
    /// True for a sound card: a prompt is played whole from its start (it cannot wait to know
    /// whether it will be cut); false for a file, where each prompt is written as it was heard.
    private let playsAtStart: Bool

    init(track: DriveAudioTrack, json: Bool, playsAtStart: Bool) {
        state = Locked(State(track: track))
        self.json = json
        self.playsAtStart = playsAtStart
    }

    /// A prompt starts: on a sound card, it is played now, whole.
    func started(_ instruction: SpokenInstruction, at start: Double) {
        if playsAtStart { write(instruction, at: start, heardFor: nil) }
    }

    /// A prompt was heard (in full, or cut): into a file, its audio is written; it is reported.
    /// Prompts are written and reported in the same order (they can end on two threads).
    func heard(_ prompt: SimulatedSpeech.HeardPrompt) {
        order.withLock { _ in
            if !playsAtStart { write(prompt.instruction, at: prompt.start, heardFor: prompt.length) }
            if json {
                write(
                    NavigateCommand.HeardJSON(
                        timeS: prompt.start, text: prompt.instruction.text, heardS: prompt.length,
                        cut: prompt.wasCut,
                        gainDB: (prompt.instruction.delivery.speedGainDB * 100).rounded() / 100,
                        chime: prompt.instruction.delivery.chime?.rawValue))
            } else {
                say(
                    String(
                        format: "%7.1f s  %@  %+.1f dB", prompt.start, prompt.instruction.text,
                        prompt.instruction.delivery.speedGainDB))
            }
        }
    }

    /// Writes a prompt into the track for `length` seconds (nil: all of it).
    private func write(_ instruction: SpokenInstruction, at start: Double, heardFor length: Double?) {
        state.withLock { state in
            guard state.failure == nil else { return }
            do {
                try state.track.add(instruction, at: start, heardFor: length)
                state.end = max(state.end, start + (length ?? 0))
            } catch {
                state.failure = error
            }
        }
    }

    /// A route or signal event happened.
    func event(_ record: GuidedDrive.EventRecord) {
        if json {
            write(DriveJSON.Event(record))
        } else {
            say(DriveJSON.Event(record).text)
        }
    }

    /// Ends the track at `time` (or after the last prompt), closes the sink; the exit status.
    func finish(at time: Double, sink: any AudioSink) throws -> Int32 {
        let (track, end, failure) = state.withLock { ($0.track, $0.end, $0.failure) }
        if let failure {
            try? sink.close()
            throw CommandFailure("\(sink.name): \(failure)", status: ExitStatus.unavailable)
        }
        do {
            try track.finish(at: max(time, end))
            try sink.close()
        } catch {
            throw CommandFailure("\(sink.name): \(error)", status: ExitStatus.unavailable)
        }
        return ExitStatus.success
    }

    private func write(_ value: some Encodable) {
        guard let line = try? DriveJSON.line(value) else { return }
        say(line)
    }

    /// One line on stdout, at once (not buffered: a reader sees it as it happens).
    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
