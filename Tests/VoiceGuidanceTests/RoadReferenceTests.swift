import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@Suite struct RoadReferenceTests {
    @Test(arguments: [
        ("I-280", "I two eighty"), ("I-80", "I eighty"), ("I-5", "I five"), ("US-101", "U S one oh one"),
        ("US 101", "U S one oh one"), ("I-495 N", "I four ninety-five North"), ("M25", "M twenty-five"),
        ("A9", "Eh nine"), ("B 27", "B twenty-seven"), ("E 45", "E forty-five"), ("N7", "N seven"),
        ("A406", "Eh four oh six"), ("SR 99", "S R ninety-nine"), ("CA-1", "C Eh one"), ("A1M", "Eh one M"),
        ("exit 432", "exit four thirty-two"), ("Exit 1B", "Exit one B"), ("exit 8B", "exit eight B"),
        ("exits 43-44", "exits forty-three forty-four"), ("Route 66", "Route sixty-six"),
        ("Highway 1", "Highway one"), ("Interstate 10", "Interstate ten"),
        ("1066 Main St", "ten sixty-six Main Street"),
        ("2100 Pennsylvania Ave", "twenty-one hundred Pennsylvania Avenue"),
        ("350 5th Ave", "three fifty 5th Avenue"),
        ("1600 Amphitheatre Pkwy", "sixteen hundred Amphitheatre Parkway"),
        ("12345 Ventura Blvd", "one twenty-three forty-five Ventura Boulevard"),
        ("2005 Market Street", "two thousand five Market Street"), ("Road No. 5", "Road number 5"),
        ("Road No.5", "Road number 5"),
    ])
    func englishReadsRefsAndNumbersAsPeopleDo(input: String, expected: String) {
        #expect(TextNormalizer(language: "en-US").normalize(text: input) == expected)
    }

    @Test(arguments: [
        // Not road refs or house numbers: left for eSpeak.
        "In 2 miles, turn right", "Take the 1st exit", "Turn left in 500 feet", "call 555 now", "A good road",
        "I am at Main", "In 1200 feet keep left", "Continue for 12 minutes", "Lane 3 of 4",
        "Turn onto Main St Bridge",
    ])
    func englishLeavesWhatItCannotTellApart(input: String) {
        #expect(TextNormalizer(language: "en-US").normalize(text: input) == input)
    }

    @Test(arguments: [
        ("fr", "A9", "A neuf"), ("fr", "la N 7", "la N sept"), ("fr", "l'A 104", "l'A cent quatre"),
        ("de", "A 100", "A hundert"), ("de", "B 27", "B siebenundzwanzig"), ("de", "A1", "A eins"),
        ("es", "A-7", "A siete"), ("es", "la N-340", "la N trescientos cuarenta"),
        ("es", "M-30", "M treinta"),
        ("en", "E 45", "E forty-five"),
    ])
    func otherLanguagesReadRefNumbersAsCardinals(language: String, input: String, expected: String) {
        #expect(TextNormalizer(language: language).normalize(text: input) == expected)
    }

    @Test(arguments: [
        ("en", "Take St Charles Ave", "Take Saint Charles Avenue"),
        ("en", "Turn onto Dr Martin Luther King Jr Dr", "Turn onto Doctor Martin Luther King Junior Drive"),
        ("en", "Turn right onto Main St.", "Turn right onto Main Street."),
        ("en", "Turn right onto Main St N", "Turn right onto Main Street N"),
        ("en", "Continue on 3rd St toward Market", "Continue on 3rd Street toward Market"),
        ("fr", "Rue St Honoré", "Rue Saint Honoré"), ("fr", "Bd. Voltaire", "Boulevard Voltaire"),
        ("de", "Lindenstr. 5", "Lindenstraße 5"), ("de", "Marktpl. 1", "Marktplatz 1"),
        ("es", "C/ Alcalá 21", "Calle Alcalá 21"), ("es", "Avda. Diagonal", "Avenida Diagonal"),
    ])
    func abbreviationsExpandOnlyWherePositionDecides(language: String, input: String, expected: String) {
        #expect(TextNormalizer(language: language).normalize(text: input) == expected)
    }

    @Test(arguments: [
        (
            "Continue on US <say-as interpret-as=\"address\">29</say-as> for 1.5 miles",
            "Continue on U S twenty-nine for 1.5 miles"
        ),
        (
            "Turn right onto CA <say-as interpret-as=\"address\">174</say-as>",
            "Turn right onto C Eh one seventy-four"
        ),
        ("towards UT <say-as interpret-as=\"address\">201</say-as> East", "towards U T two oh one East"),
        ("onto <say-as interpret-as=\"address\">13th</say-as> Street", "onto thirteenth Street"),
        ("BUS <say-as interpret-as=\"address\">29</say-as>", "BUS twenty-nine"),
    ])
    func routePrefixBeforeAnAddressElementIsSpelled(ssml: String, expected: String) throws {
        let utterance = try SSMLParser().parse("<speak>\(ssml)</speak>")
        let text = TextNormalizer(language: "en-US").normalize(utterance).plainText
        #expect(text.split(whereSeparator: \.isWhitespace).joined(separator: " ") == expected)
    }

    /// Every fixture `ssmlAnnouncement` with `say-as address` normalises without a new warning,
    /// and the numbers inside the address are read as addresses: no digits left, no
    /// "thousand", and "hundred" only for numbers that end in 00.
    @Test func fixtureAddressesReadAsAddresses() throws {
        let announcements = try TestFixtures.announcements().filter {
            $0.ssml.contains("interpret-as=\"address\"")
        }
        #expect(announcements.count > 50)
        let normalizer = TextNormalizer(language: "en-US")
        var checked = 0
        for announcement in announcements {
            guard let utterance = try? SSMLParser().parse(announcement.ssml) else { continue }
            let addresses = utterance.segments.compactMap { segment -> String? in
                if case .text(let text) = segment, text.sayAs?.interpretAs == .address { return text.text }
                return nil
            }
            let result = normalizer.normalize(utterance)
            #expect(result.warnings.count == utterance.warnings.count, "\(announcement.ssml)")
            var spoken: [String] = []
            for segment in result.segments {
                if case .text(let text) = segment { spoken.append(text.text) }
            }
            for address in addresses {
                let index = utterance.segments.firstIndex {
                    if case .text(let text) = $0 { return text.text == address && text.sayAs != nil }
                    return false
                }!
                guard case .text(let after) = result.segments[index] else { continue }
                #expect(after.sayAs == nil)
                #expect(
                    !after.text.contains(where: { $0.isASCII && $0.isNumber }), "\(address) → \(after.text)")
                #expect(!after.text.contains("thousand"), "\(address) → \(after.text)")
                let digits = address.filter { $0.isASCII && $0.isNumber }
                if after.text.contains("hundred") {
                    #expect(digits.hasSuffix("00"), "\(address) → \(after.text)")
                }
                checked += 1
            }
        }
        #expect(checked > 200)
        // Spot checks from the issue: exit 432 and I-280.
        let sample = try SSMLParser().parse(
            "<speak><amazon:effect name=\"drc\"><prosody rate=\"1.08\">In 2 miles, take exit <say-as interpret-as=\"address\">432</say-as> towards Cesar Chavez Street, then <say-as interpret-as=\"address\">I-280</say-as></prosody></amazon:effect></speak>"
        )
        let text = normalizer.normalize(sample).plainText
        #expect(text.contains("four thirty-two"))
        #expect(text.contains("I two eighty"))
        #expect(text.contains("In 2 miles"))
    }
}
