/// A strict JSON parser (RFC 8259) that reads bytes straight into `JSONValue`s: no trailing
/// commas, no comments, no control characters in strings, valid UTF-8 only, numbers that fit a
/// Double, at most `maximumDepth` nested arrays and objects. Errors say what was found where.
struct JSONParser {
    /// Deepest nesting of arrays and objects accepted.
    static let maximumDepth = 512

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var depth = 0

    private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// Parses one JSON text (whitespace around it allowed).
    ///
    /// - Throws: a message saying what is wrong and at which byte.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParserError) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("more after the end of the JSON value") }
        return value
    }

    private func error(_ message: String) -> JSONParserError {
        JSONParserError(message: "\(message) at byte \(index)")
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func value() throws(JSONParserError) -> JSONValue {
        guard let byte = current else { throw error("unexpected end, a value was expected") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected \(Self.describe(byte)), a value was expected")
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(JSONParserError) -> JSONValue {
        for expected in word.utf8 {
            guard current == expected else { throw error("invalid literal, \(word) was expected") }
            index += 1
        }
        return value
    }

    private mutating func enter() throws(JSONParserError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth)") }
        index += 1
        skipWhitespace()
    }

    private mutating func object() throws(JSONParserError) -> JSONValue {
        try enter()
        var members: [(String, JSONValue)] = []
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            guard current == UInt8(ascii: "\"") else { throw error("a member name (a string) was expected") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("':' was expected after the member name") }
            index += 1
            skipWhitespace()
            members.append((key, try value()))
            skipWhitespace()
            if try endOfList(UInt8(ascii: "}")) { return .object(members) }
        }
    }

    private mutating func array() throws(JSONParserError) -> JSONValue {
        try enter()
        var items: [JSONValue] = []
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(items)
        }
        while true {
            items.append(try value())
            skipWhitespace()
            if try endOfList(UInt8(ascii: "]")) { return .array(items) }
        }
    }

    /// After an item: true at the closing bracket (consumed), false after a comma.
    private mutating func endOfList(_ closing: UInt8) throws(JSONParserError) -> Bool {
        guard let byte = current else {
            throw error("unexpected end, ',' or '\(Character(Unicode.Scalar(closing)))' was expected")
        }
        index += 1
        if byte == closing {
            depth -= 1
            return true
        }
        guard byte == UInt8(ascii: ",") else {
            index -= 1
            throw error(
                "unexpected \(Self.describe(byte)), ',' or '\(Character(Unicode.Scalar(closing)))' was expected"
            )
        }
        skipWhitespace()
        if current == closing { throw error("a trailing comma") }
        return false
    }

    private mutating func number() throws(JSONParserError) -> Double {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, Self.isDigit(first) else { throw error("a digit was expected") }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let digit = current, Self.isDigit(digit) else {
                throw error("a digit was expected after '.'")
            }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, Self.isDigit(digit) else {
                throw error("a digit was expected in the exponent")
            }
            skipDigits()
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error("the number \(text.prefix(32)) does not fit a Double")
        }
        return value
    }

    private mutating func skipDigits() {
        while let byte = current, Self.isDigit(byte) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func string() throws(JSONParserError) -> String {
        index += 1
        var text = ""
        var runStart = index
        while true {
            guard let byte = current else { throw error("unexpected end inside a string") }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                try appendUTF8(from: runStart, to: index, into: &text)
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return text
                }
                guard byte == UInt8(ascii: "\\") else {
                    throw error("a control character (\(byte)) inside a string")
                }
                text.unicodeScalars.append(try escape())
                runStart = index
            } else {
                index += 1
            }
        }
    }

    /// Appends the bytes `start..<end` as UTF-8, which they must be (validated and copied as one
    /// run, not decoded scalar by scalar).
    private func appendUTF8(from start: Int, to end: Int, into text: inout String) throws(JSONParserError) {
        guard start < end else { return }
        guard
            let run = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        else {
            throw JSONParserError(message: "a string is not valid UTF-8 (between bytes \(start) and \(end))")
        }
        text += run
    }

    /// One escape after a backslash (the index is on the backslash).
    private mutating func escape() throws(JSONParserError) -> Unicode.Scalar {
        index += 1
        guard let byte = current else { throw error("unexpected end inside an escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"): return try unicodeEscape()
        default:
            index -= 1
            throw error("an invalid escape \\\(Self.describe(byte))")
        }
    }

    private mutating func unicodeEscape() throws(JSONParserError) -> Unicode.Scalar {
        let high = try hex4()
        if (0xD800..<0xDC00).contains(high) {
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count,
                bytes[index + 1] == UInt8(ascii: "u")
            else {
                throw error("a lone surrogate \\u\(String(high, radix: 16))")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else {
                throw error("a high surrogate without its low half")
            }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
        }
        guard let scalar = Unicode.Scalar(high) else {
            throw error("a lone surrogate \\u\(String(high, radix: 16))")
        }
        return scalar
    }

    private mutating func hex4() throws(JSONParserError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexValue(byte) else {
                throw error("4 hex digits were expected after \\u")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// A byte as a message shows it: `'x'` when printable ASCII, else its value.
    private static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte)
            ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }
}

/// Why a text is not JSON.
struct JSONParserError: Error {
    var message: String
}
