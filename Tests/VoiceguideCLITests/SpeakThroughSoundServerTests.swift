import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// `speak --sink pulse` against a real headless PulseAudio started by the test, with a music
/// stream playing (`paplay --property=media.role=music`) and the monitor recorded by `parec`.
@Suite(.serialized) struct SpeakThroughSoundServerTests {
    let cli: CommandRunner
    init() throws { cli = try CommandRunner() }

    static let prompt = "In 400 meters, take the second exit at the roundabout onto Station Road"

    @Test func musicIsAtLeast12dBLowerWhileThePromptPlaysAndBackWithin1s() async throws {
        let server = try PulseTestServer()
        defer { server.stop() }
        let folder = server.folder
        // The prompt as a fresh process renders it: the samples `speak` plays.
        let wav = folder.appendingPathComponent("prompt.wav")
        #expect(try cli.run(["render", "-o", wav.path, Self.prompt]).status == 0)
        let expected = try WAVFile.read(from: wav).samples

        let music = folder.appendingPathComponent("music.wav")
        try WAVFile.write(
            samples: DuckingMeasurement.tone(seconds: 30, sampleRate: server.sampleRate),
            sampleRate: server.sampleRate, to: music)
        let recording = try server.record(into: folder.appendingPathComponent("monitor.raw"))
        let player = try server.playMusic(music)
        defer { player.stop() }
        try await recording.waitForAudio(seconds: 1.5)
        let spoken = try cli.run(
            ["speak", "--sink", "pulse", "--verbose", Self.prompt], environment: server.environment)
        #expect(spoken.status == 0, "\(spoken.stderr)")
        #expect(spoken.stderr.contains("as media.role=navigation (--sink pulse)"), "\(spoken.stderr)")
        try await Task.sleep(for: .seconds(2))
        let measured = DuckingMeasurement(
            recording: recording.stop(), sampleRate: server.sampleRate, prompt: expected)
        #expect(measured.promptSimilarity > 0.9, "\(measured)")
        #expect(abs(measured.musicBefore - -12) < 1.5, "\(measured)")
        #expect(measured.musicDuringMax <= measured.musicBefore - 12, "\(measured)")
        #expect(abs(measured.musicLevel(after: 1.0) - measured.musicBefore) < 1, "\(measured)")
    }

    @Test func theDefaultIsTheSoundServerWhenOneAnswersElseALSA() throws {
        let server = try PulseTestServer()
        defer { server.stop() }
        let found = try cli.run(["speak", "--verbose", "Keep left"], environment: server.environment)
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stderr.contains("output: sound server"), "\(found.stderr)")
        #expect(found.stderr.contains("(a sound server answered)"), "\(found.stderr)")

        var alone = server.environment
        alone["PULSE_SERVER"] = "unix:" + server.folder.appendingPathComponent("no-server").path
        let fallback = try cli.run(["speak", "--verbose", "Keep left"], environment: alone)
        #expect(fallback.stderr.contains("output: ALSA device \"default\" (no sound server answered)"))
    }

    @Test func outputOptionsThatDoNotGoTogetherAreUsageErrors() throws {
        #expect(try cli.run(["speak", "--sink", "radio", "x"]).status == 64)
        #expect(try cli.run(["speak", "--sink", "wav", "x"]).status == 64)
        #expect(try cli.run(["speak", "--sink", "alsa", "--output", "/tmp/x.wav", "x"]).status == 64)
        let missing = try cli.run(
            ["speak", "--sink", "pulse", "--server", "unix:/nonexistent/native", "Keep left"])
        #expect(missing.status == 69)
        #expect(missing.stderr.contains("--sink alsa"), "\(missing.stderr)")
    }
}
