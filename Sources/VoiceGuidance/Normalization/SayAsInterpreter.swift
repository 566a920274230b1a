import Foundation

/// Reads the text of one `<say-as>` element as plain words for eSpeak, in one language.
///
/// Returns nil when the text does not fit the kind ("abc" as a cardinal): the caller then keeps
/// the text as it is and adds a warning.
struct SayAsInterpreter: Sendable {
    let rules: LanguageRules
    let numbers: NumberSpeller
    let rewriter: NavigationTextRewriter

    init(language: NormalizationLanguage) {
        rules = LanguageRules.rules(for: language)
        numbers = NumberSpeller(language: language)
        rewriter = NavigationTextRewriter(language: language)
    }

    private var language: NormalizationLanguage { rules.language }

    /// The words for `text` read as `sayAs`, or nil when the text is not of that kind.
    /// `form` is the grammatical context (from `detail` and the neighbouring words).
    func interpret(_ text: String, as sayAs: SayAs, form: GrammaticalForm) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return text }
        switch sayAs.interpretAs {
        case .characters: return characters(trimmed)
        case .cardinal: return cardinal(trimmed, form: form)
        case .ordinal: return ordinal(trimmed, form: form)
        case .digits: return digitsOnly(trimmed)
        case .fraction: return fraction(trimmed)
        case .unit: return unit(trimmed)
        case .date: return date(trimmed, format: sayAs.format)
        case .time: return time(trimmed, format: sayAs.format)
        case .telephone: return telephone(trimmed)
        case .address: return rewriter.rewrite(trimmed, numbersAreAddresses: true)
        case .expletive: return text
        case .currency: return CurrencyReading(language: language).read(trimmed)
        }
    }

    // MARK: - characters, digits

    /// Each letter or digit on its own: "ABC12" → "A B C one two".
    private func characters(_ text: String) -> String {
        var parts: [String] = []
        for character in text where !character.isWhitespace {
            if let value = character.wholeNumberValue, character.isASCII {
                parts.append(numbers.digits(String(value)))
            } else if character.isLetter {
                parts.append(rules.letterName(character.uppercased()))
            }
        }
        return parts.joined(separator: " ")
    }

    private func digitsOnly(_ text: String) -> String? {
        guard text.contains(where: { $0.isASCII && $0.isNumber }) else { return nil }
        return numbers.digits(text)
    }

    // MARK: - numbers

    /// A number with optional sign, thousands separators and decimals ("1,234", "1.234,5" in
    /// fr/de/es, "−3").
    private func parseNumber(_ text: String) -> (integer: Int, fraction: Substring, negative: Bool)? {
        var body = Substring(text)
        var negative = false
        if let first = body.first, first == "-" || first == "−" {
            negative = true
            body = body.dropFirst()
        } else if body.first == "+" {
            body = body.dropFirst()
        }
        let decimalMark: Character = language == .english ? "." : ","
        let groupMarks: Set<Character> =
            language == .english ? [",", " ", "\u{202F}"] : [".", " ", "\u{202F}", "\u{A0}"]
        var integerDigits = ""
        var fraction: Substring = ""
        var index = body.startIndex
        while index < body.endIndex {
            let character = body[index]
            if character.isASCII && character.isNumber {
                integerDigits.append(character)
            } else if character == decimalMark {
                fraction = body[body.index(after: index)...]
                guard !fraction.isEmpty, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                    return nil
                }
                break
            } else if !groupMarks.contains(character) {
                return nil
            }
            index = body.index(after: index)
        }
        guard !integerDigits.isEmpty, integerDigits.count <= 12, let integer = Int(integerDigits) else {
            return nil
        }
        return (integer, fraction, negative)
    }

    private func cardinal(_ text: String, form: GrammaticalForm) -> String? {
        guard let (integer, fraction, negative) = parseNumber(text) else { return nil }
        let words =
            fraction.isEmpty
            ? numbers.cardinal(integer, gender: form.gender, isBeforeNoun: form.isBeforeNoun)
            : numbers.decimal(integer: integer, fraction: fraction)
        return negative ? "\(rules.minus) \(words)" : words
    }

    /// "3", "3rd", "3e", "3.", "3.ª", "3º" → the ordinal in the context's form; a marker that
    /// shows gender (fr "re", es "ª") wins over the context.
    private func ordinal(_ text: String, form: GrammaticalForm) -> String? {
        let digits = text.prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty, digits.count <= 12, let value = Int(digits) else { return nil }
        var marker = text.dropFirst(digits.count)
        if marker.hasPrefix(".") { marker = marker.dropFirst() }
        var form = form
        switch marker {
        case "", "st", "nd", "rd", "th", "e", "ème", "eme", "te", "ten", "ter", "tes", "o", "º":
            if marker == "o" || marker == "º" { form.gender = .masculine }
        case "er": form.gender = .masculine
        case "re", "ère", "a", "ª": form.gender = .feminine
        default: return nil
        }
        return numbers.ordinal(value, form: form)
    }

    /// "1/2" → "one half", "3/4" → "three quarters", "2/3" → "two thirds", "1 1/2" → "one and a
    /// half"; fr "trois quarts", de "drei Viertel", es "tres cuartos".
    private func fraction(_ text: String) -> String? {
        var whole: Int?
        // Polly writes a mixed number as "2+1/2".
        var body = Substring(text.replacingOccurrences(of: "+", with: " "))
        if let space = body.firstIndex(of: " "), let value = Int(body[..<space]) {
            whole = value
            body = body[body.index(after: space)...].drop(while: { $0 == " " })
        }
        let parts = body.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let numerator = Int(parts[0].trimmingCharacters(in: .whitespaces)),
            let denominator = Int(parts[1].trimmingCharacters(in: .whitespaces)), denominator > 0,
            numerator >= 0, numerator < 1_000_000, denominator < 1_000_000
        else { return nil }
        let fractionWords = fractionWords(numerator, denominator, withWhole: whole != nil)
        guard let whole else { return fractionWords }
        return "\(numbers.cardinal(whole)) \(rules.andWord) \(fractionWords)"
    }

    private func fractionWords(_ numerator: Int, _ denominator: Int, withWhole: Bool) -> String {
        let plural = numerator != 1
        switch language {
        case .english:
            if denominator == 1 { return numbers.cardinal(numerator) }
            let name: String
            if let special = rules.denominators[denominator] {
                name = plural ? special.plural : special.singular
            } else {
                let ordinal = numbers.ordinal(denominator)
                name = plural ? ordinal + "s" : ordinal
            }
            if numerator == 1 { return "\(withWhole ? "a" : "one") \(name)" }
            return "\(numbers.cardinal(numerator)) \(name)"
        case .french:
            let name: String
            if let special = rules.denominators[denominator] {
                name = plural ? special.plural : special.singular
            } else {
                name = numbers.ordinal(denominator) + (plural ? "s" : "")
            }
            if denominator == 2 && withWhole { return "demi" }
            return "\(numbers.cardinal(numerator)) \(name)"
        case .german:
            if denominator == 2 {
                return withWhole ? "einhalb" : "\(numbers.cardinal(numerator, gender: .neuter)) halb"
            }
            let name: String
            if let special = rules.denominators[denominator] {
                name = special.singular
            } else {
                let ordinal = numbers.ordinal(denominator, form: GrammaticalForm(germanEnding: ""))
                name = ordinal.prefix(1).uppercased() + ordinal.dropFirst() + "el"
            }
            return "\(numbers.cardinal(numerator, gender: .neuter, isBeforeNoun: true)) \(name)"
        case .spanish:
            if denominator == 2 && withWhole { return "medio" }
            let name: String
            if let special = rules.denominators[denominator] {
                name = plural ? special.plural : special.singular
            } else if denominator <= 10 {
                name = numbers.ordinal(denominator) + (plural ? "s" : "")
            } else {
                name = numbers.cardinal(denominator) + (plural ? "avos" : "avo")
            }
            return "\(numbers.cardinal(numerator, isBeforeNoun: true)) \(name)"
        }
    }

    // MARK: - unit

    /// "5 km", "0.5mi", "90 km/h", "20°", "-3 °C" → amount and unit name. An unknown unit is
    /// not guessed: nil.
    private func unit(_ text: String) -> String? {
        let numberEnd =
            text.firstIndex(where: {
                !($0.isASCII && ($0.isNumber || $0 == "." || $0 == ",")) && $0 != "-" && $0 != "−"
            })
            ?? text.endIndex
        let numberText = String(text[..<numberEnd])
        let symbol = text[numberEnd...].trimmingCharacters(in: .whitespaces)
        guard let (integer, fraction, negative) = parseNumberLenient(numberText),
            rules.units[symbol] != nil
        else { return nil }
        let words = rewriter.spokenQuantity(integer: integer, fraction: fraction, unit: symbol)
        return negative ? "\(rules.minus) \(words)" : words
    }

    /// A decimal with either `.` or `,` as the decimal mark (units are written both ways).
    private func parseNumberLenient(_ text: String) -> (Int, Substring, Bool)? {
        var body = Substring(text)
        var negative = false
        if body.first == "-" || body.first == "−" {
            negative = true
            body = body.dropFirst()
        }
        let mark = body.firstIndex(where: { $0 == "." || $0 == "," })
        let integerPart = mark.map { body[..<$0] } ?? body
        let fraction = mark.map { body[body.index(after: $0)...] } ?? ""
        guard !integerPart.isEmpty, integerPart.count <= 12, let integer = Int(integerPart),
            fraction.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        return (integer, fraction, negative)
    }

    // MARK: - date

    /// Dates written with `/`, `-` or `.` between numeric fields, read in the order `format`
    /// gives (mdy, dmy, ymd, md, dm, my, ym, y, m, d; default mdy in English, dmy otherwise).
    private func date(_ text: String, format: String?) -> String? {
        let fields = text.split(whereSeparator: { $0 == "/" || $0 == "-" || $0 == "." || $0 == " " })
        let format = (format ?? (language == .english ? "mdy" : "dmy")).lowercased()
        guard fields.count == format.count, format.allSatisfy({ "dmy".contains($0) }) else { return nil }
        var day: Int?
        var month: Int?
        var year: Substring?
        for (letter, field) in zip(format, fields) {
            guard field.allSatisfy({ $0.isASCII && $0.isNumber }), field.count <= 4 else { return nil }
            switch letter {
            case "d": day = Int(field)
            case "m": month = Int(field)
            default: year = field
            }
        }
        if let day, !(1...31).contains(day) { return nil }
        if let month, !(1...12).contains(month) { return nil }
        let monthName = month.map { rules.months[$0 - 1] }
        let yearWords = year.map(yearWords)
        let dayWords = day.map(dayWords)
        var parts: [String] = []
        switch language {
        case .english:
            if let monthName { parts.append(monthName) }
            if let dayWords { parts.append(dayWords) }
            if let yearWords {
                if !parts.isEmpty && day != nil { parts[parts.count - 1] += "," }
                parts.append(yearWords)
            }
        case .french, .german:
            if let dayWords { parts.append(dayWords) }
            if let monthName { parts.append(monthName) }
            if let yearWords { parts.append(yearWords) }
        case .spanish:
            if let dayWords { parts.append(dayWords) }
            if let monthName { parts.append((dayWords == nil ? "" : "de ") + monthName) }
            if let yearWords { parts.append((parts.isEmpty ? "" : "de ") + yearWords) }
        }
        return parts.joined(separator: " ")
    }

    private func dayWords(_ day: Int) -> String {
        switch language {
        case .english: numbers.ordinal(day)
        case .french: day == 1 ? "premier" : numbers.cardinal(day)
        case .german:
            numbers.ordinal(day, form: GrammaticalForm(gender: .masculine, hasDefiniteArticle: false))
        case .spanish: day == 1 ? "primero" : numbers.cardinal(day)
        }
    }

    /// Years as people say them: en "1999" → "nineteen ninety-nine", "2024" → "twenty
    /// twenty-four", "2005" → "two thousand five"; de "1999" → "neunzehnhundertneunundneunzig";
    /// fr/es as cardinals.
    private func yearWords(_ year: Substring) -> String {
        guard let value = Int(year) else { return numbers.digits(year) }
        switch language {
        case .english:
            if year.count == 4 && value >= 2000 && value < 2010 { return numbers.cardinal(value) }
            return numbers.addressNumber(year)
        case .german:
            if (1100...1999).contains(value) {
                let rest = value % 100
                return numbers.cardinal(value / 100) + "hundert" + (rest == 0 ? "" : numbers.cardinal(rest))
            }
            return numbers.cardinal(value)
        case .french, .spanish:
            return numbers.cardinal(value)
        }
    }

    // MARK: - time

    /// "14:30", "9:05", "3:15 PM", "3pm", "14h30", "9.30": hours and minutes as people say
    /// them. `format` "hms12" / "hms24" is accepted; a written am/pm decides 12-hour reading.
    private func time(_ text: String, format: String?) -> String? {
        if let duration = CurrencyReading(language: language).duration(text) { return duration }
        var body = text.lowercased()
        var meridiem: String?
        for (suffix, value) in [("a.m.", "am"), ("p.m.", "pm"), ("am", "am"), ("pm", "pm")]
        where body.hasSuffix(suffix) {
            meridiem = value
            body = String(body.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            break
        }
        let fields = body.split(whereSeparator: { $0 == ":" || $0 == "h" || $0 == "." })
        guard (1...3).contains(fields.count),
            fields.allSatisfy({ $0.count <= 2 && $0.allSatisfy(\.isNumber) }),
            let hour = Int(fields[0])
        else { return nil }
        let minute = fields.count > 1 ? Int(fields[1]) ?? 0 : 0
        let second = fields.count > 2 ? Int(fields[2]) ?? 0 : 0
        guard minute < 60, second < 60, hour < (meridiem == nil ? 25 : 13) else { return nil }
        var words = timeWords(hour: hour, minute: minute, meridiem: meridiem)
        if fields.count > 2 && second > 0 {
            words += " \(rules.andWord) \(numbers.cardinal(second)) " + (secondsWord(second))
        }
        return words
    }

    private func secondsWord(_ value: Int) -> String {
        let name = rules.units["s"]!
        return value == 1 ? name.singular : name.plural
    }

    private func timeWords(hour: Int, minute: Int, meridiem: String?) -> String {
        switch language {
        case .english:
            var words = numbers.cardinal(hour)
            if minute == 0 {
                words += meridiem == nil && hour > 12 ? " hundred" : (meridiem == nil ? " o'clock" : "")
            } else {
                words += minute < 10 ? " oh \(numbers.cardinal(minute))" : " \(numbers.cardinal(minute))"
            }
            if let meridiem { words += meridiem == "am" ? " \(rules.morning)" : " \(rules.afternoon)" }
            return words
        case .french:
            var words = numbers.cardinal(hour, gender: .feminine) + (hour < 2 ? " heure" : " heures")
            if minute > 0 { words += " \(numbers.cardinal(minute, gender: .feminine))" }
            if let meridiem { words += " \(meridiem == "am" ? rules.morning : rules.afternoon)" }
            return words
        case .german:
            var words = (hour == 1 ? "ein" : numbers.cardinal(hour)) + " Uhr"
            if minute > 0 { words += " \(numbers.cardinal(minute))" }
            return words
        case .spanish:
            var words = numbers.cardinal(hour, gender: .feminine)
            words += minute == 0 ? " en punto" : " y \(numbers.cardinal(minute))"
            if let meridiem { words += " \(meridiem == "am" ? rules.morning : rules.afternoon)" }
            return words
        }
    }

    // MARK: - telephone

    /// Groups as written, separated by commas (a short pause); digits one by one, or in pairs
    /// where the language reads them so (French "01 23 45" → "zéro un, vingt-trois, …").
    private func telephone(_ text: String) -> String? {
        var groups: [String] = []
        var current = ""
        var hasPlus = false
        for character in text {
            if character.isASCII && character.isNumber {
                current.append(character)
            } else if character == "+" && groups.isEmpty && current.isEmpty {
                hasPlus = true
            } else if " -.()/".contains(character) {
                if !current.isEmpty { groups.append(current) }
                current = ""
            } else {
                return nil
            }
        }
        if !current.isEmpty { groups.append(current) }
        guard !groups.isEmpty else { return nil }
        var spoken = groups.map { group -> String in
            if rules.readsTelephoneInPairs && group.count == 2 {
                return group.hasPrefix("0")
                    ? numbers.digits(group) : numbers.cardinal(Int(group)!)
            }
            return numbers.digits(group, zeroAsOh: false)
        }
        if hasPlus { spoken[0] = "\(rules.plusWord) \(spoken[0])" }
        return spoken.joined(separator: ", ")
    }
}
