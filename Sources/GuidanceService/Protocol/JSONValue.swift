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

    /// Parses one JSON text.
    ///
    /// - Throws: `ProtocolError` `parse_error` saying what is wrong.
    public static func parse(_ data: Data) throws(ProtocolError) -> JSONValue {
        do {
            return try JSONDecoder().decode(DecodedJSON.self, from: data).value
        } catch {
            throw ProtocolError(.parseError, "the line is not JSON (\(Self.reason(data)))")
        }
    }

    /// Where a text stops being JSON, as Foundation's own parser words it.
    private static func reason(_ data: Data) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
            return "it is not one complete JSON value"
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            return detail.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 } ?? "\(error)"
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

    private static func writeString(_ value: String, to out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

/// Decodes any JSON into a `JSONValue`, trying the exact kinds in turn.
private struct DecodedJSON: Decodable {
    let value: JSONValue

    init(from decoder: any Decoder) throws {
        if var items = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !items.isAtEnd { values.append(try items.decode(DecodedJSON.self).value) }
            value = .array(values)
            return
        }
        if let members = try? decoder.container(keyedBy: AnyKey.self) {
            var pairs: [(String, JSONValue)] = []
            for key in members.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                pairs.append((key.stringValue, try members.decode(DecodedJSON.self, forKey: key).value))
            }
            value = .object(pairs)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            value = .null
        } else if let flag = try? single.decode(Bool.self) {
            value = .bool(flag)
        } else if let number = try? single.decode(Double.self) {
            value = .number(number)
        } else {
            value = .string(try single.decode(String.self))
        }
    }
}

/// Any object key.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
