/// One attribute of a start tag, value already entity-decoded.
struct SSMLAttribute: Sendable, Equatable {
    var name: String
    var value: String
    var location: SourceLocation
}

/// A piece of SSML markup as the tokenizer sees it.
enum SSMLToken: Sendable, Equatable {
    /// `<name a="v">` or `<name/>` (`isEmpty`), at the `<`.
    case startTag(name: String, attributes: [SSMLAttribute], isEmpty: Bool, location: SourceLocation)
    /// `</name>`, at the `<`.
    case endTag(name: String, location: SourceLocation)
    /// Character data (entities decoded, CDATA included), with where its first visible character is.
    case text(String, firstVisible: SourceLocation?)
}

/// A small, non-recursive XML tokenizer for the SSML subset.
///
/// It reads UTF-8 bytes once, front to back, and knows exactly where every token starts in the
/// caller's text (1-based line and column, columns counted in Unicode scalars). It accepts
/// elements, attributes in either quote style, the five XML entities, numeric character
/// references, `&nbsp;`, CDATA sections, comments and processing instructions (skipped). It refuses
/// every document type declaration but SSML's own (see ``DocumentType``), so no entity can be
/// declared and no expansion can blow up.
///
/// - Complexity: O(n) in the input length; every byte is looked at a bounded number of times.
struct SSMLTokenizer {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1
    /// Set once the first start tag is seen: whether that tag was `<speak>`.
    private var firstTagName: String?
    /// Non-fatal findings not yet taken (a bare `&` in plain text).
    private var warnings: [SSMLDiagnostic] = []
    /// The input has no tag (comments aside): it is plain text, where an `&` that does not start a known
    /// reference is an ampersand ("Fish & Chips", "compile&flash", "AT&T;").
    private let isPlainText: Bool
    private var hasDocumentType = false

    init(_ text: String) {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }  // byte order mark
        self.bytes = bytes
        isPlainText = Self.hasNoTags(bytes)
    }

    /// Returns the warnings found since the last call, naming `element` as the one they are in.
    mutating func takeWarnings(element: String?) -> [SSMLDiagnostic] {
        defer { warnings.removeAll() }
        return warnings.map { SSMLDiagnostic(element: element, message: $0.message, location: $0.location) }
    }

    private var location: SourceLocation { SourceLocation(line: line, column: column) }

    /// Whether the document is a fragment (plain text or inline tags without a `<speak>` root).
    private var isFragment: Bool { firstTagName.map { $0 != "speak" } ?? true }

    /// The next token, or nil at the end of the input.
    mutating func next() throws(SSMLError) -> SSMLToken? {
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "<") { return try readText() }
            if matches("<!--") {
                try skipComment()
            } else if matches("<![CDATA[") {
                return try readCDATA()
            } else if matches("<!DOCTYPE") {
                try skipDocumentType()
            } else if matches("<!") {
                let start = location
                let isDTD =
                    matches("<!DOCTYPE") || matches("<!ENTITY") || matches("<!ELEMENT")
                    || matches("<!ATTLIST")
                throw SSMLError(
                    .malformed,
                    isDTD
                        ? "document type declarations are not allowed in SSML (no DTD, no entity declarations)"
                        : "'<!' starts neither a comment nor a CDATA section", at: start)
            } else if matches("<?") {
                try skipProcessingInstruction()
            } else if matches("</") {
                return try readEndTag()
            } else {
                return try readStartTag()
            }
        }
        return nil
    }

    // MARK: - Moving through the bytes

    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { buffer in
            var offset = 0
            while offset < count {
                if bytes[index + offset] != buffer[offset] { return false }
                offset += 1
            }
            return true
        }
    }

    /// Moves past one byte, keeping line and column (a CR LF pair is one line break).
    private mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == 0x0A {
            if index >= 2, bytes[index - 2] == 0x0D { return }  // LF after CR: already counted
            line += 1
            column = 1
        } else if byte == 0x0D {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            // A lead byte: the next byte starts the next scalar.
            column += 1
        }
    }

    private mutating func advance(by count: Int) {
        for _ in 0..<count { advance() }
    }

    /// XML white space: space, tab, line feed, carriage return.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, Self.isWhitespace(bytes[index]) { advance() }
    }

    private func checkCharacter(_ byte: UInt8) throws(SSMLError) {
        if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
            throw SSMLError(
                .malformed, "control character U+\(hex(UInt32(byte))) is not allowed in SSML", at: location)
        }
    }

    // MARK: - Comments, CDATA, processing instructions

    private mutating func skipComment() throws(SSMLError) {
        let start = location
        advance(by: 4)
        while index < bytes.count {
            if matches("-->") {
                advance(by: 3)
                return
            }
            advance()
        }
        throw SSMLError(.malformed, "comment is never closed (missing '-->')", at: start)
    }

    private mutating func readCDATA() throws(SSMLError) -> SSMLToken {
        let start = location
        advance(by: 9)
        var text: [UInt8] = []
        var firstVisible: SourceLocation?
        while index < bytes.count {
            if matches("]]>") {
                advance(by: 3)
                return .text(String(decoding: text, as: UTF8.self), firstVisible: firstVisible)
            }
            let byte = bytes[index]
            try checkCharacter(byte)
            if firstVisible == nil, !Self.isWhitespace(byte) { firstVisible = location }
            text.append(byte)
            advance()
        }
        throw SSMLError(.malformed, "CDATA section is never closed (missing ']]>')", at: start)
    }

    /// Skips an SSML 1.0 `<!DOCTYPE speak …>` (see ``DocumentType``); anything else is an error.
    private mutating func skipDocumentType() throws(SSMLError) {
        let start = location
        guard firstTagName == nil, !hasDocumentType else {
            throw SSMLError(.malformed, "a DOCTYPE may only come once, before the root element", at: start)
        }
        hasDocumentType = true
        advance(by: 9)
        var body: [UInt8] = []
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if quote == nil, byte == UInt8(ascii: ">") { break }
            if byte == quote {
                quote = nil
            } else if quote == nil, byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            }
            body.append(byte)
            advance()
        }
        if let problem = DocumentType.problem(body) { throw SSMLError(.malformed, problem, at: start) }
        guard index < bytes.count else {
            throw SSMLError(.malformed, "the DOCTYPE is never closed (missing '>')", at: start)
        }
        advance()
    }

    private mutating func skipProcessingInstruction() throws(SSMLError) {
        let start = location
        advance(by: 2)
        while index < bytes.count {
            if matches("?>") {
                advance(by: 2)
                return
            }
            advance()
        }
        throw SSMLError(.malformed, "processing instruction is never closed (missing '?>')", at: start)
    }

    // MARK: - Text and entities

    private mutating func readText() throws(SSMLError) -> SSMLToken {
        var text: [UInt8] = []
        var firstVisible: SourceLocation?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") { break }
            try checkCharacter(byte)
            if byte == UInt8(ascii: "&") {
                let here = location
                if let decoded = try readReference(inAttribute: false) {
                    if firstVisible == nil, !decoded.allSatisfy(Self.isWhitespace) { firstVisible = here }
                    text.append(contentsOf: decoded)
                }
                continue
            }
            if firstVisible == nil, !Self.isWhitespace(byte) { firstVisible = location }
            if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0xA0 {
                // A literal no-break space is a space to a listener.
                text.append(0x20)
                advance(by: 2)
                continue
            }
            text.append(byte)
            advance()
        }
        return .text(String(decoding: text, as: UTF8.self), firstVisible: firstVisible)
    }

    /// Reads `&…;` at the current position and returns its UTF-8 bytes.
    ///
    /// In plain text (no `<speak>` root), an `&` that does not start a reference is kept as a
    /// literal `&` with a warning; in a document it is an error, as in XML.
    private mutating func readReference(inAttribute: Bool) throws(SSMLError) -> [UInt8]? {
        let start = location
        var end = index + 1
        while end < bytes.count, end - index <= 40, bytes[end] != UInt8(ascii: ";"),
            Self.isReferenceByte(bytes[end])
        {
            end += 1
        }
        let isTerminated = end < bytes.count && bytes[end] == UInt8(ascii: ";") && end > index + 1
        if isPlainText, !isTerminated || !Self.isKnownReference(bytes[(index + 1)..<end]) {
            advance()
            return [UInt8(ascii: "&")]
        }
        guard isTerminated else {
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0x20
            let startsName = Self.isReferenceByte(next)
            if !inAttribute, !startsName, isFragment {
                warnings.append(
                    SSMLDiagnostic(
                        message: "a bare '&' is read as a literal ampersand (write &amp; in SSML)",
                        location: start))
                advance()
                return [UInt8(ascii: "&")]
            }
            throw SSMLError(
                .malformed,
                startsName
                    ? "entity reference is not terminated by ';'"
                    : "a bare '&' must be written as &amp;", at: start)
        }
        let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        let decoded: [UInt8]
        switch name {
        case "lt": decoded = [UInt8(ascii: "<")]
        case "gt": decoded = [UInt8(ascii: ">")]
        case "amp": decoded = [UInt8(ascii: "&")]
        case "quot": decoded = [UInt8(ascii: "\"")]
        case "apos": decoded = [UInt8(ascii: "'")]
        case "nbsp": decoded = [0x20]  // a no-break space is a space to a listener
        default:
            guard name.hasPrefix("#") else {
                throw SSMLError(
                    .malformed,
                    "unknown entity '&\(name);' (only &lt; &gt; &amp; &quot; &apos;, &nbsp; and "
                        + "numeric references like &#233; are accepted)", at: start)
            }
            decoded = try Self.decodeCharacterReference(name, at: start)
        }
        advance(by: end + 1 - index)
        return decoded
    }

    /// Whether `name` (between `&` and `;`) is a reference this tokenizer decodes.
    private static func isKnownReference(_ name: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: name, as: UTF8.self)
        return ["lt", "gt", "amp", "quot", "apos", "nbsp"].contains(text)
            || (text.hasPrefix("#")
                && (try? decodeCharacterReference(text, at: SourceLocation(line: 1, column: 1))) != nil)
    }

    private static func isReferenceByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    private static func decodeCharacterReference(
        _ name: String, at location: SourceLocation
    ) throws(SSMLError) -> [UInt8] {
        var digits = name.dropFirst()
        var radix = 10
        if digits.first == "x" {
            radix = 16
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 8, let value = UInt32(digits, radix: radix),
            let scalar = Unicode.Scalar(value),
            value >= 0x20 || value == 0x09 || value == 0x0A || value == 0x0D,
            value != 0xFFFE, value != 0xFFFF
        else {
            throw SSMLError(.malformed, "'&\(name);' is not a valid character reference", at: location)
        }
        if value == 0xA0 { return [0x20] }
        return Array(String(Character(scalar)).utf8)
    }

    // MARK: - Tags

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    /// Reads an XML name and checks its namespace shape (at most one colon, text on both sides).
    private mutating func readName(what: String, at tagStart: SourceLocation) throws(SSMLError) -> String {
        let nameStart = location
        guard index < bytes.count, Self.isNameStart(bytes[index]) else {
            let found = index < bytes.count ? "'\(Self.describe(bytes[index]))'" : "the end of the input"
            throw SSMLError(.malformed, "expected \(what) name, found \(found)", at: nameStart)
        }
        let first = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { advance() }
        let name = String(decoding: bytes[first..<index], as: UTF8.self)
        let colons = bytes[first..<index].indices.filter { bytes[$0] == UInt8(ascii: ":") }
        if colons.count > 1 || colons.first.map({ $0 == first || $0 == index - 1 }) == true {
            var hint = ""
            if colons.count == 1, colons[0] == index - 1, index < bytes.count, Self.isWhitespace(bytes[index])
            {
                hint = " (is there a space after the colon?)"
            }
            throw SSMLError(
                .malformed,
                "malformed \(what) name '\(name)': a prefix and a name must surround one colon\(hint)",
                at: tagStart)
        }
        return name
    }

    private static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x20: "space"
        case 0x0A, 0x0D: "line break"
        case 0x09: "tab"
        case 0x21...0x7E: String(UnicodeScalar(byte))
        default: "byte 0x\(hex(UInt32(byte)))"
        }
    }

    private mutating func readEndTag() throws(SSMLError) -> SSMLToken {
        let start = location
        advance(by: 2)
        let name = try readName(what: "end tag", at: start)
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
            throw SSMLError(.malformed, "end tag </\(name)> is not closed by '>'", at: start)
        }
        advance()
        return .endTag(name: name, location: start)
    }

    private mutating func readStartTag() throws(SSMLError) -> SSMLToken {
        let start = location
        advance()
        guard index < bytes.count, Self.isNameStart(bytes[index]) else {
            throw SSMLError(
                .malformed, "'<' does not start a tag here (write &lt; for a literal less-than sign)",
                at: start)
        }
        let name = try readName(what: "element", at: start)
        if firstTagName == nil { firstTagName = name }
        var attributes: [SSMLAttribute] = []
        while true {
            let hadSpace = index < bytes.count && Self.isWhitespace(bytes[index])
            skipWhitespace()
            guard index < bytes.count else {
                throw SSMLError(.malformed, "start tag <\(name)> is never closed by '>'", at: start)
            }
            if bytes[index] == UInt8(ascii: ">") {
                advance()
                return .startTag(name: name, attributes: attributes, isEmpty: false, location: start)
            }
            if matches("/>") {
                advance(by: 2)
                return .startTag(name: name, attributes: attributes, isEmpty: true, location: start)
            }
            guard hadSpace else {
                throw SSMLError(
                    .malformed,
                    "expected a space, '>' or '/>' in <\(name)>, found '\(Self.describe(bytes[index]))'",
                    at: location)
            }
            let attribute = try readAttribute(in: name)
            if attributes.contains(where: { $0.name == attribute.name }) {
                throw SSMLError(
                    .malformed, "attribute '\(attribute.name)' appears twice in <\(name)>",
                    at: attribute.location)
            }
            attributes.append(attribute)
        }
    }

    private mutating func readAttribute(in element: String) throws(SSMLError) -> SSMLAttribute {
        let start = location
        let name = try readName(what: "attribute", at: start)
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
            throw SSMLError(
                .malformed, "attribute '\(name)' in <\(element)> has no value (expected '=\"…\"')", at: start)
        }
        advance()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'")
        else {
            throw SSMLError(
                .malformed, "the value of attribute '\(name)' in <\(element)> must be in quotes", at: location
            )
        }
        let quote = bytes[index]
        advance()
        var value: [UInt8] = []
        while true {
            guard index < bytes.count else {
                throw SSMLError(
                    .malformed, "the value of attribute '\(name)' in <\(element)> is never closed", at: start)
            }
            let byte = bytes[index]
            if byte == quote {
                advance()
                break
            }
            if byte == UInt8(ascii: "<") {
                throw SSMLError(
                    .malformed, "'<' is not allowed in the value of attribute '\(name)' (missing quote?)",
                    at: location)
            }
            try checkCharacter(byte)
            if byte == UInt8(ascii: "&") {
                if let decoded = try readReference(inAttribute: true) { value.append(contentsOf: decoded) }
                continue
            }
            value.append(Self.isWhitespace(byte) ? 0x20 : byte)
            advance()
        }
        return SSMLAttribute(name: name, value: String(decoding: value, as: UTF8.self), location: start)
    }
}

/// Upper-case hexadecimal, at least four digits (`00A0`).
func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
