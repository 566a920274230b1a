import ESpeakBackend
import Foundation
import PulseBackend
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

let prompt = "In 300 meters, turn left onto Harbor Road, then keep right towards the airport"

/// PulseSink against a real headless PulseAudio started by each test: a null sink whose monitor
/// `parec` records, and `module-role-ducking` lowering `media.role=music` by 15 dB while a
/// `navigation` stream plays.
@Suite(.serialized) struct PulseSinkTests {
    let renderer: ESpeakRenderer
    init() throws { renderer = try ESpeakRenderer() }

    /// Plays a 15 kHz "music" tone, speaks `prompt` through a synthesizer on a PulseSink
    /// (muted or not) after `musicLead` seconds, records the monitor until `tail` seconds later.
    func speakOverMusic(
        server: PulseTestServer, sink: PulseSink, muted: Bool = false, musicLead: Double = 1.5,
        tail: Double = 2
    ) async throws -> (recording: [Int16], prompt: [Int16]) {
        let folder = server.folder
        let music = folder.appendingPathComponent("music.wav")
        let seconds = musicLead + 6 + tail + 1
        try WAVFile.write(
            samples: DuckingMeasurement.tone(seconds: seconds, sampleRate: server.sampleRate),
            sampleRate: server.sampleRate, to: music)
        let recording = try server.record(into: folder.appendingPathComponent("monitor.raw"))
        let player = try server.playMusic(music)
        defer { player.stop() }
        try await recording.waitForAudio(seconds: musicLead)
        let tee = TeeSink(sink)
        let synthesizer = SpeechSynthesizer(renderer: renderer, sink: tee, parseSSML: nil)
        synthesizer.isMuted = muted
        await synthesizer.speak(SpokenInstruction(text: prompt))
        try await Task.sleep(for: .seconds(tail))
        try sink.close()
        return (recording.stop(), tee.written)
    }

    @Test func musicDucksWhileThePromptPlaysAndComesBackAfter() async throws {
        let server = try PulseTestServer()
        defer { server.stop() }
        let sink = PulseSink(options: .init(server: server.address))
        let (recording, expected) = try await speakOverMusic(server: server, sink: sink)
        let measured = DuckingMeasurement(
            recording: recording, sampleRate: server.sampleRate, prompt: expected)
        // What the monitor captured is our prompt, played once.
        #expect(measured.promptSimilarity > 0.9, "\(measured)")
        #expect(sink.streamCount == 1 && sink.connectCount == 1)
        // The music: steady before, at least 12 dB lower throughout the prompt, back within 1 s.
        #expect(abs(measured.musicBefore - -12) < 1.5, "\(measured)")
        #expect(measured.musicDuringMax <= measured.musicBefore - 12, "\(measured)")
        #expect(abs(measured.musicLevel(after: 1.0) - measured.musicBefore) < 1, "\(measured)")
    }

    @Test func aMutedVoiceOpensNothingAndDucksNothing() async throws {
        let server = try PulseTestServer()
        defer { server.stop() }
        let sink = PulseSink(options: .init(server: server.address))
        let (recording, _) = try await speakOverMusic(server: server, sink: sink, muted: true, tail: 5)
        #expect(sink.connectCount == 0 && sink.streamCount == 0)
        let levels = DuckingMeasurement.toneLevels(
            recording, sampleRate: server.sampleRate, frequency: DuckingMeasurement.musicFrequency)
        // From the music's start to the end of the recording, no window dips.
        let playing = levels.drop { $0 < -13.5 }.dropLast(2)
        #expect(playing.count > 40, "music heard for \(playing.count) windows")
        #expect(playing.allSatisfy { abs($0 - -12) < 1.5 }, "\(playing)")
        // Nothing but the music: the speech band holds only the clicks of streams starting
        // (a prompt would be about -20 dBFS RMS).
        let speech = DuckingMeasurement.halfRate(recording)
        #expect(AudioLevel.rmsDB(speech) < -50, "speech band \(AudioLevel.rmsDB(speech)) dBFS RMS")
    }

    @Test func theStreamCarriesRoleNameAndIconAndIsGoneAfterThePrompt() throws {
        let server = try PulseTestServer()
        defer { server.stop() }
        let sink = PulseSink(
            options: .init(
                server: server.address, role: "phone", applicationName: "Test Guidance", iconName: "car"))
        #expect(sink.outputLatency == sink.options.targetLatency, "before any prompt: the buffer asked for")
        try sink.begin(AudioFormat(sampleRate: 22_050))
        let listed = try server.runTool("pactl", ["list", "sink-inputs"]).output
        #expect(listed.contains("media.role = \"phone\""), "\(listed)")
        #expect(listed.contains("application.name = \"Test Guidance\""), "\(listed)")
        #expect(listed.contains("application.icon_name = \"car\""), "\(listed)")
        #expect(sink.isStreamOpen)
        try sink.write(DuckingMeasurement.tone(frequency: 440, seconds: 0.2, sampleRate: 22_050))
        try sink.finish()
        #expect(!sink.isStreamOpen)
        let after = try server.runTool("pactl", ["list", "short", "sink-inputs"]).output
        #expect(after.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(after)")
        // The latency planned with is what the server reported while the prompt played.
        #expect(sink.outputLatency > 0.005 && sink.outputLatency < 0.5, "\(sink.outputLatency) s")
        // The next prompt opens a new stream on the same connection.
        try sink.begin(AudioFormat(sampleRate: 22_050))
        try sink.finish()
        #expect(sink.streamCount == 2 && sink.connectCount == 1)
        try sink.close()
    }

    @Test func serverThatGoesAwayIsAnErrorThenAReconnect() throws {
        var server = try PulseTestServer()
        let sink = PulseSink(options: .init(server: server.address, timeout: 1))
        try sink.begin(AudioFormat(sampleRate: 22_050))
        server.stop()
        let tone = DuckingMeasurement.tone(frequency: 440, seconds: 0.5, sampleRate: 22_050)
        #expect(throws: AudioSinkError.self) {
            try sink.write(tone)
            try sink.write(tone)
            try sink.finish()
        }
        #expect(sink.lastError != nil)
        #expect(throws: AudioSinkError.self) { try sink.begin(AudioFormat(sampleRate: 22_050)) }
        server = try PulseTestServer()
        defer { server.stop() }
        let again = PulseSink(options: .init(server: server.address))
        try again.begin(AudioFormat(sampleRate: 22_050))
        try again.finish()
        #expect(again.connectCount == 1)
    }

    @Test func probingFindsTheServerAndNothingAtAMissingSocket() throws {
        let server = try PulseTestServer()
        defer { server.stop() }
        #expect(PulseSink.serverAnswers(server: server.address))
        let missing = "unix:" + server.folder.appendingPathComponent("nothing-here").path
        #expect(!PulseSink.serverAnswers(server: missing))
        let sink = PulseSink(options: .init(server: missing))
        let error = #expect(throws: AudioSinkError.self) { try sink.begin(AudioFormat(sampleRate: 22_050)) }
        #expect(error?.kind == .unavailable)
        #expect(error?.message.contains("Connection refused") == true, "\(String(describing: error))")
        #expect(sink.lastError?.operation == "pa_context_connect")
    }
}

/// Passes everything to a sink and keeps a copy of the samples written: what the synthesizer
/// handed to the server, to find in what the server's monitor recorded.
final class TeeSink: AudioSink {
    let sink: any AudioSink
    private let copy = Locked<[Int16]>([])
    init(_ sink: any AudioSink) { self.sink = sink }

    /// Every sample written so far.
    var written: [Int16] { copy.withLock { $0 } }
    var name: String { sink.name }
    func begin(_ format: AudioFormat) throws { try sink.begin(format) }
    func write(_ samples: [Int16]) throws {
        try sink.write(samples)
        copy.withLock { $0 += samples }
    }
    func finish() throws { try sink.finish() }
    func interrupt() { sink.interrupt() }
    var delay: Double { sink.delay }
    func close() throws { try sink.close() }
}
