extension SSMLParser {
    /// Whether text looks like SSML rather than plain text: it starts with `<speak` or `<?xml`,
    /// or has a tag of the subset (`<break/>`, `</prosody>`, `<amazon:effect …>`, any `prefix:name`).
    ///
    /// A cheap check for choosing how to read input (the CLI's default); it does not validate.
    ///
    /// - Complexity: O(n).
    public static func looksLikeSSML(_ text: String) -> Bool {
        let trimmed = text.trimmingSSMLWhitespace()
        if trimmed.hasPrefix("<speak") || trimmed.hasPrefix("<?xml") { return true }
        let bytes = Array(trimmed.utf8)
        var index = 0
        while index < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "<") else { continue }
            var start = index + 1
            if start < bytes.count, bytes[start] == UInt8(ascii: "/") { start += 1 }
            var end = start
            while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
            guard end > start, end < bytes.count else { continue }
            let terminator = bytes[end]
            guard
                terminator == UInt8(ascii: ">") || terminator == UInt8(ascii: "/")
                    || SSMLTokenizer.isWhitespace(terminator)
            else { continue }
            let name = String(decoding: bytes[start..<end], as: UTF8.self)
            if SSMLElement(rawValue: name) != nil { return true }
            let parts = name.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty { return true }
        }
        return false
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "_")
    }
}
