/// Amounts of money (`<say-as interpret-as="currency">`) and Polly's duration form of `time`
/// (`1'21"`), read in one language.
///
/// Currency: `$`, `€`, `£` or `USD`, `EUR`, `GBP` before or after the amount ("$45", "€3.50",
/// "3,50 €", "10 GBP"); the last `.` or `,` followed by one or two digits is the decimal mark,
/// any other is a thousands separator. "$45" → "forty-five dollars", "€3.50" → "three euros and
/// fifty cents", fr "trois euros et cinquante centimes", de "drei Euro und fünfzig Cent", es
/// "tres euros con cincuenta céntimos".
struct CurrencyReading: Sendable {
    /// A currency's spoken names in one language: main unit and hundredth, with genders.
    struct Names: Sendable {
        var unit: LanguageRules.UnitName
        var unitGender: GrammaticalGender
        var cent: LanguageRules.UnitName
        var centGender: GrammaticalGender
    }

    let language: NormalizationLanguage
    let numbers: NumberSpeller

    init(language: NormalizationLanguage) {
        self.language = language
        numbers = NumberSpeller(language: language)
    }

    /// The symbols and codes each currency is written with.
    static let symbols: [String: String] = [
        "$": "USD", "US$": "USD", "USD": "USD", "€": "EUR", "EUR": "EUR", "£": "GBP", "GBP": "GBP",
    ]

    /// The words for an amount of money, or nil when `text` is not one.
    func read(_ text: String) -> String? {
        guard let (code, amount) = Self.split(text), let names = Self.names[language]?[code],
            let (whole, cents) = Self.amount(amount)
        else { return nil }
        let unitWords = quantity(whole, names.unit, gender: names.unitGender)
        guard cents > 0 else { return unitWords }
        let centWords = quantity(cents, names.cent, gender: names.centGender)
        guard whole > 0 else { return centWords }
        return "\(unitWords) \(Self.joiner[language] ?? "and") \(centWords)"
    }

    private func quantity(_ count: Int, _ name: LanguageRules.UnitName, gender: GrammaticalGender) -> String {
        let number = numbers.cardinal(count, gender: gender, isBeforeNoun: true)
        return "\(number) \(count == 1 ? name.singular : name.plural)"
    }

    /// The currency code and the amount's text.
    static func split(_ text: String) -> (String, Substring)? {
        let body = Substring(text.trimmingSSMLWhitespace())
        // Longest symbol first, so "US$" is not read as "$" after "US".
        for (symbol, code) in symbolsLongestFirst {
            if body.hasPrefix(symbol) {
                return (code, Substring(body.dropFirst(symbol.count).trimmingSSMLWhitespace()))
            }
            if body.hasSuffix(symbol) {
                return (code, Substring(body.dropLast(symbol.count).trimmingSSMLWhitespace()))
            }
        }
        return nil
    }

    private static let symbolsLongestFirst = symbols.sorted {
        ($0.key.count, $0.key) > ($1.key.count, $1.key)
    }

    /// Whole units and hundredths of an amount such as "1,250.50", "3,50", "1.000", "45".
    static func amount(_ text: Substring) -> (Int, Int)? {
        guard !text.isEmpty, text.count <= 18,
            text.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." || $0 == "," || $0 == " " })
        else { return nil }
        var wholeText = String(text)
        var centText = ""
        if let mark = text.lastIndex(where: { $0 == "." || $0 == "," }) {
            let after = text[text.index(after: mark)...]
            if (1...2).contains(after.count) {
                wholeText = String(text[..<mark])
                centText = after.count == 1 ? after + "0" : String(after)
            }
        }
        // Thousands separators only between groups of three digits ("1,250", "1 234", not "1.2.3").
        let groups = wholeText.split(whereSeparator: { $0 == "." || $0 == "," || $0 == " " })
        guard
            groups.count <= 1
                || (groups.first.map { (1...3).contains($0.count) } == true
                    && groups.dropFirst().allSatisfy { $0.count == 3 })
        else { return nil }
        let digits = wholeText.filter(\.isNumber)
        guard digits.count <= 12, let whole = Int(digits.isEmpty ? "0" : digits),
            let cents = Int(centText.isEmpty ? "0" : centText)
        else { return nil }
        return (whole, cents)
    }

    private static func names(
        _ unit: String, _ units: String, _ unitGender: GrammaticalGender, _ cent: String, _ cents: String,
        _ centGender: GrammaticalGender
    ) -> Names {
        Names(
            unit: .init(singular: unit, plural: units), unitGender: unitGender,
            cent: .init(singular: cent, plural: cents), centGender: centGender)
    }

    /// The word between units and hundredths.
    static let joiner: [NormalizationLanguage: String] = [
        .english: "and", .french: "et", .german: "und", .spanish: "con",
    ]

    static let names: [NormalizationLanguage: [String: Names]] = [
        .english: [
            "USD": names("dollar", "dollars", .masculine, "cent", "cents", .masculine),
            "EUR": names("euro", "euros", .masculine, "cent", "cents", .masculine),
            "GBP": names("pound", "pounds", .masculine, "penny", "pence", .masculine),
        ],
        .french: [
            "USD": names("dollar", "dollars", .masculine, "cent", "cents", .masculine),
            "EUR": names("euro", "euros", .masculine, "centime", "centimes", .masculine),
            "GBP": names("livre", "livres", .feminine, "penny", "pence", .masculine),
        ],
        .german: [
            "USD": names("Dollar", "Dollar", .masculine, "Cent", "Cent", .masculine),
            "EUR": names("Euro", "Euro", .masculine, "Cent", "Cent", .masculine),
            "GBP": names("Pfund", "Pfund", .neuter, "Penny", "Pence", .masculine),
        ],
        .spanish: [
            "USD": names("dólar", "dólares", .masculine, "centavo", "centavos", .masculine),
            "EUR": names("euro", "euros", .masculine, "céntimo", "céntimos", .masculine),
            "GBP": names("libra", "libras", .feminine, "penique", "peniques", .masculine),
        ],
    ]

    // MARK: - Polly's duration form of time

    /// Polly's `time` form for a duration: `1'21"` → "one minute twenty-one seconds", `2'` →
    /// "two minutes", `45"` → "forty-five seconds" (fr "une minute vingt et une secondes", de
    /// "eine Minute einundzwanzig Sekunden", es "un minuto veintiún segundos"). Nil when `text`
    /// is not of that form.
    func duration(_ text: String) -> String? {
        let body = Substring(text.trimmingSSMLWhitespace())
        guard body.hasSuffix("'") || body.hasSuffix("\"") else { return nil }
        var minutes: Int?
        var seconds: Int?
        var rest = body
        if let mark = rest.firstIndex(of: "'") {
            guard let value = Self.count(rest[..<mark]) else { return nil }
            minutes = value
            rest = rest[rest.index(after: mark)...]
        }
        if rest.hasSuffix("\"") {
            guard let value = Self.count(rest.dropLast()), value < 60 || minutes == nil else { return nil }
            seconds = value
        } else if !rest.isEmpty {
            return nil
        }
        let rules = LanguageRules.rules(for: language)
        guard let minuteName = rules.units["min"], let secondName = rules.units["s"] else { return nil }
        let gender = Self.timeUnitGender[language] ?? .masculine
        var parts: [String] = []
        if let minutes { parts.append(quantity(minutes, minuteName, gender: gender)) }
        if let seconds, seconds > 0 || minutes == nil {
            parts.append(quantity(seconds, secondName, gender: gender))
        }
        return parts.joined(separator: " ")
    }

    /// A whole number of at most five digits.
    private static func count(_ text: Substring) -> Int? {
        let trimmed = text.trimmingSSMLWhitespace()
        guard !trimmed.isEmpty, trimmed.count <= 5, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return nil
        }
        return Int(trimmed)
    }

    /// The gender of "minute" and "second".
    static let timeUnitGender: [NormalizationLanguage: GrammaticalGender] = [
        .english: .masculine, .french: .feminine, .german: .feminine, .spanish: .masculine,
    ]
}
