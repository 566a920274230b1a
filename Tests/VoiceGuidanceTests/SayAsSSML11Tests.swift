import Testing
import VoiceGuidance

/// `say-as currency` and Polly's fraction and duration forms, beyond the golden cases.
@Suite struct SayAsSSML11Tests {
    func read(_ text: String, as kind: String, language: String = "en-US") throws -> (String, Int) {
        let ssml = #"<speak><say-as interpret-as="\#(kind)">\#(text)</say-as></speak>"#
        let result = TextNormalizer(language: language).normalize(try SSMLParser().parse(ssml))
        return (result.plainText, result.warnings.count)
    }

    @Test(arguments: [
        ("$1", "one dollar"), ("US$ 5", "five dollars"), ("45 USD", "forty-five dollars"),
        ("$1,250.50", "one thousand two hundred fifty dollars and fifty cents"), ("£0.50", "fifty pence"),
        ("€0.01", "one cent"), ("EUR 2.5", "two euros and fifty cents"), ("£1.01", "one pound and one penny"),
    ])
    func englishAmounts(text: String, expected: String) throws {
        #expect(try read(text, as: "currency") == (expected, 0))
    }

    @Test func otherCurrenciesAndNonAmountsAreLeftWithAWarning() throws {
        for text in ["¥500", "$", "$abc", "$1.2.3.4.5", "$12,34,567", "$99999999999999"] {
            let (spoken, warnings) = try read(text, as: "currency")
            #expect(warnings == 1, "\(text) → \(spoken)")
        }
        #expect(try read("$45", as: "money").0 == "forty-five dollars")
    }

    @Test(arguments: [
        ("fr-FR", "1 234,56 €", "mille deux cent trente-quatre euros et cinquante-six centimes"),
        ("de-DE", "1.000 €", "tausend Euro"), ("es-ES", "$1", "un dólar"), ("es-ES", "£2", "dos libras"),
    ])
    func amountsInOtherLanguages(language: String, text: String, expected: String) throws {
        #expect(try read(text, as: "currency", language: language) == (expected, 0))
    }

    @Test(arguments: [
        ("2'", "two minutes"), ("45\"", "forty-five seconds"), ("0'59\"", "zero minutes fifty-nine seconds"),
        ("3'00\"", "three minutes"), ("90\"", "ninety seconds"),
    ])
    func pollyDurations(text: String, expected: String) throws {
        #expect(try read(text, as: "time") == (expected, 0))
    }

    @Test func aDurationWithSixtySecondsOrMoreAfterMinutesIsNotOne() throws {
        #expect(try read("1'75\"", as: "time").1 == 1)
        #expect(try read("14:30", as: "time").0 == "fourteen thirty")
    }

    @Test func pollyMixedFractions() throws {
        #expect(try read("2+1/2", as: "fraction") == ("two and a half", 0))
        #expect(try read("1+3/4", as: "fraction") == ("one and three quarters", 0))
        #expect(try read("3+1/2", as: "fraction", language: "de-DE").0 == "drei und einhalb")
    }
}
