import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@Suite struct PromptFileSinkTests {
    @Test func eachPromptIsAFileOfItsOwnInOrder() throws {
        let folder = try CommandRunner.temporaryFolder().appendingPathComponent("prompts")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let sink = try PromptFileSink(folder: folder)
        try sink.begin(AudioFormat(sampleRate: 22_050))
        try sink.write([Int16](repeating: 1_000, count: 2_205))
        try sink.write([Int16](repeating: 1_000, count: 2_205))
        try sink.finish()
        try sink.begin(AudioFormat(sampleRate: 16_000))
        try sink.write([Int16](repeating: -500, count: 800))
        sink.interrupt()
        #expect(sink.fileCount == 2)
        let first = try WAVFile.read(from: folder.appendingPathComponent("0001.wav"))
        #expect(first.sampleRate == 22_050)
        #expect(first.samples.count == 4_410)
        let second = try WAVFile.read(from: folder.appendingPathComponent("0002.wav"))
        #expect(second.sampleRate == 16_000)
        #expect(second.samples == [Int16](repeating: -500, count: 800))
        #expect(throws: AudioSinkError.self) { try sink.write([1]) }
    }

    @Test func aFolderThatCannotBeMadeIsAnError() throws {
        #expect(throws: AudioSinkError.self) {
            try PromptFileSink(folder: URL(fileURLWithPath: "/dev/null/prompts"))
        }
    }
}
