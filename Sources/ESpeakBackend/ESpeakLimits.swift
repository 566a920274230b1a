import Foundation

/// What one eSpeak NG call can take without overrunning the library's fixed buffers, and how
/// much speech one utterance may make.
///
/// libespeak-ng 1.51 translates a clause in fixed arrays and does not check every bound: a word
/// of phonemes is encoded into `word_phonemes[200]` with no check (`[[tttt…]]` with 200 or more
/// phoneme codes in one word overflows it; about 350 segfaults the process), and within one
/// clause a long run of digits, of letters and dots (`a.a.a.…`, read as one abbreviation into
/// `word[160]`) or of letters and digits (`a1a1…`) overruns stack buffers in `TranslateClause`,
/// `LookupDictList` and `LookupDict2`. Measured by bisection against libespeak-ng 1.51 built with
/// AddressSanitizer (en, fr, de, es; see docs/architecture.md): every shape tried is clean when
/// each clause holds at most 150 bytes, and a phoneme word at most 199 codes, while clauses of
/// 162 bytes (`a.` × 81), 300 bytes (`a1` × 150) or 2,806 digits are not.
///
/// So every call is cut before it reaches eSpeak: a clause longer than ``maxClauseBytes`` gets a
/// comma (a clause break to eSpeak) at its last space, or inside a word with no space, a word
/// longer than ``maxWordBytes`` gets a space, and a phoneme word longer than
/// ``maxPhonemeWordBytes`` is split into words. Each cut is a warning.
/// Navigation prompts never come near: a long instruction's clause is about 60 bytes.
enum ESpeakLimits {
    /// Most UTF-8 bytes between two clause breaks in text handed to eSpeak.
    static let maxClauseBytes = 150
    /// Most UTF-8 bytes in one word (between white space) of text handed to eSpeak: English
    /// rules (which French also uses for such words) let a word stack suffixes (`'s`, `ness`,
    /// `ings`), and libespeak-ng 1.51 gathers their phonemes into `end_phonemes[200]` with an
    /// unbounded `strcat`: `s'` × 68 (136 bytes) aborts the process ("buffer overflow detected")
    /// with en-us and fr, × 66 is clean (eSpeak NG's pull request 2495). 100 bytes leave room.
    static let maxWordBytes = 100
    /// Most single letters with a dot in a row (`a.b.c.`): eSpeak joins them into one
    /// abbreviation in a 160-byte buffer, across spaces and commas.
    static let maxDottedLetters = 12
    /// Most digits (with the dots and commas between them) in one number: eSpeak groups a number
    /// into `number_buf[150]`, stops at 130 bytes and then scans past its end.
    static let maxDigitRun = 48
    /// Most bytes in one word of eSpeak phoneme mnemonics (each code takes at least one byte;
    /// eSpeak's buffer holds 199 codes).
    static let maxPhonemeWordBytes = 150
    /// Seconds of speech per character at 1 word per minute: eSpeak NG speaks about
    /// 0.06 s per character at 175 wpm, 0.13 s at 80 wpm and 0.022 s at 450 wpm (measured with
    /// `espeak-ng -s RATE -w` on sentences, spelled-out digits and abbreviations), so 10.5 / rate.
    static let secondsPerCharacterAtOneWPM = 10.5

    /// `input` as eSpeak can take it: text with its symbols kept apart and its clauses and words
    /// cut to size, or the words of `[[phonemes]]` cut to size.
    ///
    /// Symbols are kept apart first, so that the cuts (and their warnings) count the spaces added.
    ///
    /// - Returns: the input, and a warning when something was cut.
    static func bounded(_ input: String, isPhonemeInput: Bool) -> (input: String, warning: String?) {
        if isPhonemeInput, input.hasPrefix("[["), input.hasSuffix("]]"), input.count >= 4 {
            let inner = String(input.dropFirst(2).dropLast(2))
            let (words, cuts) = boundedPhonemes(inner)
            guard cuts > 0 else { return (input, nil) }
            return (
                "[[\(words)]]",
                "a phoneme word longer than eSpeak NG's \(maxPhonemeWordBytes) symbols was split into "
                    + "\(cuts + 1) words"
            )
        }
        let separated = isPhonemeInput ? input : withSeparatedSymbols(input)
        let (text, cuts, wordCuts) = boundedText(separated)
        guard cuts + wordCuts > 0 else { return (separated, nil) }
        var warnings: [String] = []
        if cuts > 0 {
            warnings.append(
                "text with no clause break for more than \(maxClauseBytes) bytes was cut into clauses "
                    + "(\(cuts) comma\(cuts == 1 ? "" : "s") added): eSpeak NG cannot speak longer clauses")
        }
        if wordCuts > 0 {
            warnings.append(
                "a word longer than \(maxWordBytes) bytes was split (\(wordCuts) space\(wordCuts == 1 ? "" : "s") "
                    + "added): eSpeak NG cannot speak longer words")
        }
        return (text, warnings.joined(separator: "; "))
    }

    /// `text` with a space after a final `..`: eSpeak NG 1.51 reads past the end of a text that
    /// ends in two dots (AddressSanitizer: heap-buffer-overflow in `string_decoder_getc_utf_8`).
    static func endingSafely(_ text: String) -> String {
        text.hasSuffix("..") ? text + " " : text
    }

    /// `text` without the characters libespeak-ng 1.51 reads freed memory on with the voice
    /// `voice` (as selected, `en-us+f3`; nil: any voice), measured character by character under
    /// valgrind (see ``ESpeakUnsafeCharacters``; the `ssml_render` fuzz target found the first,
    /// `..ϱςP=` with es, and the unassigned U+058C). Each becomes its compatibility form when
    /// that is a plain letter (ϱ ρ, ϑ θ, ϕ φ, ϲ ς), else a space; code points Unicode has not
    /// assigned, or assigned after the scanned version, are never handed over.
    static func withSafeCharacters(_ text: String, voice: String? = nil) -> String {
        let rule = ESpeakUnsafeCharacters.rule(forVoice: voice)
        guard text.unicodeScalars.contains(where: rule.isUnsafe) else { return text }
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard rule.isUnsafe(scalar) else {
                output.append(scalar)
                continue
            }
            let folded = String(scalar).precomposedStringWithCompatibilityMapping.unicodeScalars
            if !folded.isEmpty,
                folded.allSatisfy({ !rule.isUnsafe($0) && $0.properties.isAlphabetic })
            {
                output.append(contentsOf: folded)
            } else {
                output.append(" ")
            }
        }
        return String(output)
    }

    /// `text` with each word of a switched alphabet cut where eSpeak NG would fault on it.
    ///
    /// eSpeak NG speaks a word of another alphabet (``ESpeakUnsafeCharacters/switchedAlphabets``:
    /// Greek, Armenian, the Indic scripts, Georgian, Hangul) by switching language, and libespeak-ng
    /// 1.51 then reads a translator it has freed when the word also holds an apostrophe, a prime, a
    /// length mark or a question mark (`Σ'Σ`, `ΣˈΣ`, `Σ?a`, `8'Σ` with fr, de and es; `한'한`, `Ա'Ա`
    /// with en-us), or a letter, digit or mark of another alphabet (`ΣдΣ`, `Σ\u{93E}Σ`, `한০한`),
    /// while each letter alone is clean (valgrind; the `ssml_render` fuzz target found `Ϲ'Ϲ%Q%Ϲp`
    /// with fr, 2026-12-02). So in a word (between white space) with a letter of such an alphabet,
    /// other than the voice's own, every character but letters, marks, digits and `. , ; : !`
    /// becomes a space, and a space goes between two characters of different alphabets. Latin
    /// words are left alone (`l'homme`). A letter or mark eSpeak has no rule for
    /// (``ESpeakUnsafeCharacters/unspokenInWords``: `Ͳθ`, `აႠბ`) becomes a space too.
    static func withSafeWords(_ text: String, voice: String? = nil) -> String {
        let rule = ESpeakUnsafeCharacters.rule(forVoice: voice)
        guard text.unicodeScalars.contains(where: rule.isSwitched) else { return text }
        var output = String.UnicodeScalarView()
        var word: [Unicode.Scalar] = []
        func flush() {
            if word.contains(where: rule.isSwitched) {
                appendSeparated(word, to: &output)
            } else {
                output.append(contentsOf: word)
            }
            word.removeAll(keepingCapacity: true)
        }
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                flush()
                output.append(scalar)
            } else {
                word.append(scalar)
            }
        }
        flush()
        return String(output)
    }

    /// `text` with each dot after a letter right after it, and a space after such a dot that
    /// ends a lone letter (`a . а . ա`, `a.а. ա` → `a. а. ա`), when it holds a character eSpeak
    /// NG hands another language's translator.
    ///
    /// libespeak-ng 1.51 takes lone letters joined by dots for one abbreviation and spells it;
    /// when one letter is of an alphabet it speaks by switching language and another is not
    /// (`a . а . ա`, `a.а. ա`, `অ .ก .ϰ`), the switched translator meets the rest, switches back
    /// to English and reads the translator it has just freed (AddressSanitizer: heap-use-after-free
    /// in `SetWordStress` or a dictionary lookup). With en-us, 327 of the 3,375 texts `X . Y . Z`
    /// of 15 letters of 13 alphabets fault, and 467 of `X .Y .Z`; none of `X. Y. Z` (the ASan
    /// build, 2026-12-06). Every one holds a letter of ``ESpeakUnsafeCharacters/languageSwitching``.
    /// The other filters make the shape too: a sign they drop for a space (`aʹ.` → `a .`).
    static func withDotsAttached(_ text: String) -> String {
        let switching = ESpeakUnsafeCharacters.languageSwitching
        guard text.contains("."),
            text.unicodeScalars.contains(where: { ESpeakUnsafeCharacters.contains($0.value, switching) })
        else { return text }
        var output: [Unicode.Scalar] = []
        var spaces: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                spaces.append(scalar)
                continue
            }
            let last = output.last
            if scalar == ".", let last, last.properties.isAlphabetic {
                spaces.removeAll()
            } else if spaces.isEmpty, last == ".", scalar.properties.isAlphabetic, endsLoneLetterDot(output) {
                spaces.append(" ")
            }
            output.append(contentsOf: spaces)
            spaces.removeAll(keepingCapacity: true)
            output.append(scalar)
        }
        output.append(contentsOf: spaces)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: output)
        return String(view)
    }

    /// Whether `scalars` end in a lone letter and a dot: a letter after the start, white space or
    /// a dot (`a.`, `x a.`, `a.b.`).
    private static func endsLoneLetterDot(_ scalars: [Unicode.Scalar]) -> Bool {
        guard scalars.count >= 2, scalars[scalars.count - 1] == ".",
            scalars[scalars.count - 2].properties.isAlphabetic
        else { return false }
        guard scalars.count >= 3 else { return true }
        let before = scalars[scalars.count - 3]
        return before == "." || before.properties.isWhitespace
    }

    /// Appends `word` with its joining marks made spaces and a space between alphabets.
    private static func appendSeparated(_ word: [Unicode.Scalar], to output: inout String.UnicodeScalarView) {
        var current: WordAlphabet?
        for scalar in word {
            switch WordAlphabet(scalar) {
            case nil where ".,;:!".unicodeScalars.contains(scalar), .some(.inherited):
                output.append(scalar)
            case nil:
                output.append(" ")
                current = nil
            case let alphabet?:
                if let current, current != alphabet { output.append(" ") }
                output.append(scalar)
                current = alphabet
            }
        }
    }

    /// Which alphabet a letter, mark or digit of a word belongs to, as far as eSpeak NG's
    /// language switching goes (nil: anything else, a joining mark).
    private enum WordAlphabet: Equatable {
        /// Basic Latin to Latin Extended-B, with the ASCII digits.
        case latin
        /// One of ``ESpeakUnsafeCharacters/switchedAlphabets`` (its first code point).
        case switched(UInt32)
        /// The combining diacritics (U+0300–U+036F), which go with any letter (`Σ\u{301}Σ` is clean).
        case inherited
        /// Any other: its block of 128 code points.
        case block(UInt32)

        init?(_ scalar: Unicode.Scalar) {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter, .nonspacingMark,
                .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
                break
            default:
                return nil
            }
            let value = scalar.value
            if ESpeakUnsafeCharacters.contains(value, ESpeakUnsafeCharacters.unspokenInWords) {
                return nil
            } else if value < 0x250 {
                self = .latin
            } else if (0x300...0x36F).contains(value) {
                self = .inherited
            } else if let alphabet = ESpeakUnsafeCharacters.switchedAlphabet(of: value) {
                self = .switched(alphabet)
            } else {
                self = .block(value >> 7)
            }
        }
    }

    /// `text` with a space between each symbol, punctuation mark or number sign beyond ASCII
    /// and a neighbour that is not white space or a Latin letter or digit (`.😝` → `. 😝`,
    /// `😝😝` → `😝 😝`, `↗,` → `↗ ,`, `۰😝` → `۰ 😝`).
    ///
    /// libespeak-ng 1.51 spells such a character inside a word through `LookupLetter` into
    /// `ph_buf[40]` of `TranslateRules`, and copies the dictionary's text for it there unchecked:
    /// an emoji whose name is 40 bytes or more (de `😝`, 65; fr `😻`; es `↙`, `↗`; fr `⁉`) with
    /// a dot, a comma, a bracket, another emoji or an Arabic-Indic digit before it, or a comma,
    /// a bracket or `$` after it, overflows that stack buffer, and with en-us `😝௳` overflows by
    /// 156 bytes. Indic signs and number signs next to punctuation (`.৺`, `.௹`, `৴[`, `(௰`)
    /// read a freed translator instead (en-us, es). Found with libespeak-ng built with
    /// AddressSanitizer (Fuzz/espeak-asan.sh, 2026-12-03); apart, and between Latin letters or
    /// digits, each is clean.
    static func withSeparatedSymbols(_ text: String) -> String {
        // Found clean beside every symbol: white space and Latin letters and digits (an
        // Arabic-Indic digit before an emoji overflowed `ph_buf` like punctuation does).
        func isSafeNeighbour(_ scalar: Unicode.Scalar) -> Bool {
            if scalar.properties.isWhitespace { return true }
            let isLatin = scalar.value < 0x250 || (0x1E00...0x1EFF).contains(scalar.value)
            return isLatin && isLetterOrDigit(scalar)
        }
        func needsSpace(between previous: Unicode.Scalar, and scalar: Unicode.Scalar) -> Bool {
            isSpelledApart(scalar) && !isSafeNeighbour(previous)
                || isSpelledApart(previous) && !isSafeNeighbour(scalar)
                || isSwitched(scalar, afterSign: previous)
        }
        var output = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        var separated = false
        for scalar in text.unicodeScalars {
            if let previous, needsSpace(between: previous, and: scalar) {
                output.append(" ")
                separated = true
            }
            output.append(scalar)
            previous = scalar
        }
        return separated ? String(output) : text
    }

    /// Whether `scalar` is a character eSpeak NG hands to another language's translator
    /// (``ESpeakUnsafeCharacters/languageSwitching``) and `previous` a punctuation mark or
    /// symbol, or a digit or number sign beyond ASCII of another block.
    ///
    /// There libespeak-ng 1.51 switches to that language for the word, whose translator meets
    /// the sign, switches back to English for it and reads the translator it has just freed:
    /// `,꣑`, `a-꣑`, `(꣑`, `١꣑` (U+A8D1 SAURASHTRA DIGIT ONE, which eSpeak takes for Korean)
    /// with en-us, fr, de and es, and Devanagari's danda after `-` (valgrind, Tools/espeak-scan
    /// with `PREFIX`; the `ssml_render` fuzz target found `!-꣑` through the ASan build,
    /// 2026-12-04). After white space, a letter or an ASCII digit each is clean.
    private static func isSwitched(_ scalar: Unicode.Scalar, afterSign previous: Unicode.Scalar) -> Bool {
        guard ESpeakUnsafeCharacters.contains(scalar.value, ESpeakUnsafeCharacters.languageSwitching) else {
            return false
        }
        if isSign(previous) { return true }
        let category = previous.properties.generalCategory
        let isNumber = [.decimalNumber, .letterNumber, .otherNumber].contains(category)
        return isNumber && !previous.isASCII && previous.value >> 7 != scalar.value >> 7
    }

    /// Whether `scalar` is a letter or digit eSpeak NG reads as part of a word (not a number
    /// sign it spells by name).
    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        isAlphanumeric(scalar) && !isSpelledApart(scalar)
    }

    /// Whether eSpeak NG spells `scalar` by its name when it is part of a word: a symbol, a
    /// punctuation mark or a number sign (`½`, `৴`, `௰`) beyond ASCII.
    private static func isSpelledApart(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.isASCII && (isSign(scalar) || scalar.properties.generalCategory == .otherNumber)
    }

    /// Whether `scalar` is a punctuation mark or a symbol.
    private static func isSign(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol, .connectorPunctuation,
            .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation:
            return true
        default:
            return false
        }
    }

    /// Text as eSpeak NG is handed it with `voice`: symbols kept apart, cut to its limits,
    /// without the characters and words it cannot take, and not ending in `..` (phoneme input
    /// is only cut).
    static func prepared(_ text: String, isPhonemeInput: Bool, voice: String? = nil) -> String {
        let bounded = bounded(text, isPhonemeInput: isPhonemeInput).input
        guard !isPhonemeInput else { return endingSafely(bounded) }
        let safe = withSafeWords(withSafeCharacters(bounded, voice: voice), voice: voice)
        return endingSafely(withDotsAttached(safe))
    }

    /// The estimated length of `input` spoken at `rate` words per minute, in seconds.
    static func estimatedSeconds(of input: String, rate: Int) -> Double {
        Double(input.unicodeScalars.count) * secondsPerCharacterAtOneWPM / Double(max(rate, 1))
    }

    /// Text with a comma and space added wherever a clause would run past ``maxClauseBytes``.
    ///
    /// A clause ends, for this count, only where eSpeak surely ends one: `, ; : ! ?` after a letter
    /// or digit, followed by white space. Beyond ``maxDottedLetters`` single letters with dots in
    /// a row, the dots become spaces (the letters are still spoken); a number of more than
    /// ``maxDigitRun`` digits gets a space, and so does a word of more than ``maxWordBytes``
    /// (counted apart, as `wordCuts`).
    static func boundedText(_ text: String) -> (text: String, cuts: Int, wordCuts: Int) {
        // Too short for any limit.
        guard text.utf8.count > 2 * maxDottedLetters else { return (text, 0, 0) }
        var output = String.UnicodeScalarView()
        var clause: [Unicode.Scalar] = []
        var clauseBytes = 0
        var cuts = 0
        var dottedLetters = 0
        var digitRun = 0
        var wordBytes = 0
        var wordCuts = 0
        for original in text.unicodeScalars {
            var scalar = original
            if ("0"..."9").contains(scalar) || (digitRun > 0 && (scalar == "." || scalar == ",")) {
                digitRun += 1
                if digitRun > maxDigitRun {
                    // A space ends the number for eSpeak (a comma could join groups again).
                    clause.append(" ")
                    clauseBytes += 1
                    digitRun = 1
                    wordBytes = 0
                    cuts += 1
                }
            } else {
                digitRun = 0
            }
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if let previous = clause.last ?? output.last,
                    previous.properties.isAlphabetic || previous.properties.numericType != nil
                {
                    dottedLetters = 0
                }
            } else if scalar == ".",
                isSingleLetter(clause.isEmpty ? Array(output.suffix(2)) : Array(clause.suffix(2)))
            {
                dottedLetters += 1
                if dottedLetters > maxDottedLetters {
                    scalar = " "
                    cuts += 1
                }
            }
            let size = UTF8.width(scalar)
            if scalar.properties.isWhitespace {
                wordBytes = 0
            } else if wordBytes + size > maxWordBytes {
                clause.append(" ")
                clauseBytes += 1
                wordBytes = 0
                wordCuts += 1
            }
            if clauseBytes + size > maxClauseBytes {
                let cut = breakPoint(in: clause)
                let kept = Array(clause[cut.resume...])
                output.append(contentsOf: clause[..<cut.end])
                output.append(contentsOf: ", ".unicodeScalars)
                clause = kept
                clauseBytes = kept.reduce(0) { $0 + UTF8.width($1) }
                cuts += 1
                // The comma ends the word too: what goes on is the end of `kept`.
                wordBytes = kept.reversed().prefix { !$0.properties.isWhitespace }.reduce(0) {
                    $0 + UTF8.width($1)
                }
            }
            clause.append(scalar)
            clauseBytes += size
            if !scalar.properties.isWhitespace { wordBytes += size }
            if scalar.properties.isWhitespace, endsClause(clause.dropLast()) {
                output.append(contentsOf: clause)
                clause = []
                clauseBytes = 0
            }
        }
        output.append(contentsOf: clause)
        return (String(output), cuts, wordCuts)
    }

    /// Where to cut a clause that is too long, so that the comma added follows a letter or digit
    /// (after a dot, eSpeak does not end the clause there): its last space after one (the space
    /// is replaced), else between two letters or digits inside a word, else at its end, or just
    /// before a symbol that ends it (a comma may not touch a symbol spelled by name, see
    /// `withSeparatedSymbols`). The clause is `clause[..<end]`; the next one starts at `resume`.
    private static func breakPoint(in clause: [Unicode.Scalar]) -> (end: Int, resume: Int) {
        let inner = clause.indices.dropFirst()
        if let space = inner.last(where: {
            clause[$0].properties.isWhitespace && isLetterOrDigit(clause[$0 - 1])
        }) {
            return (space, space + 1)
        }
        if let inside = inner.last(where: { isLetterOrDigit(clause[$0]) && isLetterOrDigit(clause[$0 - 1]) })
        {
            return (inside, inside)
        }
        if let last = clause.last, isSpelledApart(last), clause.count > 1 {
            return (clause.count - 1, clause.count - 1)
        }
        return (clause.count, clause.count)
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// Whether `tail` (the last two scalars) ends in a letter that follows no letter or digit.
    private static func isSingleLetter(_ tail: [Unicode.Scalar]) -> Bool {
        guard let last = tail.last, last.properties.isAlphabetic else { return false }
        guard tail.count == 2 else { return true }
        return !(tail[0].properties.isAlphabetic || tail[0].properties.numericType != nil)
    }

    /// Whether `clause` ends in punctuation that eSpeak surely takes as the end of a clause:
    /// `, ; : ! ?` after a letter or digit (a dot is not: `a. b` may be an abbreviation).
    private static func endsClause(_ clause: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let last = clause.last, ",;:!?".unicodeScalars.contains(last) else { return false }
        guard let before = clause.dropLast().last else { return false }
        return before.properties.isAlphabetic || before.properties.numericType != nil
    }

    /// Phoneme mnemonics with every word longer than ``maxPhonemeWordBytes`` split by spaces.
    static func boundedPhonemes(_ phonemes: String) -> (phonemes: String, cuts: Int) {
        var output = String.UnicodeScalarView()
        var wordBytes = 0
        var cuts = 0
        for scalar in phonemes.unicodeScalars {
            if scalar.properties.isWhitespace {
                wordBytes = 0
            } else {
                if wordBytes + UTF8.width(scalar) > maxPhonemeWordBytes {
                    output.append(" ")
                    wordBytes = 0
                    cuts += 1
                }
                wordBytes += UTF8.width(scalar)
            }
            output.append(scalar)
        }
        return (String(output), cuts)
    }
}
