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
    private let json: Bool

    init(track: DriveAudioTrack, json: Bool) {
        state = Locked(State(track: track))
        self.json = json
    }

    /// A prompt was heard (in full, or cut): its audio is written, and reported.
    func heard(_ prompt: SimulatedSpeech.HeardPrompt) {
        state.withLock { state in
            guard state.failure == nil else { return }
            do {
                try state.track.add(prompt.instruction, at: prompt.start, heardFor: prompt.length)
                state.end = max(state.end, prompt.start + prompt.length)
            } catch {
                state.failure = error
            }
        }
        if json {
            write(
                NavigateCommand.HeardJSON(
                    timeS: prompt.start, text: prompt.instruction.text, heardS: prompt.length,
                    cut: prompt.wasCut))
        } else {
            say(String(format: "%7.1f s  %@", prompt.start, prompt.instruction.text))
        }
    }

    /// A route or signal event happened.
    func event(_ record: GuidedDrive.EventRecord) {
        if json {
            write(DriveJSON.Event(name: record.event.rawValue, timeS: record.timeS))
        } else {
            say(String(format: "%7.1f s  [%@]", record.timeS, record.event.rawValue))
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
