import Foundation
import Testing
import VoiceGuidanceTesting

@testable import VoiceGuidance

/// The route's `voiceLocale` picks the voice, its units and phrase book; no prompt is spoken by
/// a voice of another language.
@Suite struct RouteVoiceTests {
    let catalog: VoiceCatalog
    init() throws {
        catalog = try VoiceCatalog(directory: TestFixtures.packageRoot().appendingPathComponent("Voices"))
    }

    /// One route of each of our languages: the corpus's English one and our own three.
    static let routes: [(file: String, locale: String, units: UnitSystem)] = [
        ("directions/navigation-ios_waypoint-after-turn.json", "en-US", .imperial),
        ("routes/voiceguide_fr-route.json", "fr-FR", .metric),
        ("routes/voiceguide_de-route.json", "de-DE", .metric),
        ("routes/voiceguide_es-route.json", "es-ES", .metric),
    ]

    @Test(arguments: routes.indices)
    func routeLocalePicksTheProfileItsUnitsAndPhraseBook(_ index: Int) throws {
        let (file, locale, units) = Self.routes[index]
        let route = try Route.decode(
            from: Data(contentsOf: TestFixtures.folder().appendingPathComponent(file)))
        #expect(route.voiceLocale == locale)
        let voice = try RouteVoice.choose(for: route.voiceLocale, catalog: catalog)
        #expect(voice.profile.locale == locale)
        #expect(voice.profile.units == units)
        #expect(voice.profile.phrases == String(locale.prefix(2)))
        #expect(voice.serverLanguage == nil)
        #expect(voice.warnings.isEmpty)
        let utterance = Utterance(text: "Turn left")
        #expect(voice.utterance(utterance, fromServer: true) == utterance)
        #expect(voice.utterance(utterance, fromServer: false) == utterance)
    }

    @Test func noLocaleIsTheDefaultVoice() throws {
        let voice = try RouteVoice.choose(for: nil, catalog: catalog)
        #expect(voice.profile.id == "en-US" && voice.warnings.isEmpty)
        #expect(try RouteVoice.choose(for: " ", catalog: catalog).profile.id == "en-US")
    }

    @Test func localeIsMatchedWhateverItsSpelling() throws {
        #expect(try RouteVoice.choose(for: "de_de", catalog: catalog).profile.id == "de-DE")
        #expect(try RouteVoice.choose(for: "EN-gb", catalog: catalog).profile.id == "en-GB")
    }

    @Test func serverTextInAnotherLanguageGetsThatLanguageWithAWarning() throws {
        let english = try catalog.profile(id: "en-US")
        let voice = try RouteVoice.choose(for: "de-DE", chosen: english, catalog: catalog)
        #expect(voice.profile == english)
        #expect(voice.serverLanguage == "de-DE")
        #expect(voice.warnings.count == 1 && voice.warnings[0].contains("de-DE"))
        let server = Utterance(segments: [
            .text(TextSegment(text: "In 300 Metern links abbiegen")),
            .pause(.seconds(0.2)),
            .text(TextSegment(text: "Main Street", language: "en-US")),
        ])
        let marked = voice.utterance(server, fromServer: true)
        #expect(marked.language == "de-DE")
        let languages = marked.segments.compactMap { segment -> String? in
            if case .text(let text) = segment { text.language } else { nil }
        }
        // Text the markup put in a language keeps it.
        #expect(languages == ["de-DE", "en-US"])
        // Our own prompts are in the voice's language: left alone.
        #expect(voice.utterance(server, fromServer: false) == server)
    }

    @Test func localeWithoutAProfileFallsBackToESpeaksVoiceForTheLanguage() throws {
        let canadian = try RouteVoice.choose(for: "fr-CA", catalog: catalog)
        #expect(canadian.profile.espeakVoice == "fr" && canadian.profile.locale == "fr-CA")
        #expect(canadian.profile.phrases == "fr" && canadian.profile.units == .metric)
        #expect(canadian.serverLanguage == nil)
        #expect(canadian.warnings.count == 1 && canadian.warnings[0].contains("no voice profile for fr-CA"))
        let australian = try RouteVoice.choose(for: "en-AU", catalog: catalog)
        #expect(australian.profile.espeakVoice == "en" && australian.profile.units == .metric)
        #expect(try RouteVoice.choose(for: "en-LR", catalog: catalog).profile.units == .imperial)
    }

    @Test func languageWithoutAPhraseBookBuildsEnglishPromptsInAnEnglishVoice() throws {
        let italian = try RouteVoice.choose(for: "it-IT", catalog: catalog)
        #expect(italian.profile.espeakVoice == "it" && italian.profile.phrases == "en")
        #expect(italian.warnings.count == 2)
        let ours = italian.utterance(Utterance(text: "In 250 meters, turn left"), fromServer: false)
        #expect(ours.language == "en")
        let server = Utterance(text: "Tra 250 metri, svoltare a sinistra")
        #expect(italian.utterance(server, fromServer: true) == server)
    }
}
