import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@testable import ESpeakBackend

/// A route's server text in another language than the voice is spoken by that language's voice.
@Suite struct RouteLanguageTests {
    @Test func germanServerTextWithAnEnglishVoiceIsSpokenByTheGermanVoice() throws {
        let catalog = try VoiceCatalog(directory: TestFixtures.packageRoot().appendingPathComponent("Voices"))
        let english = try catalog.profile(id: "en-US")
        let voice = try RouteVoice.choose(for: "de-DE", chosen: english, catalog: catalog)
        let renderer = try ESpeakRenderer()
        let server = try SSMLParser().parse(
            #"<speak><amazon:effect name="drc">In 300 Metern links abbiegen auf Friedrichstraße</amazon:effect></speak>"#
        )
        let asIs = try renderer.renderTraced(server, voice: english) { _ in .continue }
        #expect(asIs.trace.allSatisfy { $0.settings.voiceName == "en-us" })
        let marked = try renderer.renderTraced(voice.utterance(server, fromServer: true), voice: english) {
            _ in
            .continue
        }
        #expect(!marked.trace.isEmpty)
        #expect(
            marked.trace.allSatisfy { $0.settings.voiceName.lowercased().contains("de") }, "\(marked.trace)")
        // Normalised as German too: "300" stays for eSpeak's German number reading.
        #expect(marked.calls.joined().contains("Metern"))
        // Our own prompts stay with the English voice.
        let ours = try renderer.renderTraced(
            voice.utterance(Utterance(text: "In 800 feet, turn left"), fromServer: false), voice: english
        ) { _ in .continue }
        #expect(ours.trace.allSatisfy { $0.settings.voiceName == "en-us" })
    }
}
