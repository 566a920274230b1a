public import Foundation

/// A JSON value as the protocol reads and writes it: decoded strictly (a boolean is never a
/// number), written with object keys in the order given.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in order; duplicates are not checked.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: false
        }
    }

    /// The member `key` of an object (the last one of that name), or nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    /// What the value is, for messages: `a string`, `a number`, `an object`…
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Parses one JSON text (strict: see `JSONParser`).
    ///
    /// - Throws: `ProtocolError` `parse_error` saying what is wrong and where.
    public static func parse(_ data: Data) throws(ProtocolError) -> JSONValue {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(JSONParserError) -> JSONValue in try JSONParser.parse(raw) }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw ProtocolError(.parseError, "the line is not JSON: \(error.message)")
        }
    }

    /// The compact JSON text of the value.
    public var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Appends the compact JSON text of the value to `out`.
    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let value): Self.writeNumber(value, to: &out)
        case .string(let value): Self.writeString(value, to: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                Self.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeNumber(_ value: Double, to out: inout String) {
        guard value.isFinite else {
            out += "null"
            return
        }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            out += String(Int64(value))
        } else {
            out += "\(value)"
        }
    }

    /// Appends `value` quoted, with `"`, `\` and control characters escaped; the runs between
    /// them are appended whole (a 100 KB polyline is one append, not 100,000).
    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        let utf8 = value.utf8
        var runStart = utf8.startIndex
        var index = runStart
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                // An ASCII byte: both ends of the run are on Unicode scalar boundaries.
                out += value[runStart..<index]
                out += escaped(byte)
                runStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        out += value[runStart..<utf8.endIndex]
        out += "\""
    }

    /// The JSON escape of a quote, a backslash or a control character.
    private static func escaped(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\""): return "\\\""
        case UInt8(ascii: "\\"): return "\\\\"
        case UInt8(ascii: "\n"): return "\\n"
        case UInt8(ascii: "\r"): return "\\r"
        case UInt8(ascii: "\t"): return "\\t"
        default:
            let hex = String(byte, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
}
