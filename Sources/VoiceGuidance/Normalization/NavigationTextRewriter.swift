/// Rewrites plain navigation text where eSpeak would read it wrongly: route refs ("I-280",
/// "A9", "B 27"), exit, route and house numbers, distances with units, ordinals written with
/// digits (fr/es/de), and unambiguous abbreviations. Everything else is left for eSpeak.
///
/// The rules and where they stop are listed in `Normalization.docc/RULES.md` beside this file. A rule only fires
/// on a pattern whose reading is certain; ambiguous text ("St" between two names) is kept.
struct NavigationTextRewriter: Sendable {
    let rules: LanguageRules
    let numbers: NumberSpeller

    init(language: NormalizationLanguage) {
        rules = LanguageRules.rules(for: language)
        numbers = NumberSpeller(language: language)
    }

    private var language: NormalizationLanguage { rules.language }

    /// The rewritten text. When `numbersAreAddresses` is set (inside `say-as address`), every
    /// bare number is read the way addresses are read ("1066" → "ten sixty-six").
    func rewrite(_ text: String, numbersAreAddresses: Bool = false) -> String {
        // Fast path: nothing a rule could match (no digit, no capital, no `/`).
        if !text.utf8.contains(where: {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || $0 == 0x2F
        }) {
            return text
        }
        let tokens = TextToken.tokenize(text)
        var output = ""
        output.reserveCapacity(text.utf8.count + 32)
        var index = 0
        while index < tokens.count {
            if let (consumed, replacement) = match(
                tokens, at: index, numbersAreAddresses: numbersAreAddresses)
            {
                output += replacement
                index += consumed
            } else {
                output += tokens[index].text
                index += 1
            }
        }
        return output
    }

    // MARK: - Rule dispatch

    private func match(_ tokens: [TextToken], at i: Int, numbersAreAddresses: Bool) -> (Int, String)? {
        let token = tokens[i]
        switch token.kind {
        case .word:
            if let found = routeReference(tokens, at: i) { return found }
            if let found = keywordNumber(tokens, at: i) { return found }
            if let found = abbreviation(tokens, at: i) { return found }
            return nil
        case .number:
            if let found = distance(tokens, at: i) { return found }
            if let found = writtenOrdinal(tokens, at: i) { return found }
            if numbersAreAddresses { return addressNumber(tokens, at: i) }
            if language == .english, let found = houseNumber(tokens, at: i) { return found }
            return nil
        case .space, .symbol:
            return nil
        }
    }

    // MARK: - Helpers

    private func token(_ tokens: [TextToken], _ i: Int) -> TextToken? {
        i >= 0 && i < tokens.count ? tokens[i] : nil
    }

    /// True when position `i` is past the end or holds something that is not a letter or digit.
    private func isBoundary(_ tokens: [TextToken], _ i: Int) -> Bool {
        guard let next = token(tokens, i) else { return true }
        return next.kind == .space || next.kind == .symbol
    }

    /// True when `i` starts a decimal continuation (`.5`, `,25`) that belongs to the number before.
    private func isDecimalContinuation(_ tokens: [TextToken], _ i: Int) -> Bool {
        guard let separator = token(tokens, i), separator.text == "." || separator.text == ",",
            let digits = token(tokens, i + 1), digits.isNumber
        else { return false }
        return true
    }

    /// Letters spelled one by one ("US" → "U S").
    private func spelled(_ letters: Substring) -> String {
        letters.map { rules.letterName(String($0)) }.joined(separator: " ")
    }

    /// A number read the way this language reads road, exit and house numbers.
    private func roadNumber(_ digits: Substring) -> String {
        numbers.addressNumber(digits)
    }

    // MARK: - Route refs

    /// "I-280", "US-101", "A9", "M25", "B 27", "E 45", "CA-1", "A1M": capital letters, then a
    /// hyphen, nothing, or (for known prefixes) one space, then 1–4 digits, then optionally one
    /// capital letter suffix, then a boundary. After the ref, a lone compass letter is expanded
    /// in English ("I-80 W" → "I eighty West").
    private func routeReference(_ tokens: [TextToken], at i: Int) -> (Int, String)? {
        let letters = tokens[i]
        guard letters.isUppercaseASCII, letters.text.count <= 3 else { return nil }
        if let previous = token(tokens, i - 1), previous.isNumber || previous.text == "-" { return nil }
        var j = i + 1
        guard let separator = token(tokens, j) else { return nil }
        if separator.text == "-" {
            j += 1
        } else if separator.text == " " {
            guard rules.spacedRoutePrefixes.contains(String(letters.text)) else { return nil }
            j += 1
        } else if !separator.isNumber {
            return nil
        }
        guard let number = token(tokens, j), number.isNumber, number.text.count <= 4 else { return nil }
        if isDecimalContinuation(tokens, j + 1) { return nil }
        // "A 5 km" or "M 25 min" is a distance, not a road.
        if separator.text == " ", unitAt(tokens, j + 1) != nil { return nil }
        var result = "\(spelled(letters.text)) \(roadNumber(number.text))"
        j += 1
        if let suffix = token(tokens, j), suffix.isUppercaseASCII, suffix.text.count == 1 {
            result += " \(rules.letterName(String(suffix.text)))"
            j += 1
        }
        guard isBoundary(tokens, j) else { return nil }
        if let point = compassPoint(tokens, at: j) {
            result += " \(point.word)"
            j = point.end
        }
        return (j - i, result)
    }

    /// `text` with a route-ref prefix at its very end spelled ("onto US " → "onto U S "), for a
    /// ref split across segments (`US <say-as interpret-as="address">101</say-as>`); nil when
    /// the text does not end in a known prefix.
    func spellingTrailingRoutePrefix(_ text: String) -> String? {
        let body = text.reversed().drop(while: { $0 == " " })
        let trailingSpaces = text.count - body.count
        let prefix = String(body.prefix(while: { $0.isASCII && $0.isUppercase }).reversed())
        guard !prefix.isEmpty, rules.spacedRoutePrefixes.contains(prefix) else { return nil }
        let before = body.dropFirst(prefix.count).first
        if let before, before.isLetter || before.isNumber { return nil }
        let head = text.dropLast(trailingSpaces + prefix.count)
        return head + spelled(Substring(prefix)) + String(repeating: " ", count: trailingSpaces)
    }

    /// A lone compass letter after a route ref (" W", " N.") in English.
    private func compassPoint(_ tokens: [TextToken], at j: Int) -> (word: String, end: Int)? {
        guard let space = token(tokens, j), space.text == " ",
            let letter = token(tokens, j + 1), let word = rules.compassPoints[String(letter.text)],
            isBoundary(tokens, j + 2)
        else { return nil }
        if let next = token(tokens, j + 2), next.text == "-" || next.text == "/" { return nil }
        return (word, j + 2)
    }

    // MARK: - Exit, route and junction numbers

    /// "exit 432" → "exit four thirty-two"; "exits 43-44"; "Route 66"; "sortie 12"; "exit 8B".
    private func keywordNumber(_ tokens: [TextToken], at i: Int) -> (Int, String)? {
        guard rules.numberKeywords.contains(String(tokens[i].text)),
            let space = token(tokens, i + 1), space.text == " ",
            let number = token(tokens, i + 2), number.isNumber, number.text.count <= 5
        else { return nil }
        var j = i + 3
        if isDecimalContinuation(tokens, j) || unitAt(tokens, j) != nil { return nil }
        var result = "\(tokens[i].text) \(roadNumber(number.text))"
        if let suffix = token(tokens, j), suffix.isUppercaseASCII, suffix.text.count == 1 {
            result += " \(rules.letterName(String(suffix.text)))"
            j += 1
        }
        if let dash = token(tokens, j), dash.text == "-" || dash.text == "/",
            let second = token(tokens, j + 1), second.isNumber
        {
            result += " \(roadNumber(second.text))"
            j += 2
            if let suffix = token(tokens, j), suffix.isUppercaseASCII, suffix.text.count == 1 {
                result += " \(rules.letterName(String(suffix.text)))"
                j += 1
            }
        }
        guard isBoundary(tokens, j) else { return nil }
        return (j - i, result)
    }

    // MARK: - House numbers (English)

    /// "1066 Main St" → "ten sixty-six Main St": a number of 1–5 digits followed by one to four
    /// capitalised words (or an ordinal like "5th") that end in a street type.
    private func houseNumber(_ tokens: [TextToken], at i: Int) -> (Int, String)? {
        let number = tokens[i]
        guard number.text.count >= 3, number.text.count <= 5 else { return nil }
        if let previous = token(tokens, i - 1), !previous.isSpace { return nil }
        var j = i + 1
        var words = 0
        while words < 5 {
            guard let space = token(tokens, j), space.text == " ", let word = token(tokens, j + 1) else {
                return nil
            }
            if word.isCapitalized {
                if words > 0 && rules.streetTypes.contains(String(word.text)) {
                    return (1, roadNumber(number.text))
                }
                j += 2
            } else if word.isNumber, let suffix = token(tokens, j + 2), suffix.isWord,
                ["st", "nd", "rd", "th"].contains(suffix.text)
            {
                j += 3
            } else {
                return nil
            }
            words += 1
        }
        return nil
    }

    // MARK: - Bare numbers inside say-as address

    /// Inside `say-as address`: "432" → "four thirty-two", "13th" → "thirteenth", "8B" → "eight B",
    /// "43-44" → "forty-three forty-four", "No.1" → "number one".
    private func addressNumber(_ tokens: [TextToken], at i: Int) -> (Int, String)? {
        let number = tokens[i]
        if isDecimalContinuation(tokens, i + 1) { return nil }
        if let suffix = token(tokens, i + 1), suffix.isWord, let value = Int(number.text),
            ordinalSuffixes.contains(suffix.text.lowercased())
        {
            return (2, numbers.ordinal(value))
        }
        var result = roadNumber(number.text)
        var j = i + 1
        if let suffix = token(tokens, j), suffix.isWord, suffix.text.count == 1 {
            result += " \(rules.letterName(suffix.text.uppercased()))"
            j += 1
        }
        // "43-44": two exit numbers read one after the other.
        if let dash = token(tokens, j), dash.text == "-", let second = token(tokens, j + 1), second.isNumber {
            result += " \(roadNumber(second.text))"
            j += 2
        }
        return (j - i, result)
    }

    private var ordinalSuffixes: Set<String> {
        switch language {
        case .english: ["st", "nd", "rd", "th"]
        case .french: ["er", "re", "ère", "e", "ème", "eme"]
        case .german: []
        case .spanish: ["º", "ª", "o", "a", "er"]
        }
    }

    // MARK: - Distances and units

    /// The unit symbol starting at `j` (after optional single space): returns the symbol and the
    /// index after it. Only units navigation text uses: m, km, ft, yd, mi, km/h, kph, mph.
    private func unitAt(_ tokens: [TextToken], _ start: Int) -> (symbol: String, end: Int)? {
        var j = start
        if let space = token(tokens, j), space.text == " " { j += 1 }
        guard let word = token(tokens, j), word.isWord else { return nil }
        var symbol = String(word.text)
        var end = j + 1
        if symbol == "km", let slash = token(tokens, end), slash.text == "/",
            let hour = token(tokens, end + 1), hour.text == "h"
        {
            symbol = "km/h"
            end += 2
        }
        guard Self.distanceUnits.contains(symbol), isBoundary(tokens, end) else { return nil }
        // "5 m." ends a sentence; "5 mi-" is not a unit.
        if let next = token(tokens, end), next.text == "-" || next.text == "/" { return nil }
        return (symbol, end)
    }

    private static let distanceUnits: Set<String> = ["m", "km", "ft", "yd", "mi", "km/h", "kph", "mph"]

    /// "0.5 mi" → "half a mile" (en), "1.2 km" → "one point two kilometers", "500 m" →
    /// "five hundred meters", "1,5 km" → "un virgule cinq kilomètre" (fr singular below 2).
    private func distance(_ tokens: [TextToken], at i: Int) -> (Int, String)? {
        if let previous = token(tokens, i - 1),
            previous.isWord || previous.text == "." || previous.text == ","
        {
            return nil
        }
        var fraction: Substring = ""
        var j = i + 1
        if isDecimalContinuation(tokens, j) {
            fraction = tokens[j + 1].text
            j += 2
        }
        guard let unit = unitAt(tokens, j), let integer = Int(tokens[i].text) else { return nil }
        if language == .german, integer == 1, fraction.isEmpty, let name = rules.units[unit.symbol] {
            // German "1" before a unit declines like the article: "nach einem Kilometer".
            let feminine = feminineUnits.contains(unit.symbol)
            let governed = wordBefore(tokens, i).map { germanCase(after: $0.text.lowercased()) } ?? nil
            let article: String
            switch governed {
            case .dative?: article = feminine ? "einer" : "einem"
            case .accusative?: article = feminine ? "eine" : "einen"
            default: article = feminine ? "eine" : "ein"
            }
            return (unit.end - i, "\(article) \(name.singular)")
        }
        return (unit.end - i, spokenQuantity(integer: integer, fraction: fraction, unit: unit.symbol))
    }

    /// A quantity with its unit, in words, with the unit's number and gender.
    func spokenQuantity(integer: Int, fraction: Substring, unit symbol: String) -> String {
        guard let name = rules.units[symbol] else {
            return numbers.decimal(integer: integer, fraction: fraction) + " " + symbol
        }
        if language == .english && integer == 0 && fraction == "5" && symbol == "mi" {
            return "half a mile"
        }
        let isOne = integer == 1 && fraction.allSatisfy { $0 == "0" }
        let singular: Bool
        switch language {
        case .french: singular = integer < 2
        case .english, .german, .spanish: singular = isOne
        }
        let gender = feminineUnits.contains(symbol) ? GrammaticalGender.feminine : .masculine
        let amount =
            fraction.isEmpty
            ? numbers.cardinal(integer, gender: gender, isBeforeNoun: true)
            : numbers.decimal(integer: integer, fraction: fraction)
        return "\(amount) \(singular ? name.singular : name.plural)"
    }

    private var feminineUnits: Set<String> {
        switch language {
        case .english: []
        case .french: ["h", "min", "s", "t"]
        case .german: ["mi", "mph", "h", "min", "s", "t"]
        case .spanish: ["mi", "mph", "yd", "h", "t"]
        }
    }

    // MARK: - Ordinals written with digits

    /// fr "1re"/"1er"/"2e"/"3ème", es "3.ª"/"1.er"/"3º", de "3." before a known noun: read as
    /// ordinals agreeing with the marker, the article before, or the noun after. English "1st"
    /// is left to eSpeak, which reads it right.
    private func writtenOrdinal(_ tokens: [TextToken], at i: Int) -> (Int, String)? {
        guard let value = Int(tokens[i].text) else { return nil }
        if let previous = token(tokens, i - 1), previous.isWord || previous.isNumber { return nil }
        switch language {
        case .english:
            return nil
        case .french:
            guard let suffix = token(tokens, i + 1), suffix.isWord, isBoundary(tokens, i + 2) else {
                return nil
            }
            var form = context(tokens, before: i, after: i + 2)
            switch suffix.text {
            case "er": form.gender = .masculine
            case "re", "ère": form.gender = .feminine
            case "e", "ème", "eme", "è": if value == 1 { return nil }
            default: return nil
            }
            return (2, numbers.ordinal(value, form: form))
        case .spanish:
            var j = i + 1
            if let dot = token(tokens, j), dot.text == "." { j += 1 }
            guard let marker = token(tokens, j), marker.isWord, isBoundary(tokens, j + 1) else { return nil }
            var form = context(tokens, before: i, after: j + 1)
            switch marker.text {
            case "ª", "a": form.gender = .feminine
            case "º", "o": form.gender = .masculine
            case "er": form.gender = .masculine
            case "os", "as": form.isPlural = true
            default: return nil
            }
            if (marker.text == "a" || marker.text == "o") && j == i + 1 { return nil }
            if marker.text == "er" { form.isBeforeNoun = true }
            return (j + 1 - i, numbers.ordinal(value, form: form))
        case .german:
            guard let dot = token(tokens, i + 1), dot.text == ".",
                let space = token(tokens, i + 2), space.text == " ",
                let noun = token(tokens, i + 3), noun.isCapitalized,
                rules.nounGenders[String(noun.text)] != nil
            else { return nil }
            let form = context(tokens, before: i, after: i + 3)
            return (2, numbers.ordinal(value, form: form))
        }
    }

    /// The grammatical form an ordinal at a position takes: from the word before (article,
    /// preposition + article in German) and the noun after.
    func context(_ tokens: [TextToken], before i: Int, after j: Int) -> GrammaticalForm {
        var form = GrammaticalForm()
        form.hasDefiniteArticle = false
        var k = i - 1
        if let space = token(tokens, k), space.isSpace { k -= 1 }
        if let article = token(tokens, k), article.isWord,
            let found = rules.articles[article.text.lowercased()]
        {
            form = found
            form.hasDefiniteArticle = true
            if language == .german && article.text.lowercased() == "der" {
                // "an der dritten Ausfahrt" (dative) vs "der dritte Kreisverkehr" (nominative).
                var m = k - 1
                if let space = token(tokens, m), space.isSpace { m -= 1 }
                if let preposition = token(tokens, m),
                    Self.germanDativePrepositions.contains(preposition.text.lowercased())
                {
                    form.grammaticalCase = .dative
                    form.gender = .feminine
                }
            }
            if language == .german && ["die", "das"].contains(article.text.lowercased()) {
                // Nominative and accusative take the same weak ending for these.
                form.gender = article.text.lowercased() == "die" ? .feminine : .neuter
            }
        }
        var n = j
        if let space = token(tokens, n), space.isSpace { n += 1 }
        if let noun = token(tokens, n), noun.isWord {
            let key = language == .german ? String(noun.text) : noun.text.lowercased()
            if let gender = rules.nounGenders[key] {
                if form.gender == nil || language != .german { form.gender = gender }
                form.isBeforeNoun = true
            }
        }
        return form
    }

    /// The case a German preposition before a distance governs ("nach" → dative, "für" →
    /// accusative); nil when unknown.
    private func germanCase(after preposition: String) -> GrammaticalCase? {
        if ["in", "nach", "bei", "mit", "von", "aus", "zu", "seit", "ab", "nach"].contains(preposition) {
            return .dative
        }
        if ["für", "um", "über", "durch", "etwa", "noch"].contains(preposition) { return .accusative }
        return nil
    }

    private static let germanDativePrepositions: Set<String> = [
        "an", "in", "auf", "bei", "nach", "von", "zu", "mit", "aus", "vor", "hinter", "über", "unter",
        "neben", "zwischen", "ab",
    ]

    // MARK: - Abbreviations

    /// Unambiguous abbreviations (Ave, Blvd, Av., Bd, Str., Avda., C/) anywhere; "St"/"Dr" only
    /// where the position decides (after a name: Street/Drive; before a name at the start of a
    /// name: Saint/Doctor); German "-str." / "-pl." at the end of a compound.
    private func abbreviation(_ tokens: [TextToken], at i: Int) -> (Int, String)? {
        let word = tokens[i]
        let key = String(word.text)
        let hasDot = token(tokens, i + 1)?.text == "."
        var end = hasDot ? i + 2 : i + 1
        // A dot at the very end (or before a new sentence) is the sentence's full stop: keep it.
        let trailing = hasDot && isSentenceEnd(tokens, i + 2) ? "." : ""

        if language == .spanish, key == "C", token(tokens, i + 1)?.text == "/",
            token(tokens, i + 2)?.isSpace == true || token(tokens, i + 2)?.isCapitalized == true
        {
            return (2, "Calle" + (token(tokens, i + 2)?.isSpace == true ? "" : " "))
        }
        if language == .german, hasDot, key.count > 4 {
            for (suffix, full) in [("str", "straße"), ("pl", "platz")] where key.hasSuffix(suffix) {
                return (end - i, key.dropLast(suffix.count) + full + trailing)
            }
        }
        if language == .english, key == "No", hasDot,
            token(tokens, i + 2)?.isNumber == true
                || (token(tokens, i + 2)?.isSpace == true && token(tokens, i + 3)?.isNumber == true)
        {
            return (2, rules.numberWord + (token(tokens, i + 2)?.isSpace == true ? "" : " "))
        }
        guard isBoundary(tokens, end) || hasDot else { return nil }
        if let previous = token(tokens, i - 1), previous.text == "-" || previous.isNumber { return nil }
        // "500 Ft": after a number it is a unit, not an abbreviation of a name.
        if token(tokens, i - 1)?.isSpace == true, token(tokens, i - 2)?.isNumber == true { return nil }
        if let full = rules.abbreviations[key] {
            return (end - i, full + trailing)
        }
        let previousWord = wordBefore(tokens, i)
        let nextWord = wordAfter(tokens, end)
        if let street = rules.streetSuffixes[key], let previousWord,
            previousWord.isCapitalized || isOrdinalWord(tokens, endingAt: i - 2)
        {
            // After a name: "Main St", "5th St". Not when a capitalised name follows ("Main St Paul").
            if let nextWord, nextWord.isCapitalized, !isCompassWord(nextWord.text) {
                // "Take St Charles": the capital is the sentence's, not a name's; go on to the
                // prefix rule below. Otherwise ("Main St Paul") it is ambiguous: leave it.
                guard isLeadingVerb(tokens, i - 2) else { return nil }
            } else {
                return (end - i, street + trailing)
            }
        }
        if let prefix = rules.namePrefixes[key] {
            let hyphenated = token(tokens, end)?.text == "-" && token(tokens, end + 1)?.isCapitalized == true
            if hyphenated {
                return (end - i, prefix)
            }
            guard let nextWord, nextWord.isCapitalized, token(tokens, end)?.isSpace == true else {
                return nil
            }
            // Where the abbreviation is also a street type (English "St"), a name before it
            // makes it ambiguous ("Main St Paul"): leave it.
            if rules.streetSuffixes[key] != nil {
                if let previousWord, previousWord.isCapitalized, !isLeadingVerb(tokens, i - 2) { return nil }
                if isOrdinalWord(tokens, endingAt: i - 2) { return nil }
            }
            end = hasDot ? i + 2 : i + 1
            return (end - i, prefix)
        }
        return nil
    }

    /// True when the word at `k` is a navigation verb opening the text or a sentence ("Take St
    /// Charles": "Take" is capitalised because it starts the sentence, not because it is a name).
    private func isLeadingVerb(_ tokens: [TextToken], _ k: Int) -> Bool {
        guard let word = token(tokens, k), Self.leadingVerbs.contains(word.text) else { return false }
        var m = k - 1
        if let space = token(tokens, m), space.isSpace { m -= 1 }
        guard let previous = token(tokens, m) else { return true }
        return previous.kind == .symbol && ".!?:;\"(,".contains(previous.text)
    }

    private static let leadingVerbs: Set<Substring> = [
        "Take", "Turn", "Continue", "Keep", "Head", "Drive", "Merge", "Exit", "Follow", "Go", "Stay", "Bear",
        "Enter", "Use", "Make", "Toward", "Towards", "Onto", "Via", "Then", "Cross", "Pass",
    ]

    /// The word right before `i` (one space between), if any.
    private func wordBefore(_ tokens: [TextToken], _ i: Int) -> TextToken? {
        guard let space = token(tokens, i - 1), space.text == " ", let word = token(tokens, i - 2),
            word.isWord
        else { return nil }
        return word
    }

    /// The word right after `i` (one space between), if any.
    private func wordAfter(_ tokens: [TextToken], _ i: Int) -> TextToken? {
        guard let space = token(tokens, i), space.text == " ", let word = token(tokens, i + 1), word.isWord
        else { return nil }
        return word
    }

    /// "5th", "21st" ending at index `k` (the suffix word).
    private func isOrdinalWord(_ tokens: [TextToken], endingAt k: Int) -> Bool {
        guard let suffix = token(tokens, k), suffix.isWord, ["st", "nd", "rd", "th"].contains(suffix.text),
            let number = token(tokens, k - 1), number.isNumber
        else { return false }
        return true
    }

    private func isCompassWord(_ word: Substring) -> Bool {
        ["N", "S", "E", "W", "North", "South", "East", "West", "NE", "NW", "SE", "SW"].contains(word)
    }

    /// True at the end of the text or before whitespace followed by nothing or a newline.
    private func isSentenceEnd(_ tokens: [TextToken], _ i: Int) -> Bool {
        guard let next = token(tokens, i) else { return true }
        return next.isSpace && (token(tokens, i + 1) == nil || next.text.contains("\n"))
    }
}
