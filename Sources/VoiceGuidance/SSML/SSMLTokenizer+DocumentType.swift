extension SSMLTokenizer {
    /// Whether `bytes` hold no tag, CDATA, declaration or processing instruction: every `<`
    /// starts a comment. Such input is plain text.
    static func hasNoTags(_ bytes: [UInt8]) -> Bool {
        var index = 0
        let open: [UInt8] = Array("<!--".utf8)
        let close: [UInt8] = Array("-->".utf8)
        while let start = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            guard bytes[start...].starts(with: open) else { return false }
            var end = start + open.count
            while end < bytes.count, !bytes[end...].starts(with: close) { end += 1 }
            index = min(bytes.count, end + close.count)
        }
        return true
    }

    /// The document type declaration an SSML 1.0 document starts with, accepted because it is
    /// only a name and identifiers (never fetched: the DTD is not read):
    ///
    ///     <!DOCTYPE speak PUBLIC "-//W3C//DTD SYNTHESIS 1.0//EN"
    ///       "http://www.w3.org/TR/speech-synthesis/synthesis.dtd">
    ///
    /// An internal subset (`[ … ]`, where entities would be declared), a root other than
    /// `speak`, a declaration after the root has started, or a second one is an error.
    struct DocumentType: Equatable {
        /// The public identifiers of the SSML DTDs.
        static let publicIdentifiers: Set<String> = [
            "-//W3C//DTD SYNTHESIS 1.0//EN", "-//W3C//DTD SYNTHESIS 1.1//EN",
        ]
        /// Where the W3C publishes them (the system identifier must point there; it is not fetched).
        static let systemPrefix = "http://www.w3.org/"

        /// The problem with a declaration (the text between `<!DOCTYPE` and `>`), or nil when it
        /// is the standard shape.
        static func problem(_ body: [UInt8]) -> String? {
            guard let words = self.words(body) else {
                return "document type declarations with an internal subset ('[…]') are not allowed in SSML "
                    + "(no entity declarations)"
            }
            guard words.first == "speak" else {
                return "document type declarations are not allowed in SSML, except <!DOCTYPE speak PUBLIC …>"
            }
            if words.count == 1 { return nil }
            guard words.count == 4, words[1] == "PUBLIC", publicIdentifiers.contains(words[2]),
                words[3].hasPrefix(systemPrefix)
            else {
                return "document type declarations are not allowed in SSML, except the standard "
                    + "<!DOCTYPE speak PUBLIC \"-//W3C//DTD SYNTHESIS 1.0//EN\" \"http://www.w3.org/…\"> "
                    + "(no external entities)"
            }
            return nil
        }

        /// The names and quoted literals of a declaration, or nil when it has an internal subset.
        private static func words(_ body: [UInt8]) -> [String]? {
            var words: [String] = []
            var index = 0
            while index < body.count {
                let byte = body[index]
                if SSMLTokenizer.isWhitespace(byte) {
                    index += 1
                } else if byte == UInt8(ascii: "[") {
                    return nil
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    let close = body[(index + 1)...].firstIndex(of: byte) ?? body.count
                    words.append(String(decoding: body[(index + 1)..<close], as: UTF8.self))
                    index = close + 1
                } else {
                    var end = index
                    while end < body.count, !SSMLTokenizer.isWhitespace(body[end]),
                        ![UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "[")].contains(body[end])
                    {
                        end += 1
                    }
                    words.append(String(decoding: body[index..<end], as: UTF8.self))
                    index = end
                }
            }
            return words
        }
    }
}
