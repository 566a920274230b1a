import Foundation
import Testing
import VoiceGuidance

@testable import ESpeakBackend

/// What libespeak-ng 1.51 reads freed memory on (measured by Tools/espeak-scan under valgrind)
/// never reaches it, and a voice that faults on ordinary text is never selected.
struct ESpeakUnsafeCharactersTests {
    /// The voices of the profiles (Voices/*.json), as eSpeak names them.
    static let profileVoices = ["en-us", "gmw/en", "fr", "de", "es"]

    @Test func aVoiceNameGivesItsLanguage() {
        #expect(ESpeakUnsafeCharacters.language(ofVoice: "gmw/en-US+f3") == "en")
        #expect(ESpeakUnsafeCharacters.language(ofVoice: "en-us") == "en")
        #expect(ESpeakUnsafeCharacters.language(ofVoice: "roa/es-419") == "es")
        #expect(ESpeakUnsafeCharacters.language(ofVoice: "ccs/ka+m3") == "ka")
        #expect(ESpeakUnsafeCharacters.language(ofVoice: "de") == "de")
    }

    @Test func everyProfileVoiceWasScanned() {
        for voice in Self.profileVoices {
            #expect(
                ESpeakUnsafeCharacters.scanned[ESpeakUnsafeCharacters.language(ofVoice: voice)] != nil,
                "\(voice)")
        }
    }

    @Test func tablesAreSortedAndDisjoint() {
        for (language, ranges) in ESpeakUnsafeCharacters.scanned {
            #expect(!ranges.isEmpty, "\(language)")
            #expect(
                zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound }, "\(language)")
        }
        let union = ESpeakUnsafeCharacters.union
        #expect(zip(union, union.dropFirst()).allSatisfy { $0.upperBound + 1 < $1.lowerBound })
    }

    /// The binary search agrees with a plain scan of the ranges at every code point they touch.
    @Test func lookupAgreesWithAScan() {
        let ranges = ESpeakUnsafeCharacters.union
        let edges = ranges.flatMap { [$0.lowerBound - 1, $0.lowerBound, $0.upperBound, $0.upperBound + 1] }
        for value in edges + [0, 0x41, 0x10FFFF] {
            #expect(
                ESpeakUnsafeCharacters.contains(value, ranges) == ranges.contains { $0.contains(value) },
                "U+\(String(value, radix: 16))")
        }
    }

    /// Faults the scan found: the Greek symbols (the fuzz target's first find), a Bengali digit
    /// with Spanish, a Georgian letter alone.
    @Test func whatAVoiceFaultsOnIsTakenOut() {
        #expect(ESpeakLimits.withSafeCharacters("..ϱςP=", voice: "es") == "..ρςP=")
        #expect(ESpeakLimits.withSafeCharacters("\u{9EB} km", voice: "es") == "  km")
        #expect(ESpeakLimits.withSafeCharacters("ქ", voice: "es") == " ")
        // Unassigned code points, with every voice.
        for voice in Self.profileVoices + ["ccs/ka", "gmw/sv"] {
            #expect(ESpeakLimits.withSafeCharacters("a\u{58C}b\u{378}", voice: voice) == "a b ", "\(voice)")
        }
    }

    /// Characters Unicode assigned after 14.0 (Python's tables, which the first scans went by)
    /// were scanned too: U+0CDC KANNADA ARCHAIC SHRII (17.0) faults with every profile voice,
    /// en-us included, whose table had only its neighbour U+0CDD; U+0CF3 (15.0) likewise.
    @Test func charactersOfNewerUnicodeVersionsWereScanned() {
        #expect(ESpeakUnsafeCharacters.scannedUnicodeVersion >= (17, 0))
        for voice in Self.profileVoices {
            #expect(ESpeakLimits.withSafeCharacters("a\u{CDC}b\u{CF3}c", voice: voice) == "a b c", "\(voice)")
        }
    }

    /// A character assigned after the scanned version (a newer toolchain's tables) is never
    /// handed to eSpeak, whatever the voice; one of that version is judged by the tables.
    @Test func charactersNewerThanTheScanAreTakenOut() {
        let rule = ESpeakUnsafeCharacters.Rule(unsafe: [], scannedVersion: (14, 0))
        #expect(rule.isUnsafe("\u{CDC}"))  // Unicode 17.0
        #expect(rule.isUnsafe("\u{CF3}"))  // Unicode 15.0
        #expect(rule.isUnsafe("\u{378}"))  // unassigned
        #expect(!rule.isUnsafe("\u{CDD}"))  // Unicode 14.0
        #expect(!rule.isUnsafe("ಕ"))
        #expect(!rule.isUnsafe("é"))
        #expect(!ESpeakUnsafeCharacters.Rule(unsafe: [], scannedVersion: (17, 0)).isUnsafe("\u{CDC}"))
    }

    /// A voice that was not scanned is kept from what any scanned voice faults on, except its
    /// own alphabet: a Georgian voice speaks Georgian.
    @Test func aVoiceNotScannedKeepsItsOwnAlphabet() {
        let georgian = "ქუჩა თბილისი"
        #expect(ESpeakLimits.withSafeCharacters(georgian, voice: "ccs/ka") == georgian)
        #expect(ESpeakLimits.withSafeCharacters(georgian, voice: "gmw/nl").allSatisfy { $0 == " " })
        #expect(ESpeakLimits.withSafeCharacters(georgian, voice: nil).allSatisfy { $0 == " " })
    }

    /// What navigation prompts hold is never touched, in any profile voice.
    @Test func ordinaryTextIsLeftAlone() {
        let texts = [
            "Turn left onto Main Street, then in 200 meters keep right.",
            "In 2.5 km, take exit 11 toward I-95 N / A1. 50 km/h, 30 mph, 90°, 10%.",
            "Straße café Øresund Łódź ñandú Ærø αβγ Ωmega улица Ленина € £ ¥ → ★ ©",
        ]
        for voice in Self.profileVoices {
            for text in texts {
                #expect(ESpeakLimits.withSafeCharacters(text, voice: voice) == text, "\(voice): \(text)")
            }
        }
    }

    /// A voice of an alphabet of its own was scanned on it, character by character: Western
    /// Armenian reads freed memory on a lone ա (U+0561), է or Ա, which Eastern Armenian speaks
    /// clean, so hyw is kept from them and hy is not.
    @Test func aVoiceIsKeptFromWhatItFaultsOnInItsOwnAlphabet() {
        #expect(ESpeakUnsafeCharacters.ownFaults["hyw"] != nil)
        #expect(ESpeakLimits.withSafeCharacters("Երևան ա է Ա", voice: "ine/hyw") == "Երև ն      ")
        #expect(ESpeakLimits.withSafeCharacters("Երևան ա է Ա", voice: "ine/hy") == "Երևան ա է Ա")
        #expect(ESpeakLimits.withSafeCharacters("ქუჩა", voice: "ccs/ka") == "ქუჩა")
    }

    /// The first scans tested characters in groups of 32 and only a faulting group one by one;
    /// a character that faults only as the last word of a text (a lone letter spoken by its
    /// name) hid in a clean group. Scanned as sentences: en-us faults on U+10FB GEORGIAN
    /// PARAGRAPH SEPARATOR, and fr and de on the 21 Hangul syllables of a lone vowel (아 … 이),
    /// which en-us, es and Korean itself speak clean.
    @Test func charactersThatFaultOnlyAloneAreTakenOut() {
        #expect(ESpeakLimits.withSafeCharacters("x \u{10FB}", voice: "en-us") == "x  ")
        for voice in ["fr", "de"] {
            #expect(ESpeakLimits.withSafeCharacters("서울 아이", voice: voice) == "서울   ", "\(voice)")
        }
        for voice in ["en-us", "es", "ko"] {
            #expect(ESpeakLimits.withSafeCharacters("서울 아이", voice: voice) == "서울 아이", "\(voice)")
        }
    }

    /// Every voice of Debian 12's eSpeak NG spoke the survey clean; `xml:lang` or `<voice name>`
    /// never selects one nobody checked (installed later): the profile's voice speaks, with a
    /// warning.
    @Test func aVoiceNobodyCheckedIsNotSelected() throws {
        for voice in Self.profileVoices + ["art/ia", "gmq/sv", "ccs/ka", "zlw/pl"] {
            #expect(ESpeakUnsafeCharacters.isUsable(identifier: voice), "\(voice)")
        }
        #expect(!ESpeakUnsafeCharacters.isUsable(identifier: "zz/unchecked"))
        let unchecked = ESpeakVoice(name: "unchecked", languages: ["zz"], identifier: "zz/unchecked")
        let polish = ESpeakVoice(name: "Polish", languages: ["pl"], identifier: "zlw/pl")
        let resolver = ESpeakVoiceResolver(installed: [unchecked, polish])
        let profile = VoiceProfile.fallback
        for segment in [
            TextSegment(text: "exit 11", language: "zz"),
            TextSegment(text: "exit 11", voice: VoiceRequest(name: "zz/unchecked")),
        ] {
            let (name, warnings) = resolver.voiceName(for: segment, profile: profile)
            #expect(name == resolver.profileVoiceName(profile))
            #expect(
                warnings == [
                    "the eSpeak NG voice zz/unchecked is not used: it is not among the voices checked "
                        + "for libespeak-ng 1.51's memory faults (Tools/espeak-scan); keeping "
                        + resolver.profileVoiceName(profile)
                ])
        }
        let (name, warnings) = resolver.voiceName(
            for: TextSegment(text: "ulica", language: "pl"), profile: profile)
        #expect(name == "zlw/pl" && warnings.isEmpty, "\(name) \(warnings)")
    }
}
