import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// `speak` and `devices` through ALSA's file plugin (no sound card needed).
@Suite(.serialized) struct SpeakCommandTests {
    let cli: CommandRunner
    init() throws { cli = try CommandRunner() }

    @Test func speakPlaysThroughAFileDeviceWhatRenderWrites() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let capture = folder.appendingPathComponent("capture.raw")
        let ssml = "<speak>Turn right onto Harbor Road</speak>"
        let spoken = try cli.run(["speak", "--device", "file:'\(capture.path)',raw", ssml])
        #expect(spoken.status == 0, "\(spoken.stderr)")
        let bytes = try Data(contentsOf: capture)
        let captured = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }

        let wav = folder.appendingPathComponent("r.wav")
        #expect(try cli.run(["render", "-o", wav.path, ssml]).status == 0)
        let rendered = try WAVFile.read(from: wav).samples
        // A fresh process each time: the same samples, then at most ALSA's zero padding.
        #expect(captured.count >= rendered.count)
        #expect(Array(captured.prefix(rendered.count)) == rendered)
        #expect(captured.dropFirst(rendered.count).allSatisfy { $0 == 0 })
    }

    /// Normalisation is a stage every engine gets: a command engine (one that records its stdin,
    /// then speaks it with espeak-ng) receives "I-280" and a say-as date as the very words the
    /// linked engine speaks (`explain` lists those), in speak, render and drive alike.
    @Test(arguments: ["speak", "render"])
    func aCommandEngineReceivesTheNormalisedWords(command: String) throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = folder.appendingPathComponent("stdin.txt")
        let engine = "command:sh -c 'tee \(record.path) | espeak-ng -m --stdout'"
        let ssml =
            #"<speak>Take I-280 North. Arrive on <say-as interpret-as="date" format="mdy">12/01/2026</say-as>.</speak>"#
        let out = folder.appendingPathComponent("out.wav")
        let flag = command == "speak" ? "--output" : "-o"
        let result = try cli.run([command, "--engine", engine, flag, out.path, ssml])
        #expect(result.status == 0, "\(result.stderr)")
        let received = try String(contentsOf: record, encoding: .utf8)
        let explained = try cli.run(["explain", "--json", ssml])
        let calls = try #require(
            (try JSONSerialization.jsonObject(with: Data(explained.stdout.utf8)) as? [String: Any])?[
                "espeak_calls"]
                as? [String])
        func words(_ text: String) -> [String] {
            text.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
                .split(whereSeparator: { $0.isWhitespace || $0 == "." || $0 == "," }).map(String.init)
        }
        #expect(words(received) == words(calls.joined(separator: " ")))
        #expect(words(received).contains("eighty") && words(received).contains("December"))
        #expect(!received.contains("280") && !received.contains("12/01"))
        #expect(try WAVFile.read(from: out).duration > 1)
    }

    @Test func speakToAFileWritesTheSameAudio() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("spoken.wav")
        let result = try cli.run(["speak", "--output", out.path, "--volume", "-6", "Keep left"])
        #expect(result.status == 0, "\(result.stderr)")
        let quieter = try WAVFile.read(from: out)
        let wav = folder.appendingPathComponent("plain.wav")
        #expect(try cli.run(["render", "-o", wav.path, "Keep left"]).status == 0)
        let plain = try WAVFile.read(from: wav)
        #expect(abs(quieter.samples.count - plain.samples.count) < plain.sampleRate / 50)
        let drop = AudioLevel.rmsDB(plain.samples) - AudioLevel.rmsDB(quieter.samples)
        #expect(abs(drop - 6) < 1, "volume fell by \(drop) dB")
    }

    @Test func missingDeviceIsNamedWithWhatToTry() throws {
        let result = try cli.run(["speak", "--device", "nosuchdevice", "Turn left"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("nosuchdevice"))
        #expect(result.stderr.contains("--device") && result.stderr.contains("--output"))
        #expect(!result.stderr.contains("ALSA lib"), "ALSA's own messages are silenced")
    }

    @Test func commandEngineSpeaksThroughEspeakNG() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("c.wav")
        let result = try cli.run([
            "speak", "--engine", "command:espeak-ng -m --stdout", "--output", out.path,
            "<speak>Turn <break time=\"500ms\"/> left</speak>",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let audio = try WAVFile.read(from: out)
        #expect(audio.duration > 0.8 && audio.duration < 3)
    }

    @Test func devicesListsOutputsAndChecksOne() throws {
        let listed = try cli.run(["devices", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let devices = try #require(
            try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(devices.contains { $0["name"] as? String == "null" })
        #expect(devices.allSatisfy { ($0["description"] as? String)?.isEmpty == false })
        #expect(try cli.run(["devices", "--check", "--device", "null"]).status == 0)
        #expect(try cli.run(["devices", "--check", "--device", "nosuchdevice"]).status == 69)
    }
}
