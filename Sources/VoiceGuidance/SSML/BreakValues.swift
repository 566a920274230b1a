/// Parsers for `<break time strength>` values.
enum BreakValues {
    /// `time`: a non-negative decimal followed by `ms` or `s` (`500ms`, `1s`, `1.5s`, `.25s`).
    ///
    /// - Returns: seconds, or nil when the text is not a time.
    static func time(_ text: String) -> Double? {
        let (numberText, unit) = SSMLNumber.split(text)
        guard let (number, isSigned) = SSMLNumber.parse(numberText), !isSigned || number >= 0, number >= 0
        else { return nil }
        switch unit {
        case "ms": return number / 1000
        case "s": return number
        default: return nil
        }
    }

    /// `strength`: `none`, `x-weak`, `weak`, `medium`, `strong`, `x-strong`.
    static func strength(_ text: String) -> BreakStrength? {
        BreakStrength(rawValue: text.trimmingSSMLWhitespace().lowercased())
    }
}
