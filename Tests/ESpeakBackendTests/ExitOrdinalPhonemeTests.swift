import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@testable import ESpeakBackend

/// Roundabout exits past the phrase book's tenth are said as ordinals in every language: the
/// words the phrase builder writes, and the IPA eSpeak NG 1.51 makes of them (recorded once and
/// reviewed by reading it: "the eleventh exit", never "eleven exit" as "the 11. exit" was read).
/// Serialized: eSpeak is one process-wide engine.
@Suite(.serialized)
struct ExitOrdinalPhonemeTests {
    let renderer: ESpeakRenderer

    init() throws {
        renderer = try ESpeakRenderer()
    }

    static func phrase(_ language: String, exit: Int) throws -> String {
        let folder = TestFixtures.packageRoot().appendingPathComponent("Voices/phrases", isDirectory: true)
        let builder = PhraseBuilder(
            book: try PhraseBook.load(directory: folder, language: language), units: .metric)
        let step = RouteStep(maneuver: Maneuver(type: .roundabout, exit: exit), distance: 100, duration: 10)
        return builder.finalText(for: step, wording: .short)
    }

    @Test(arguments: [
        (
            "en", 11, "At the roundabout, take the eleventh exit",
            "æt ðə ɹˈaʊndɐbˌaʊt tˈeɪk ðɪ ᵻlˈɛvənθ ˈɛɡzɪt"
        ),
        (
            "en", 12, "At the roundabout, take the twelfth exit",
            "æt ðə ɹˈaʊndɐbˌaʊt tˈeɪk ðə twˈɛlfθ ˈɛɡzɪt"
        ),
        (
            "en", 21, "At the roundabout, take the twenty-first exit",
            "æt ðə ɹˈaʊndɐbˌaʊt tˈeɪk ðə twˈɛntifˈɜːst ˈɛɡzɪt"
        ),
        (
            "en", 100, "At the roundabout, take the one hundredth exit",
            "æt ðə ɹˈaʊndɐbˌaʊt tˈeɪk ðə wˈʌn hˈʌndɹədθ ˈɛɡzɪt"
        ),
        (
            "en", 101, "At the roundabout, take the one hundred first exit",
            "æt ðə ɹˈaʊndɐbˌaʊt tˈeɪk ðə wˈʌn hˈʌndɹɪd fˈɜːst ˈɛɡzɪt"
        ),
        (
            "fr", 11, "Au rond-point, prenez la onzième sortie",
            "o ʁˈɔ̃pwˈɛ̃ pʁənˈe la- ɔ̃zjˈɛm sɔʁtˈi"
        ),
        (
            "fr", 12, "Au rond-point, prenez la douzième sortie",
            "o ʁˈɔ̃pwˈɛ̃ pʁənˈe la- duzjˈɛm sɔʁtˈi"
        ),
        (
            "fr", 21, "Au rond-point, prenez la vingt et unième sortie",
            "o ʁˈɔ̃pwˈɛ̃ pʁənˈe la- vˈɛ̃t e ynjˈɛm sɔʁtˈi"
        ),
        (
            "fr", 100, "Au rond-point, prenez la centième sortie",
            "o ʁˈɔ̃pwˈɛ̃ pʁənˈe la- sɑ̃sjˈɛm sɔʁtˈi"
        ),
        (
            "fr", 101, "Au rond-point, prenez la cent unième sortie",
            "o ʁˈɔ̃pwˈɛ̃ pʁənˈe la- sˈɑ̃ ynjˈɛm sɔʁtˈi"
        ),
        (
            "de", 11, "Im Kreisverkehr die elfte Ausfahrt nehmen",
            "ɪm kɾˈaɪsfɜkˌeːɾ diː ˈɛlftə ˈaʊsfˌɑːɾt nˈeːmən"
        ),
        (
            "de", 12, "Im Kreisverkehr die zwölfte Ausfahrt nehmen",
            "ɪm kɾˈaɪsfɜkˌeːɾ diː tsvˈœlftə ˈaʊsfˌɑːɾt nˈeːmən"
        ),
        (
            "de", 21, "Im Kreisverkehr die einundzwanzigste Ausfahrt nehmen",
            "ɪm kɾˈaɪsfɜkˌeːɾ diː ˈaɪnˌʊnttsvˌantsɪçstə ˈaʊsfˌɑːɾt nˈeːmən"
        ),
        (
            "de", 100, "Im Kreisverkehr die hundertste Ausfahrt nehmen",
            "ɪm kɾˈaɪsfɜkˌeːɾ diː hˈʊndɜtstə ˈaʊsfˌɑːɾt nˈeːmən"
        ),
        (
            "de", 101, "Im Kreisverkehr die hundert erste Ausfahrt nehmen",
            "ɪm kɾˈaɪsfɜkˌeːɾ diː hˈʊndɜt ˈeːɾstə ˈaʊsfˌɑːɾt nˈeːmən"
        ),
        (
            "es", 11, "En la rotonda, tome la decimoprimera salida",
            "en la rotˈonda tˈome la ðˌeθimˌopɾimˈeɾa salˈiða"
        ),
        (
            "es", 12, "En la rotonda, tome la decimosegunda salida",
            "en la rotˈonda tˈome la ðˌeθimˌoseɣˈunda salˈiða"
        ),
        (
            "es", 21, "En la rotonda, tome la vigésima primera salida",
            "en la rotˈonda tˈome la βixˈesima pɾimˈeɾa salˈiða"
        ),
        (
            "es", 100, "En la rotonda, tome la centésima salida",
            "en la rotˈonda tˈome la θentˈesima salˈiða"
        ),
        (
            "es", 101, "En la rotonda, tome la centésima primera salida",
            "en la rotˈonda tˈome la θentˈesima pɾimˈeɾa salˈiða"
        ),
    ])
    func exitPastTheTenthIsSaidAsAnOrdinal(language: String, exit: Int, text: String, ipa: String) throws {
        let written = try Self.phrase(language, exit: exit)
        #expect(written == text)
        #expect(!written.unicodeScalars.contains { ("0"..."9").contains($0) })
        let voice = VoiceProfile(
            id: language, locale: language, espeakVoice: NormalizationPhonemeTests.voices[language]!)
        let normalized = TextNormalizer(language: language).normalize(text: written)
        #expect(try renderer.phonemes(for: normalized, voice: voice, ipa: true) == ipa)
    }
}
