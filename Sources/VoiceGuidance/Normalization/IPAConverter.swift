import Foundation

/// Converts IPA and X-SAMPA transcriptions into eSpeak NG phoneme mnemonics, the notation
/// eSpeak reads between `[[` and `]]` (eSpeak itself ignores IPA there).
///
/// Each language has its own table, because eSpeak's phoneme names are per language (English
/// `A:` is [ɑː]; German has no bare `Y`). Conversion is a longest-match scan over Unicode
/// scalars: affricates, diphthongs and long vowels (`tʃ`, `eɪ`, `ɑː`) are matched before their
/// parts. Stress marks `ˈ ˌ` become `'` `,` (eSpeak applies them to the next vowel, so IPA's
/// placement before the onset works). Syllable dots, tie bars, aspiration and a length mark
/// after a consonant are dropped. Any other symbol is unmapped: the conversion fails and names
/// it, so the caller can speak the text and warn.
public enum IPAConverter {
    /// The eSpeak mnemonics for `spec` in `language`, or the symbols that have no mapping.
    public static func convert(_ spec: PhonemeSpec, language: NormalizationLanguage)
        -> Result<String, PhonemeConversionError>
    {
        conversion(spec, language: language).map(\.mnemonics)
    }

    /// The eSpeak mnemonics for `spec` in `language` with the diacritics that were dropped
    /// (eSpeak has no notation for them), or the symbols that have no mapping.
    public static func conversion(_ spec: PhonemeSpec, language: NormalizationLanguage)
        -> Result<IPAConversion, PhonemeConversionError>
    {
        do {
            switch spec.alphabet {
            case .ipa: return .success(try convertIPA(spec.symbols, language: language))
            case .xSampa:
                let ipa = try self.ipa(fromXSAMPA: spec.symbols)
                return .success(try convertIPA(ipa, language: language))
            }
        } catch {
            return .failure(error)
        }
    }

    /// IPA → eSpeak mnemonics for `language` (no `[[ ]]` around them).
    public static func espeakPhonemes(fromIPA ipa: String, language: NormalizationLanguage)
        throws(PhonemeConversionError) -> String
    {
        try convertIPA(ipa, language: language).mnemonics
    }

    /// IPA → eSpeak mnemonics for `language`, and the diacritics dropped on the way.
    static func convertIPA(_ ipa: String, language: NormalizationLanguage)
        throws(PhonemeConversionError) -> IPAConversion
    {
        let table = IPATables.table(for: language)
        let scalars = Array(ipa.unicodeScalars)
        var output = ""
        var unmapped: [String] = []
        var dropped: [String] = []
        var index = 0
        var lastWasVowel = false
        while index < scalars.count {
            var matched = false
            for length in stride(from: min(table.longestKey, scalars.count - index), through: 1, by: -1) {
                var key = String.UnicodeScalarView()
                key.append(contentsOf: scalars[index..<(index + length)])
                let keyString = String(key)
                let isRColoured = length > 1 && (keyString.hasSuffix("r") || keyString.hasSuffix("ɹ"))
                if isRColoured, index + length < scalars.count,
                    table.vowelStarts.contains(scalars[index + length])
                {
                    continue  // the r starts the next syllable: "ˈɛvəri" is ɛ v ə r i
                }
                if let value = table.map[keyString] {
                    output += value
                    lastWasVowel = table.vowels.contains(keyString)
                    index += length
                    matched = true
                    break
                }
            }
            if matched { continue }
            let scalar = scalars[index]
            if IPATables.ignored.contains(scalar) {
                index += 1
                continue
            }
            if IPATables.droppedDiacritics.contains(scalar) || (scalar == "ː" && !lastWasVowel) {
                let symbol = String(scalar)
                if !dropped.contains(symbol) { dropped.append(symbol) }
                index += 1
                continue
            }
            if scalar == "ː" {
                // A length mark after a vowel whose long form the table lacks: eSpeak's `:`.
                output += ":"
                index += 1
                continue
            }
            if scalar.properties.isWhitespace {
                if !output.hasSuffix(" ") && !output.isEmpty { output += " " }
                index += 1
                continue
            }
            let symbol = String(scalar)
            if !unmapped.contains(symbol) { unmapped.append(symbol) }
            index += 1
        }
        if !unmapped.isEmpty {
            throw PhonemeConversionError(alphabet: .ipa, unmappedSymbols: unmapped, language: language)
        }
        let trimmed = output.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty {
            throw PhonemeConversionError(alphabet: .ipa, unmappedSymbols: [], language: language)
        }
        return IPAConversion(mnemonics: trimmed, droppedDiacritics: dropped)
    }

    /// X-SAMPA → IPA (the standard ASCII transliteration; `r\` is ɹ, `"` primary stress).
    public static func ipa(fromXSAMPA xsampa: String) throws(PhonemeConversionError) -> String {
        let characters = Array(xsampa)
        var output = ""
        var unmapped: [String] = []
        var index = 0
        while index < characters.count {
            var matched = false
            for length in stride(from: min(3, characters.count - index), through: 1, by: -1) {
                let key = String(characters[index..<(index + length)])
                if let value = IPATables.xsampa[key] {
                    output += value
                    index += length
                    matched = true
                    break
                }
            }
            if matched { continue }
            let character = characters[index]
            if character.isWhitespace {
                output += " "
            } else if !unmapped.contains(String(character)) {
                unmapped.append(String(character))
            }
            index += 1
        }
        if !unmapped.isEmpty {
            throw PhonemeConversionError(alphabet: .xSampa, unmappedSymbols: unmapped, language: nil)
        }
        return output
    }
}

/// A converted transcription.
public struct IPAConversion: Sendable, Equatable {
    /// eSpeak NG mnemonics (no `[[ ]]` around them).
    public var mnemonics: String
    /// Diacritics eSpeak has no notation for, dropped (in order of first appearance); a length
    /// mark after a consonant is one of them.
    public var droppedDiacritics: [String]

    /// A warning naming the dropped diacritics, or nil when none were.
    public var warning: String? {
        guard !droppedDiacritics.isEmpty else { return nil }
        let names = droppedDiacritics.map { symbol in
            let codes = symbol.unicodeScalars.map { "U+" + hex($0.value) }.joined(separator: " ")
            return "'\u{25CC}\(symbol)' (\(codes))"
        }
        return
            "eSpeak NG cannot do IPA diacritic\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")); "
            + "dropped"
    }
}

/// A transcription that cannot be converted: it names the symbols with no mapping.
public struct PhonemeConversionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var alphabet: PhonemeSpec.Alphabet
    /// The symbols that have no mapping, in order of first appearance.
    public var unmappedSymbols: [String]
    public var language: NormalizationLanguage?

    public var description: String {
        if unmappedSymbols.isEmpty { return "\(alphabet.rawValue) transcription is empty" }
        let names = unmappedSymbols.map { symbol in
            let codes = symbol.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
            return "'\(symbol)' (\(codes.joined(separator: " ")))"
        }
        let place = language.map { " for \($0.rawValue)" } ?? ""
        return "no eSpeak mapping\(place) for \(alphabet.rawValue) symbol\(names.count == 1 ? "" : "s") "
            + names.joined(separator: ", ")
    }
}
