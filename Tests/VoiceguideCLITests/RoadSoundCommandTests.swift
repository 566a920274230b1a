import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// `drive` in a car: each prompt louder with the speed it starts at (printed per prompt), and
/// chimes before the tiers asked for, heard in the WAV it writes.
@Suite(.serialized) struct RoadSoundCommandTests {
    let cli: CommandRunner
    init() throws { cli = try CommandRunner() }

    var example: String {
        TestFixtures.packageRoot().appendingPathComponent("Examples/routes/airport-cargo.json").path
    }

    /// A drive's JSON prompt lines and the WAV it wrote.
    struct Drive {
        var prompts: [[String: Any]]
        var wav: WAVFile.Contents
    }

    func drive(_ options: [String], in folder: URL) throws -> Drive {
        let output = folder.appendingPathComponent("drive-\(UUID().uuidString).wav")
        let result = try cli.run(["drive", example, "--json", "--output", output.path] + options)
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        return Drive(
            prompts: objects.filter { $0["event"] as? String == "prompt" },
            wav: try WAVFile.read(from: output))
    }

    /// The highest sample the renderer's limiter lets out (−0.3 dBFS).
    static let ceiling = Int((32_767 * Decibels.amplitude(fromDB: -0.3)).rounded(.up))

    @Test func driveAppliesAndPrintsTheGainForTheSpeedOfEachPrompt() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let slow = try drive(["--speed", "30km/h"], in: folder)
        let fast = try drive(["--speed", "120km/h"], in: folder)
        #expect(slow.prompts.count >= 8 && fast.prompts.count >= 8)
        #expect(slow.prompts.allSatisfy { $0["gain_db"] as? Double == 0 }, "0 dB up to 50 km/h")
        #expect(fast.prompts.allSatisfy { $0["gain_db"] as? Double == 6 }, "+6 dB from 110 km/h")
        let rate = fast.wav.sampleRate
        let louder =
            IntegratedLoudness.lufs(fast.wav.samples, sampleRate: rate)
            - IntegratedLoudness.lufs(slow.wav.samples, sampleRate: rate)
        print(String(format: "DRIVE GAIN: the 120 km/h drive is %+.2f LU over the 30 km/h one", louder))
        #expect(louder >= 5 && louder <= 7, "\(louder) LU")
        #expect(AudioLevel.peak(fast.wav.samples) <= Self.ceiling, "no clipping")

        let table = try cli.run(["drive", example, "--speed", "80km/h"])
        #expect(table.status == 0)
        #expect(table.stdout.contains("GAIN") && table.stdout.contains("+3.0dB"), "\(table.stdout)")
    }

    /// The share of the power of `samples` at `frequency` (Goertzel): near 1 for a tone.
    static func toneShare(_ samples: ArraySlice<Int16>, frequency: Double, sampleRate: Int) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / Double(sampleRate))
        var (previous, beforePrevious, energy) = (0.0, 0.0, 0.0)
        for sample in samples {
            let value = Double(sample) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = value
            energy += Double(sample) * Double(sample)
        }
        let power =
            previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        return energy > 0 ? 2 * power / (Double(samples.count) * energy) : 0
    }

    @Test func aChimeComesBeforeFinalPromptsOnlyClickFreeAtTheVoiceLoudness() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let drive = try drive(["--speed", "90km/h", "--chime", "final"], in: folder)
        let samples = drive.wav.samples
        let rate = drive.wav.sampleRate
        let chimeLength = Chime.samples(.prompt, sampleRate: rate, gap: 0).count
        var chimes: [Int16] = []
        var speech: [Double] = []
        var finals = 0
        for prompt in drive.prompts {
            let tier = prompt["tier"] as? String ?? ""
            let start = Int((prompt["time_s"] as? Double ?? 0) * Double(rate))
            let end = min(samples.count, start + Int((prompt["duration_s"] as? Double ?? 0) * Double(rate)))
            let first = samples[(start + rate / 200)..<(start + rate / 200 + rate / 10)]
            let share = Self.toneShare(first, frequency: 1_318.5, sampleRate: rate)
            if tier == "final" || tier == "arrival" {
                finals += 1
                #expect(prompt["chime"] as? String == "prompt")
                #expect(share > 0.8, "\(tier) at \(start): E6 share \(share)")
                let second = samples[(start + rate * 13 / 100)..<(start + rate * 23 / 100)]
                #expect(Self.toneShare(second, frequency: 1_760, sampleRate: rate) > 0.8, "then A6")
                // Click-free: the chime starts from silence and ends at zero, into its gap.
                let onset = samples[max(0, start - 20)..<(start + 3)]
                #expect(onset.allSatisfy { abs(Int($0)) < 600 }, "\(Array(onset))")
                let release = samples[(start + chimeLength - 3)..<(start + chimeLength + 20)]
                #expect(release.allSatisfy { abs(Int($0)) < 600 }, "\(Array(release))")
                chimes += samples[start..<(start + chimeLength)]
                speech += IntegratedLoudness.blockPowers(
                    samples[(start + Chime.samples(.prompt, sampleRate: rate).count)..<end], sampleRate: rate)
            } else {
                #expect(prompt["chime"] is NSNull, "\(tier): no chime")
                #expect(share < 0.3, "\(tier) at \(start): E6 share \(share)")
            }
        }
        #expect(finals >= 6)
        let chimeLoudness = IntegratedLoudness.lufs(chimes, sampleRate: rate)
        let voiceLoudness = IntegratedLoudness.lufs(blocks: speech)
        print(
            String(
                format: "CHIME at 90 km/h: %.2f LUFS, the finals' speech %.2f LUFS", chimeLoudness,
                voiceLoudness))
        #expect(abs(chimeLoudness - voiceLoudness) <= 1, "\(chimeLoudness) against \(voiceLoudness)")
    }

    @Test func badChimeOptionsAreUsageErrors() throws {
        let tiers = try cli.run(["drive", example, "--chime", "loud"])
        #expect(tiers.status == 64 && tiers.stderr.contains("--chime must be final, all or none"))
        let reroute = try cli.run(["drive", example, "--reroute-chime", "maybe"])
        #expect(reroute.status == 64 && reroute.stderr.contains("--reroute-chime must be on or off"))
    }
}
