/// A piece of text as the normaliser's scanners see it.
struct TextToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A run of letters (any script), including `ª`/`º`.
        case word
        /// A run of ASCII digits.
        case number
        /// A run of whitespace.
        case space
        /// Any other single character: punctuation, `-`, `/`, `°`, `%`.
        case symbol
    }

    var kind: Kind
    var text: Substring

    var isWord: Bool { kind == .word }
    var isNumber: Bool { kind == .number }
    var isSpace: Bool { kind == .space }

    /// A word whose first letter is upper case ("Main", "US").
    var isCapitalized: Bool { kind == .word && (text.first?.isUppercase ?? false) }

    /// A word of ASCII capitals only ("US", "I", "A").
    var isUppercaseASCII: Bool {
        kind == .word && text.allSatisfy { $0.isASCII && $0.isUppercase }
    }

    /// Splits `text` into words, numbers, spaces and single symbols.
    /// - Complexity: O(n) in the length of `text`.
    static func tokenize(_ text: String) -> [TextToken] {
        var tokens: [TextToken] = []
        tokens.reserveCapacity(text.count / 3 + 1)
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let kind = classify(character)
            var end = text.index(after: index)
            if kind != .symbol {
                while end < text.endIndex && classify(text[end]) == kind { end = text.index(after: end) }
            }
            tokens.append(TextToken(kind: kind, text: text[index..<end]))
            index = end
        }
        return tokens
    }

    private static func classify(_ character: Character) -> Kind {
        if character.isASCII {
            if character.isNumber { return .number }
            if character.isLetter { return .word }
            if character.isWhitespace { return .space }
            return .symbol
        }
        if character.isLetter { return .word }
        if character.isWhitespace { return .space }
        return .symbol
    }
}
