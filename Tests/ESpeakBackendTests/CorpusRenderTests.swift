import DriveSimulation
import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@testable import ESpeakBackend

/// The whole pipeline (parse → normalise → render) over the real fixture corpus and routes.
@Suite(.serialized)
struct CorpusRenderTests {
    let renderer: ESpeakRenderer
    init() throws { renderer = try ESpeakRenderer() }

    @Test func every573AnnouncementParsesAndRendersExceptTheBrokenOne() throws {
        let all = try TestFixtures.announcements()
        #expect(all.count == 573)
        var durations: [String: Double] = [:]
        var failures: [String] = []
        for announcement in all where durations[announcement.ssml] == nil {
            let utterance: Utterance
            do {
                utterance = try SSMLParser().parse(announcement.ssml)
            } catch {
                failures.append(announcement.ssml)
                #expect(error.location == SourceLocation(line: 1, column: 8))
                continue
            }
            let audio = try renderer.render(utterance, voice: .fallback)
            durations[announcement.ssml] = audio.duration
            #expect(audio.duration > 0.3, "\(announcement.text)")
            #expect(AudioAnalysis.leadingSilence(audio.samples, sampleRate: audio.sampleRate) < 0.001)
            #expect(audio.words.count >= utterance.plainText.split(separator: " ").count / 2)
            if announcement.ssml.contains("interpret-as=\"address\"") {
                #expect(audio.warnings.isEmpty, "\(announcement.ssml): \(audio.warnings)")
            }
        }
        #expect(durations.count == 497)
        #expect(failures.count == 1)
        #expect(failures.first?.contains("<amazon: effectname") == true)
    }

    @Test func addressNumbersAreReadAsAddressesNotAmounts() throws {
        let utterance = try SSMLParser().parse(
            #"<speak>take exit <say-as interpret-as="address">432</say-as> onto <say-as interpret-as="address">I-280</say-as></speak>"#
        )
        let explanation = try renderer.explain(utterance, voice: .fallback)
        let spoken = explanation.segments.map(\.input).joined(separator: " ")
        #expect(spoken.contains("four thirty-two"))
        #expect(spoken.contains("I two eighty"))
        #expect(!spoken.contains("hundred"))
        let ipa = explanation.segments.compactMap(\.phonemesIPA).joined(separator: " ")
        #expect(!ipa.contains("hˈʌndɹɪd"), "eSpeak's phonemes must not say hundred: \(ipa)")
    }

    @Test func expletiveIsABeepAsLongAsTheWord() throws {
        let word = try renderer.render(SSMLParser().parse("<speak>darn</speak>"), voice: .fallback)
        let beeped = try renderer.render(
            SSMLParser().parse(#"<speak><say-as interpret-as="expletive">darn</say-as></speak>"#),
            voice: .fallback)
        #expect(abs(beeped.samples.count - word.samples.count) < word.sampleRate / 50)
        // A 1 kHz tone crosses zero about 2,000 times a second; speech far fewer.
        let middle = Array(beeped.samples[(beeped.samples.count / 4)..<(beeped.samples.count * 3 / 4)])
        var crossings = 0
        for index in 1..<middle.count where (middle[index - 1] < 0) != (middle[index] < 0) { crossings += 1 }
        let rate = Double(crossings) / (Double(middle.count) / Double(beeped.sampleRate))
        #expect(abs(rate - 2_000) < 100, "zero crossings per second: \(rate)")
        #expect(beeped.samples.first == 0 || abs(Int(beeped.samples.first!)) < 200, "the beep fades in")
    }

    /// Drives with real eSpeak durations: the timing rules hold with the real renderer too.
    @Test(arguments: [
        "directions-swift_spokenInstructions.json", "navigation-ios_routeWithInstructions.json",
        "directions-swift_instructions.json",
    ])
    func drivesWithRealDurationsMeetTheTimingRules(_ file: String) async throws {
        let url = TestFixtures.directions("\(file)")
        let route = try Route.decode(from: Data(contentsOf: url))
        let book = try PhraseBook.load(
            directory: TestFixtures.packageRoot().appendingPathComponent("Voices/phrases"), language: "en")
        let lengths = RenderedLengths(renderer: renderer)
        for speed in [30.0, 50, 90, 130] {
            for server in [true, false] {
                let summary = try await DriveSimulator(
                    route: route, phrases: PhraseBuilder(book: book, units: .imperial),
                    speed: .constant(speed / 3.6),
                    usesServerInstructions: server, durationOf: { lengths.duration(of: $0) }
                ).run().summary
                let label = "\(file) at \(speed) km/h, server \(server)"
                #expect(
                    summary.late == 0 && summary.overlaps == 0 && summary.stale == 0 && summary.repeats == 0,
                    "\(label)")
                #expect(
                    Double(summary.finalInWindow) >= 0.95 * Double(summary.feasible), "\(label): \(summary)")
                #expect(summary.maxPromptsPerManeuver <= 3, "\(label)")
            }
        }
    }
}
