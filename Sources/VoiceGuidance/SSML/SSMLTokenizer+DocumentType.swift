extension SSMLTokenizer {
    /// The document type declaration an SSML 1.0 document starts with, accepted because it is
    /// only a name and identifiers (never fetched: the DTD is not read):
    ///
    ///     <!DOCTYPE speak PUBLIC "-//W3C//DTD SYNTHESIS 1.0//EN"
    ///       "http://www.w3.org/TR/speech-synthesis/synthesis.dtd">
    ///
    /// An internal subset (`[ … ]`, where entities would be declared), a root other than
    /// `speak`, a declaration after the root has started, or a second one is an error.
    struct DocumentType: Equatable {
        /// The problem with a declaration, or nil when it is the standard shape.
        static func problem(_ body: [UInt8]) -> String? {
            var words: [String] = []
            var index = 0
            while index < body.count {
                let byte = body[index]
                if SSMLTokenizer.isWhitespace(byte) {
                    index += 1
                } else if byte == UInt8(ascii: "[") {
                    return
                        "a DOCTYPE with an internal subset ('[…]') is not allowed: entities cannot be declared"
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    guard let close = body[(index + 1)...].firstIndex(of: byte) else {
                        return "a quoted identifier in the DOCTYPE is never closed"
                    }
                    words.append("\"")
                    index = close + 1
                } else {
                    var end = index
                    while end < body.count, !SSMLTokenizer.isWhitespace(body[end]),
                        body[end] != UInt8(ascii: "\""), body[end] != UInt8(ascii: "'"),
                        body[end] != UInt8(ascii: "[")
                    {
                        end += 1
                    }
                    words.append(String(decoding: body[index..<end], as: UTF8.self))
                    index = end
                }
            }
            switch words {
            case ["speak"], ["speak", "SYSTEM", "\""], ["speak", "PUBLIC", "\"", "\""]: return nil
            case let words where words.first != "speak":
                return "the DOCTYPE must name the root 'speak' (found '\(words.first ?? "")')"
            default:
                return "expected <!DOCTYPE speak PUBLIC \"…\" \"…\"> or <!DOCTYPE speak SYSTEM \"…\">"
            }
        }
    }
}
