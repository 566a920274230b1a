/// Keeps an English article with the word it belongs to when markup separates them.
///
/// eSpeak NG reads each call as a phrase; a call that ends in "a" reads it as the letter
/// /eɪ/ ("That is a" + `<emphasis>big</emphasis>` → "that is AY big"). The renderer makes a
/// call of each run spoken alike, so an article that ends one text segment is moved to the
/// start of the next when that is plain text too: it is then read in its weak form /ɐ/ with
/// the word it belongs to (taking that word's prosody, which on one unstressed syllable is
/// not heard).
enum WeakFormArticles {
    /// The articles moved, lower-case.
    static let articles: Set<String> = ["a", "an", "the"]

    /// Moves trailing articles forward in `segments` (English segments only: `isEnglish` says
    /// which).
    static func apply(to segments: inout [Segment], isEnglish: (TextSegment) -> Bool) {
        var index = 0
        while index + 1 < segments.count {
            defer { index += 1 }
            guard case .text(var first) = segments[index], case .text(var second) = segments[index + 1],
                isPlain(first), isPlain(second), isEnglish(first), isEnglish(second)
            else { continue }
            let trimmed = first.text.trimmingSSMLWhitespace()
            let wordStart =
                trimmed.lastIndex(where: { $0 == " " }).map { trimmed.index(after: $0) } ?? trimmed.startIndex
            let word = trimmed[wordStart...]
            guard articles.contains(word.lowercased()) else { continue }
            first.text = String(trimmed[..<wordStart].trimmingSSMLWhitespace())
            second.text = word + " " + second.text.trimmingSSMLWhitespace()
            segments[index + 1] = .text(second)
            if first.text.isEmpty {
                segments.remove(at: index)
                index -= 1
            } else {
                segments[index] = .text(first)
            }
        }
    }

    /// Text eSpeak reads as written: no phonemes, no say-as left, no beep.
    private static func isPlain(_ segment: TextSegment) -> Bool {
        segment.espeakPhonemes == nil && segment.sayAs == nil
    }
}
