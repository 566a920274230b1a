import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@Suite struct AudioSinkTests {
    @Test func fadeOutEndsAtZeroAndNeverGrows() {
        var samples = [Int16](repeating: 10_000, count: 100)
        Fade.applyFadeOut(to: &samples, length: samples.count)
        #expect(samples.first == 9_900)
        #expect(samples.last == 0)
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0 >= $1 })
    }

    @Test(arguments: [1, 7, 50, 220])
    func aRampAcrossPiecesEqualsOneRamp(pieceSize: Int) {
        let source = (0..<300).map { Int16(truncatingIfNeeded: $0 * 97) }
        var whole = FadeRamp(length: 220)
        let expected = whole.apply(to: source)
        var split = FadeRamp(length: 220)
        var result: [Int16] = []
        var offset = 0
        while !split.isComplete {
            result += split.apply(to: Array(source[offset..<min(offset + pieceSize, source.count)]))
            offset += pieceSize
        }
        #expect(result == expected)
        #expect(result.count == 220)
        #expect(result.last == 0)
    }

    @Test func gainClampsToTheSampleRange() {
        var samples: [Int16] = [20_000, -20_000, 100]
        PlaybackGain.apply(gain: 2, to: &samples)
        #expect(samples == [.max, .min, 200])
    }

    @Test func wavFileSinkWritesEveryPromptAtomicallyOnClose() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wavsink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("out.wav")
        let sink = WAVFileSink(url: url)
        try sink.begin(AudioFormat(sampleRate: 16_000))
        try sink.write([1, 2, 3])
        try sink.finish()
        #expect(!FileManager.default.fileExists(atPath: url.path))
        try sink.begin(AudioFormat(sampleRate: 16_000))
        try sink.write([4])
        sink.interrupt()
        #expect(throws: AudioSinkError.self) { try sink.begin(AudioFormat(sampleRate: 22_050)) }
        try sink.close()
        let contents = try WAVFile.read(from: url)
        #expect(contents.sampleRate == 16_000)
        #expect(contents.samples == [1, 2, 3, 4])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.wav"])
    }

    @Test func wavFileSinkReportsAnUnwritablePath() throws {
        let sink = WAVFileSink(url: URL(fileURLWithPath: "/nonexistent-folder/out.wav"))
        try sink.begin(AudioFormat(sampleRate: 22_050))
        try sink.write([1])
        let error = try #require(throws: AudioSinkError.self) { try sink.close() }
        #expect(error.kind == .writeFailed)
        #expect(error.message.contains("/nonexistent-folder/out.wav"))
    }

    @Test func memorySinkPacingTakesRealTime() throws {
        let sink = MemorySink(pacesToRealTime: true)
        try sink.begin(AudioFormat(sampleRate: 10_000))
        let start = ContinuousClock.now
        for _ in 0..<10 { try sink.write([Int16](repeating: 1, count: 300)) }
        #expect(sink.delay > 0 && sink.delay <= 0.071)
        try sink.finish()
        let elapsed = ContinuousClock.now - start
        // Pacing makes it take at least the audio's length (a lower bound: load cannot break it).
        #expect(elapsed >= .milliseconds(295))
    }

    @Test func writingBeforeBeginIsAnError() {
        #expect(throws: AudioSinkError.self) { try MemorySink().write([1]) }
        #expect(throws: AudioSinkError.self) { try NullSink().begin(AudioFormat(sampleRate: 0)) }
    }
}
