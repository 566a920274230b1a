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
