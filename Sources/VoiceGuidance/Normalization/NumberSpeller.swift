/// Spells integers as words in one language: cardinals, ordinals, digits, decimals, and the
/// way people read road and house numbers ("1066" → "ten sixty-six").
///
/// Handles magnitudes below one trillion; larger numbers are read digit by digit.
struct NumberSpeller: Sendable {
    let language: NormalizationLanguage

    /// The largest number spelled as a cardinal; above it, digits are read one by one.
    static let largest = 999_999_999_999

    // MARK: - Cardinals

    /// The cardinal words of `n`, agreeing with `gender` where the language inflects "one" or
    /// hundreds (fr *une*, de *eine*, es *una*, *doscientas*).
    /// - Complexity: O(number of digits).
    func cardinal(_ n: Int, gender: GrammaticalGender? = nil, isBeforeNoun: Bool = false) -> String {
        if n < 0 {
            guard n != .min else { return "\(words.minus) \(digits(String(n)))" }
            return "\(words.minus) \(cardinal(-n, gender: gender, isBeforeNoun: isBeforeNoun))"
        }
        if n > Self.largest { return digits(String(n)) }
        switch language {
        case .english: return english(n)
        case .french: return french(n, gender: gender)
        case .german: return german(n, gender: gender, isBeforeNoun: isBeforeNoun)
        case .spanish: return spanish(n, gender: gender, isBeforeNoun: isBeforeNoun)
        }
    }

    private var words: LanguageRules { LanguageRules.rules(for: language) }

    private static let englishSmall = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
        "nineteen",
    ]
    private static let englishTens = [
        "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ]

    private func english(_ n: Int) -> String {
        if n < 20 { return Self.englishSmall[n] }
        if n < 100 {
            let tens = Self.englishTens[n / 10]
            return n % 10 == 0 ? tens : "\(tens)-\(Self.englishSmall[n % 10])"
        }
        if n < 1000 {
            let head = "\(Self.englishSmall[n / 100]) hundred"
            return n % 100 == 0 ? head : "\(head) \(english(n % 100))"
        }
        return scaled(n, scales: [(1_000_000_000, "billion"), (1_000_000, "million"), (1000, "thousand")]) {
            english($0)
        }
    }

    /// Splits `n` by the given scales (largest first) and joins "head scale rest" with spaces.
    private func scaled(_ n: Int, scales: [(Int, String)], below: (Int) -> String) -> String {
        for (scale, name) in scales where n >= scale {
            let head = "\(cardinal(n / scale)) \(name)"
            let rest = n % scale
            return rest == 0 ? head : "\(head) \(cardinal(rest))"
        }
        return below(n)
    }

    private static let frenchSmall = [
        "zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze",
        "douze", "treize", "quatorze", "quinze", "seize", "dix-sept", "dix-huit", "dix-neuf",
    ]
    private static let frenchTens = [
        "", "dix", "vingt", "trente", "quarante", "cinquante", "soixante", "soixante", "quatre-vingt",
        "quatre-vingt",
    ]

    private func french(_ n: Int, gender: GrammaticalGender?, isFinal: Bool = true) -> String {
        let feminine = gender == .feminine
        if n < 100 {
            if n == 1 && feminine { return "une" }
            if n < 20 { return Self.frenchSmall[n] }
            let tensDigit = n / 10
            var unit = n % 10
            if tensDigit == 7 || tensDigit == 9 { unit += 10 }
            let tens = Self.frenchTens[tensDigit]
            if unit == 0 { return tensDigit == 8 && isFinal ? "quatre-vingts" : tens }
            let unitWord = unit == 1 && feminine ? "une" : Self.frenchSmall[unit]
            if (unit == 1 || unit == 11) && tensDigit != 8 && tensDigit != 9 {
                return "\(tens) et \(unitWord)"
            }
            return "\(tens)-\(unitWord)"
        }
        if n < 1000 {
            let hundreds = n / 100
            let rest = n % 100
            var head = hundreds == 1 ? "cent" : "\(Self.frenchSmall[hundreds]) cent"
            if hundreds > 1 && rest == 0 && isFinal { head += "s" }
            return rest == 0 ? head : "\(head) \(french(rest, gender: gender, isFinal: isFinal))"
        }
        for (scale, singular, plural) in [
            (1_000_000_000, "un milliard", "milliards"), (1_000_000, "un million", "millions"),
        ] where n >= scale {
            let count = n / scale
            let head = count == 1 ? singular : "\(french(count, gender: nil)) \(plural)"
            let rest = n % scale
            return rest == 0 ? head : "\(head) \(french(rest, gender: gender, isFinal: isFinal))"
        }
        let thousands = n / 1000
        let head = thousands == 1 ? "mille" : "\(french(thousands, gender: nil, isFinal: false)) mille"
        let rest = n % 1000
        return rest == 0 ? head : "\(head) \(french(rest, gender: gender, isFinal: isFinal))"
    }

    private static let germanSmall = [
        "null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf",
        "zwölf", "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn",
    ]
    private static let germanTens = [
        "", "zehn", "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig", "neunzig",
    ]

    /// German numbers below a million are one word ("tausendsechsundsechzig").
    private func german(_ n: Int, gender: GrammaticalGender?, isBeforeNoun: Bool) -> String {
        if n == 1 {
            if gender == .feminine { return "eine" }
            return isBeforeNoun || gender != nil ? "ein" : "eins"
        }
        if n < 20 { return Self.germanSmall[n] }
        if n < 100 {
            let unit = n % 10
            let tens = Self.germanTens[n / 10]
            if unit == 0 { return tens }
            return "\(unit == 1 ? "ein" : Self.germanSmall[unit])und\(tens)"
        }
        if n < 1000 {
            let hundreds = n / 100
            let head = hundreds == 1 ? "hundert" : "\(Self.germanSmall[hundreds])hundert"
            let rest = n % 100
            return rest == 0 ? head : head + german(rest, gender: gender, isBeforeNoun: isBeforeNoun)
        }
        if n < 1_000_000 {
            let thousands = n / 1000
            let head =
                thousands == 1 ? "tausend" : "\(german(thousands, gender: nil, isBeforeNoun: true))tausend"
            let rest = n % 1000
            return rest == 0 ? head : head + german(rest, gender: gender, isBeforeNoun: isBeforeNoun)
        }
        for (scale, singular, plural) in [
            (1_000_000_000, "eine Milliarde", "Milliarden"), (1_000_000, "eine Million", "Millionen"),
        ] where n >= scale {
            let count = n / scale
            let head = count == 1 ? singular : "\(german(count, gender: nil, isBeforeNoun: true)) \(plural)"
            let rest = n % scale
            return rest == 0
                ? head : "\(head) \(german(rest, gender: gender, isBeforeNoun: isBeforeNoun))"
        }
        return digits(String(n))
    }

    private static let spanishSmall = [
        "cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once",
        "doce", "trece", "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve",
        "veinte", "veintiuno", "veintidós", "veintitrés", "veinticuatro", "veinticinco", "veintiséis",
        "veintisiete", "veintiocho", "veintinueve",
    ]
    private static let spanishTens = [
        "", "", "", "treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa",
    ]
    private static let spanishHundreds = [
        "", "ciento", "doscientos", "trescientos", "cuatrocientos", "quinientos", "seiscientos",
        "setecientos", "ochocientos", "novecientos",
    ]

    private func spanish(_ n: Int, gender: GrammaticalGender?, isBeforeNoun: Bool) -> String {
        if n < 100 {
            var word: String
            if n < 30 {
                word = Self.spanishSmall[n]
            } else {
                let tens = Self.spanishTens[n / 10]
                word = n % 10 == 0 ? tens : "\(tens) y \(Self.spanishSmall[n % 10])"
            }
            if word.hasSuffix("uno") {
                if gender == .feminine {
                    word = String(word.dropLast(1)) + "a"
                } else if isBeforeNoun {
                    word =
                        word == "uno" ? "un" : (word == "veintiuno" ? "veintiún" : String(word.dropLast(1)))
                }
            }
            return word
        }
        if n < 1000 {
            let hundreds = n / 100
            let rest = n % 100
            if n == 100 { return "cien" }
            var head = Self.spanishHundreds[hundreds]
            if gender == .feminine && hundreds > 1 { head = String(head.dropLast(2)) + "as" }
            return rest == 0
                ? head : "\(head) \(spanish(rest, gender: gender, isBeforeNoun: isBeforeNoun))"
        }
        if n < 1_000_000 {
            let thousands = n / 1000
            let head =
                thousands == 1
                ? "mil" : "\(spanish(thousands, gender: gender, isBeforeNoun: true)) mil"
            let rest = n % 1000
            return rest == 0
                ? head : "\(head) \(spanish(rest, gender: gender, isBeforeNoun: isBeforeNoun))"
        }
        for (scale, singular, plural) in [
            (1_000_000_000, "mil millones", "mil millones"), (1_000_000, "un millón", "millones"),
        ] where n >= scale {
            let count = n / scale
            let head =
                count == 1 ? singular : "\(spanish(count, gender: nil, isBeforeNoun: true)) \(plural)"
            let rest = n % scale
            return rest == 0
                ? head : "\(head) \(spanish(rest, gender: gender, isBeforeNoun: isBeforeNoun))"
        }
        return digits(String(n))
    }

    // MARK: - Digits and decimals

    /// Each digit of `text` as a word, separated by spaces; other characters are kept as
    /// separate tokens ("+", letters).
    func digits(_ text: some StringProtocol, zeroAsOh: Bool = false) -> String {
        var parts: [String] = []
        for character in text {
            if let value = character.wholeNumberValue, character.isASCII {
                parts.append(value == 0 && zeroAsOh ? "oh" : Self.digitWord(value, language))
            } else if character.isLetter {
                parts.append(String(character))
            }
        }
        return parts.joined(separator: " ")
    }

    private static func digitWord(_ value: Int, _ language: NormalizationLanguage) -> String {
        switch language {
        case .english: englishSmall[value]
        case .french: frenchSmall[value]
        case .german: germanSmall[value]
        case .spanish: spanishSmall[value]
        }
    }

    /// A decimal written with `.` or `,` ("1.2", "0,5"): integer part as a cardinal, the
    /// decimal separator word, then the fraction's digits one by one (fr/es read up to two
    /// fraction digits as a number: "un virgule vingt-cinq").
    func decimal(integer: Int, fraction: Substring) -> String {
        let head = cardinal(integer)
        let trimmed = fraction
        if trimmed.isEmpty { return head }
        let fractionWords: String
        switch language {
        case .english, .german:
            fractionWords = digits(trimmed)
        case .french, .spanish:
            if trimmed.count <= 2, !trimmed.hasPrefix("0"), let value = Int(trimmed) {
                fractionWords = cardinal(value)
            } else {
                fractionWords = digits(trimmed)
            }
        }
        return "\(head) \(words.decimalSeparator) \(fractionWords)"
    }

    // MARK: - Ordinals

    /// The ordinal of `n` in the form the context asks for ("third", "troisième", "dritten",
    /// "tercera", "tercer").
    func ordinal(_ n: Int, form: GrammaticalForm = GrammaticalForm()) -> String {
        if n < 0 || n > Self.largest { return cardinal(n) }
        switch language {
        case .english: return englishOrdinal(n)
        case .french: return frenchOrdinal(n, gender: form.gender)
        case .german: return germanOrdinal(n, form: form)
        case .spanish: return spanishOrdinal(n, form: form)
        }
    }

    private static let englishIrregularOrdinals = [
        "one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth",
        "nine": "ninth", "twelve": "twelfth",
    ]

    private func englishOrdinal(_ n: Int) -> String {
        let words = english(n)
        let split = words.lastIndex(where: { $0 == " " || $0 == "-" }).map { words.index(after: $0) }
        let head = split.map { String(words[..<$0]) } ?? ""
        let last = String(words[(split ?? words.startIndex)...])
        if let irregular = Self.englishIrregularOrdinals[last] { return head + irregular }
        if last.hasSuffix("y") { return head + last.dropLast() + "ieth" }
        return head + last + "th"
    }

    private func frenchOrdinal(_ n: Int, gender: GrammaticalGender?) -> String {
        if n == 1 { return gender == .feminine ? "première" : "premier" }
        var words = french(n, gender: nil)
        if words.hasSuffix("cinq") {
            words += "u"
        } else if words.hasSuffix("neuf") {
            words = words.dropLast() + "v"
        } else if words.hasSuffix("e") {
            words = String(words.dropLast())
        } else if words.hasSuffix("quatre-vingts") || words.hasSuffix("cents") {
            words = String(words.dropLast())
        }
        return words + "ième"
    }

    private func germanOrdinal(_ n: Int, form: GrammaticalForm) -> String {
        let stem: String
        switch n {
        case 1: stem = "erst"
        case 3: stem = "dritt"
        case 7: stem = "siebt"
        case 8: stem = "acht"
        default:
            let words = german(n, gender: nil, isBeforeNoun: false)
            let lastTwo = n % 100
            if n < 20 {
                stem = words + "t"
            } else if (1...19).contains(lastTwo) && n >= 100 {
                // 101 → hunderterst, 103 → hundertdritt: the ending follows the last part.
                let head = german(n - lastTwo, gender: nil, isBeforeNoun: false)
                let tail = germanOrdinal(lastTwo, form: form)
                // Written apart so eSpeak does not misread the compound ("hundert erste").
                return head + " " + tail
            } else {
                stem = words + "st"
            }
        }
        return stem + Self.germanEnding(form)
    }

    /// The adjective ending of a German ordinal: weak after a definite article, strong without.
    static func germanEnding(_ form: GrammaticalForm) -> String {
        if let ending = form.germanEnding { return ending }
        let grammaticalCase = form.grammaticalCase ?? .nominative
        if form.hasDefiniteArticle {
            if form.isPlural { return "en" }
            switch grammaticalCase {
            case .nominative: return "e"
            case .accusative: return form.gender == .masculine ? "en" : "e"
            case .dative, .genitive: return "en"
            }
        }
        if form.isPlural { return grammaticalCase == .dative ? "en" : "e" }
        switch (grammaticalCase, form.gender ?? .feminine) {
        case (.nominative, .masculine): return "er"
        case (.nominative, .feminine), (.accusative, .feminine): return "e"
        case (.nominative, .neuter), (.accusative, .neuter): return "es"
        case (.accusative, .masculine): return "en"
        case (.dative, .feminine), (.genitive, .feminine): return "er"
        case (.dative, _): return "em"
        case (.genitive, _): return "en"
        }
    }

    private static let spanishOrdinalUnits = [
        "", "primer", "segund", "tercer", "cuart", "quint", "sext", "séptim", "octav", "noven",
    ]
    private static let spanishOrdinalTens = [
        "", "décim", "vigésim", "trigésim", "cuadragésim", "quincuagésim", "sexagésim", "septuagésim",
        "octogésim", "nonagésim",
    ]
    private static let spanishOrdinalHundreds = [
        "", "centésim", "ducentésim", "tricentésim", "cuadringentésim", "quingentésim", "sexcentésim",
        "septingentésim", "octingentésim", "noningentésim",
    ]

    /// Spanish ordinals up to 999 ("decimotercera", "vigésimo primero"); above that, the
    /// cardinal, as Spanish speakers do.
    private func spanishOrdinal(_ n: Int, form: GrammaticalForm) -> String {
        if n == 0 || n > 999 { return spanish(n, gender: form.gender, isBeforeNoun: form.isBeforeNoun) }
        let feminine = form.gender == .feminine
        let ending = feminine ? "a" : "o"
        let apocope = !feminine && form.isBeforeNoun && !form.isPlural
        var parts: [String] = []
        let hundreds = n / 100
        let tens = (n % 100) / 10
        let units = n % 10
        if hundreds > 0 { parts.append(Self.spanishOrdinalHundreds[hundreds] + ending) }
        if tens == 1 && units > 0 {
            // décimo primero… written as one word: decimoprimero, decimotercera.
            var unit = Self.spanishOrdinalUnits[units]
            if units == 1 || units == 3 {
                unit += apocope ? "" : ending
            } else {
                unit += ending
            }
            parts.append("decimo" + unit)
        } else {
            if tens > 0 { parts.append(Self.spanishOrdinalTens[tens] + ending) }
            if units > 0 {
                var unit = Self.spanishOrdinalUnits[units]
                if units == 1 || units == 3 {
                    if !apocope { unit += ending }
                } else {
                    unit += ending
                }
                parts.append(unit)
            }
        }
        if form.isPlural { return parts.map { $0 + "s" }.joined(separator: " ") }
        return parts.joined(separator: " ")
    }

    // MARK: - Address numbers

    /// How English speakers read a house, exit or route number: "101" → "one oh one",
    /// "280" → "two eighty", "1066" → "ten sixty-six", "2100" → "twenty-one hundred",
    /// "2005" → "two thousand five". Other languages read such numbers as cardinals.
    /// A leading zero ("07") is read digit by digit.
    func addressNumber(_ text: Substring) -> String {
        guard let n = Int(text) else { return digits(text) }
        if text.count > 1 && text.hasPrefix("0") { return digits(text, zeroAsOh: language == .english) }
        guard language == .english else { return cardinal(n) }
        switch text.count {
        case 1, 2: return english(n)
        case 3:
            if n % 100 == 0 { return english(n) }
            let rest = n % 100
            return "\(english(n / 100)) \(rest < 10 ? "oh \(english(rest))" : english(rest))"
        case 4:
            let high = n / 100
            let low = n % 100
            if n % 1000 == 0 || (low < 10 && (n / 100) % 10 == 0) { return english(n) }
            if low == 0 { return "\(english(high)) hundred" }
            return "\(english(high)) \(low < 10 ? "oh \(english(low))" : english(low))"
        default:
            // Five or more digits: pairs from the right, a single leading digit on its own.
            var pieces: [String] = []
            var rest = Substring(text)
            if rest.count % 2 == 1 {
                pieces.append(english(Int(String(rest.prefix(1)))!))
                rest = rest.dropFirst()
            }
            while !rest.isEmpty {
                let pair = rest.prefix(2)
                rest = rest.dropFirst(2)
                let value = Int(pair)!
                pieces.append(value < 10 ? "oh \(english(value))" : english(value))
            }
            return pieces.joined(separator: " ")
        }
    }
}
