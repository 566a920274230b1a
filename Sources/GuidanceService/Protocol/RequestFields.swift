/// The members of a request object, read with errors that name the command and the field.
struct RequestFields {
    let value: JSONValue
    var command = ""

    init(_ value: JSONValue) { self.value = value }

    /// Fails on a member that is not `id`, `cmd` or one of `known`.
    func onlyKnown(_ known: Set<String>) throws(ProtocolError) {
        guard case .object(let members) = value else { return }
        for (key, _) in members where key != "id" && key != "cmd" && !known.contains(key) {
            let allowed =
                known.isEmpty ? "it takes none" : "it takes " + known.sorted().joined(separator: ", ")
            throw ProtocolError(.unknownField, "\(command) has no field \"\(key.prefix(64))\" (\(allowed))")
        }
    }

    func text(_ key: String) throws(ProtocolError) -> String {
        guard let text = try optionalText(key) else {
            throw ProtocolError(.missingField, "\(command) needs \"\(key)\"")
        }
        return text
    }

    func optionalText(_ key: String) throws(ProtocolError) -> String? {
        switch value[key] {
        case nil: return nil
        case .string(let text)?: return text
        case let other?: throw ProtocolError(.wrongType, "\"\(key)\" must be a string, not \(other.kindName)")
        }
    }

    func number(_ key: String, in range: ClosedRange<Double>) throws(ProtocolError) -> Double {
        guard let number = try optionalNumber(key, in: range) else {
            throw ProtocolError(.missingField, "\(command) needs \"\(key)\"")
        }
        return number
    }

    func optionalNumber(_ key: String, in range: ClosedRange<Double>) throws(ProtocolError) -> Double? {
        switch value[key] {
        case nil: return nil
        case .number(let number)?:
            guard range.contains(number) else {
                throw ProtocolError(
                    .invalidValue,
                    "\"\(key)\" must be from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound)), not \(Self.format(number))"
                )
            }
            return number
        case let other?: throw ProtocolError(.wrongType, "\"\(key)\" must be a number, not \(other.kindName)")
        }
    }

    /// A whole number from 0 up (a leg or step index).
    func index(_ key: String) throws(ProtocolError) -> Int {
        let number = try number(key, in: 0...1_000_000)
        guard number == number.rounded() else {
            throw ProtocolError(
                .invalidValue, "\"\(key)\" must be a whole number, not \(Self.format(number))")
        }
        return Int(number)
    }

    private static func format(_ number: Double) -> String { JSONValue.number(number).serialized }
}
