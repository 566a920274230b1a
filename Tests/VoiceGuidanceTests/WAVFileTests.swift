import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@Suite struct WAVFileTests {
    @Test func roundTripKeepsSamplesAndRate() throws {
        let samples: [Int16] = [0, 1, -1, .max, .min, 1234, -4321]
        let data = WAVFile.encode(samples: samples, sampleRate: 22_050)
        #expect(data.count == 44 + samples.count * 2)
        let decoded = try WAVFile.decode(data)
        #expect(decoded.sampleRate == 22_050)
        #expect(decoded.channels == 1)
        #expect(decoded.samples == samples)
    }

    @Test func headerFieldsAreRIFFPCM() {
        let data = [UInt8](WAVFile.encode(samples: [1, 2, 3], sampleRate: 16_000))
        #expect(String(decoding: data[0..<4], as: UTF8.self) == "RIFF")
        #expect(String(decoding: data[8..<16], as: UTF8.self) == "WAVEfmt ")
        #expect(data[20] == 1)  // PCM
        #expect(data[34] == 16)  // bits per sample
        #expect(Int(data[40]) == 6)  // data bytes
    }

    /// The streaming sink writes RIFF up to its limit and RF64 (with `ds64`) past it; both read
    /// back as the samples written, in pieces, across prompts.
    @Test(arguments: [UInt64(1 << 20), 100])
    func streamingSinkWritesRIFFOrRF64(riffLimit: UInt64) throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("drive.wav")
        let sink = StreamingWAVFileSink(url: url, riffLimit: riffLimit)
        let samples = (0..<1_000).map { Int16(truncatingIfNeeded: $0 * 37) }
        try sink.begin(AudioFormat(sampleRate: 22_050))
        try sink.write(Array(samples[..<300]))
        try sink.finish()
        #expect(!FileManager.default.fileExists(atPath: url.path), "the file appears only on close")
        try sink.begin(AudioFormat(sampleRate: 22_050))
        try sink.write(Array(samples[300...]))
        try sink.finish()
        try sink.close()
        let bytes = try Data(contentsOf: url)
        let isRF64 = riffLimit < 2_000
        #expect(String(decoding: bytes[0..<4], as: UTF8.self) == (isRF64 ? "RF64" : "RIFF"))
        #expect(String(decoding: bytes[12..<16], as: UTF8.self) == (isRF64 ? "ds64" : "JUNK"))
        #expect(bytes.count == 80 + 2_000)
        let decoded = try WAVFile.decode(bytes)
        #expect(decoded.sampleRate == 22_050)
        #expect(decoded.samples == samples)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(leftovers == ["drive.wav"])
    }

    @Test func atomicWriteLeavesNoTemporaryFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("a.wav")
        try WAVFile.write(samples: [5, 6, 7], sampleRate: 8_000, to: url)
        try WAVFile.write(samples: [8, 9], sampleRate: 8_000, to: url)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a.wav"])
        #expect(try WAVFile.read(from: url).samples == [8, 9])
    }

    @Test func writeIntoMissingFolderFailsAndKeepsNothing() {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/a.wav")
        #expect(throws: WAVError.self) { try WAVFile.write(samples: [1], sampleRate: 8_000, to: url) }
    }

    @Test(arguments: [
        Data(), Data("RIFF....WAVE".utf8), Data("not a wav file at all, just words".utf8),
    ])
    func garbageIsRejected(_ data: Data) {
        #expect(throws: WAVError.self) { try WAVFile.decode(data) }
    }
}

@Suite struct TestFixturesTests {
    @Test func corpusHolds573Announcements() throws {
        let all = try TestFixtures.announcements()
        #expect(all.count == 573)
        #expect(Set(all.map(\.ssml)).count == 498)
    }
}
