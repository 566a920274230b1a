public import Foundation

/// Where bytes first break JSON's grammar (RFC 8259): what was found, and its byte offset,
/// line and column, for messages Foundation's decoder cannot give ("not valid JSON").
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// 0-based byte offset.
    public var offset: Int
    /// 1-based line and column (columns count characters).
    public var location: SourceLocation

    public var description: String { "line \(location.line), column \(location.column): \(message)" }
}

/// A one-pass JSON syntax checker with an explicit stack: no recursion, so no nesting is too
/// deep for it, and O(n) in the input.
public enum JSONSyntax {
    /// The deepest nesting of objects and arrays accepted (Foundation's decoder stops at 512).
    public static let maximumDepth = 512

    /// The first syntax error in `data`, or nil when it is one well-formed JSON value.
    public static func firstError(in data: Data) -> JSONSyntaxError? {
        if let bad = UTF8Validation.firstInvalidByte(in: data) {
            let message =
                "byte \(UTF8Validation.hex(bad.byte)) is not valid UTF-8"
                + (bad.reason.isEmpty ? "" : ": \(bad.reason)")
            return JSONSyntaxError(message: message, offset: bad.offset, location: bad.location)
        }
        let bytes = [UInt8](data)
        var scanner = JSONScanner(bytes: bytes)
        guard let (message, offset) = scanner.firstError() else { return nil }
        return JSONSyntaxError(message: message, offset: offset, location: location(of: offset, in: bytes))
    }

    /// The line and column of byte `offset` (columns count Unicode scalars).
    static func location(of offset: Int, in bytes: [UInt8]) -> SourceLocation {
        var line = 1
        var column = 1
        for index in 0..<min(offset, bytes.count) {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourceLocation(line: line, column: column)
    }
}

/// The state machine behind `JSONSyntax`.
private struct JSONScanner {
    let bytes: [UInt8]
    var index = 0

    private enum Container { case object, array }
    private enum State { case value, valueOrEnd, key, keyOrEnd, colon, afterValue, end }

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// The first error's message and byte offset, or nil.
    mutating func firstError() -> (String, Int)? {
        var stack: [Container] = []
        var state = State.value
        while true {
            skipWhitespace()
            guard index < bytes.count else {
                if state == .end { return nil }
                let what = stack.last.map { $0 == .object ? "an object" : "an array" } ?? "a value"
                return ("the document ends inside \(what); it is cut short", index)
            }
            let byte = bytes[index]
            switch state {
            case .end:
                return ("\(Self.describe(byte)) after the end of the JSON document", index)
            case .value, .valueOrEnd:
                if state == .valueOrEnd, byte == UInt8(ascii: "]") {
                    index += 1
                    stack.removeLast()
                    state = stack.isEmpty ? .end : .afterValue
                    continue
                }
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    guard stack.count < JSONSyntax.maximumDepth else {
                        return (
                            "objects and arrays nested deeper than \(JSONSyntax.maximumDepth) levels", index
                        )
                    }
                    stack.append(byte == UInt8(ascii: "{") ? .object : .array)
                    index += 1
                    state = byte == UInt8(ascii: "{") ? .keyOrEnd : .valueOrEnd
                    continue
                }
                if let error = scalar() { return error }
                state = stack.isEmpty ? .end : .afterValue
            case .key, .keyOrEnd:
                if state == .keyOrEnd, byte == UInt8(ascii: "}") {
                    index += 1
                    stack.removeLast()
                    state = stack.isEmpty ? .end : .afterValue
                    continue
                }
                guard byte == UInt8(ascii: "\"") else {
                    return ("\(Self.describe(byte)) where a field name in double quotes was expected", index)
                }
                if let error = string() { return error }
                state = .colon
            case .colon:
                guard byte == UInt8(ascii: ":") else {
                    return ("\(Self.describe(byte)) where ':' was expected after a field name", index)
                }
                index += 1
                state = .value
            case .afterValue:
                let isObject = stack.last == .object
                if byte == UInt8(ascii: ",") {
                    index += 1
                    state = isObject ? .key : .value
                } else if byte == UInt8(ascii: isObject ? "}" : "]") {
                    index += 1
                    stack.removeLast()
                    state = stack.isEmpty ? .end : .afterValue
                } else {
                    let close = isObject ? "'}'" : "']'"
                    return ("\(Self.describe(byte)) where ',' or \(close) was expected", index)
                }
            }
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// A string, number, `true`, `false` or `null` at `index`.
    private mutating func scalar() -> (String, Int)? {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") { return string() }
        if byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte) { return number() }
        for literal in ["true", "false", "null"] where byte == literal.utf8.first {
            let start = index
            for expected in literal.utf8 {
                guard index < bytes.count, bytes[index] == expected else {
                    return ("not a JSON value (did you mean \(literal)?)", start)
                }
                index += 1
            }
            return nil
        }
        return ("\(Self.describe(byte)) where a value was expected", index)
    }

    private mutating func string() -> (String, Int)? {
        let start = index
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return nil
            }
            if byte < 0x20 {
                return ("\(Self.describe(byte)) inside a string (write it as an escape like \\n)", index)
            }
            if byte == UInt8(ascii: "\\") {
                let escape = index
                index += 1
                guard index < bytes.count else { break }
                let code = bytes[index]
                if code == UInt8(ascii: "u") {
                    let hex = bytes[(index + 1)..<min(index + 5, bytes.count)]
                    guard hex.count == 4, hex.allSatisfy({ Self.isHexDigit($0) }) else {
                        return ("\\u must be followed by four hexadecimal digits", escape)
                    }
                    index += 4
                } else if !Array("\"\\/bfnrt".utf8).contains(code) {
                    return ("\\\(Self.describe(code)) is not a JSON escape", escape)
                }
            }
            index += 1
        }
        return ("a string that is never closed (no '\"' before the end)", start)
    }

    private mutating func number() -> (String, Int)? {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { return ("a '-' not followed by a digit", start) }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
            return ("a number with a leading zero", start)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return ("a number with no digit after its '.'", start) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { return ("a number with no digit in its exponent", start) }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            return ("the number \(text.prefix(40)) is too large for a 64-bit number", start)
        }
        return nil
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// A byte as a message names it: `'x'`, or `byte 0x01`.
    private static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte)
            ? "'\(UnicodeScalar(byte))'"
            : byte >= 0x80 ? "a non-ASCII character" : "byte \(UTF8Validation.hex(byte))"
    }
}
