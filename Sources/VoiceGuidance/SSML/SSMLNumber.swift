/// Strict decimal numbers as SSML attribute values write them.
enum SSMLNumber {
    /// Parses `[+-]?(digits[.digits] | .digits)`; nothing else (no exponents, `nan` or `inf`).
    ///
    /// - Returns: the value and whether it had an explicit sign, or nil when it is not a number.
    static func parse(_ text: Substring) -> (value: Double, isSigned: Bool)? {
        var body = text
        var isSigned = false
        if let first = body.first, first == "+" || first == "-" {
            isSigned = true
            body = body.dropFirst()
        }
        guard !body.isEmpty, body.count <= 32 else { return nil }
        var digits = 0
        var dots = 0
        for character in body {
            if character == "." {
                dots += 1
            } else if character.isASCII, character.isNumber {
                digits += 1
            } else {
                return nil
            }
        }
        guard digits > 0, dots <= 1, let value = Double(body) else { return nil }
        return (text.first == "-" ? -value : value, isSigned)
    }

    /// Splits `"1.5s"` into the number and the unit that follows it (`"1.5"`, `"s"`).
    static func split(_ text: String) -> (number: Substring, unit: String) {
        let trimmed = text.trimmingSSMLWhitespace()
        let unitStart =
            trimmed.lastIndex(where: { $0.isASCII && ($0.isNumber || $0 == ".") }).map {
                trimmed.index(after: $0)
            } ?? trimmed.startIndex
        return (trimmed[..<unitStart], String(trimmed[unitStart...]).lowercased())
    }
}

extension StringProtocol {
    /// The text without leading and trailing XML white space.
    func trimmingSSMLWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = {
            $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n"
        }
        let view = self[...]
        guard let first = view.firstIndex(where: { !isSpace($0) }),
            let last = view.lastIndex(where: { !isSpace($0) })
        else { return Substring() }
        return Substring(view[first...last])
    }
}
