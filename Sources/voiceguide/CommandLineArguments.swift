import Foundation

/// A mistake in how a command was called: printed with the command's usage, exit status 64.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// An error that ends a command with a message on stderr and a given exit status.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var status: Int32
    init(_ message: String, status: Int32 = 1) {
        self.message = message
        self.status = status
    }
    var description: String { message }
}

/// Exit statuses (sysexits.h where one fits).
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 64
    static let noInput: Int32 = 66
    static let unavailable: Int32 = 69
}

/// Hand-rolled argument scanning: options are taken out by name, what is left is positional.
///
/// `--name value` and `--name=value` both work; `--` ends the options; a lone `-` is positional.
struct CommandLineArguments {
    private var remaining: [String]
    private var endOfOptions: Int

    init(_ arguments: [String]) {
        if let split = arguments.firstIndex(of: "--") {
            remaining = Array(arguments[..<split]) + Array(arguments[(split + 1)...])
            endOfOptions = split
        } else {
            remaining = arguments
            endOfOptions = arguments.count
        }
    }

    /// True (and removed) when any of `names` is present.
    mutating func flag(_ names: String...) -> Bool {
        var found = false
        var index = 0
        while index < endOfOptions {
            if names.contains(remaining[index]) {
                remaining.remove(at: index)
                endOfOptions -= 1
                found = true
            } else {
                index += 1
            }
        }
        return found
    }

    /// The value of the last occurrence of `names` (removed), or nil.
    mutating func option(_ names: String...) throws -> String? {
        var value: String?
        var index = 0
        while index < endOfOptions {
            let argument = remaining[index]
            if let name = names.first(where: { argument.hasPrefix($0 + "=") }) {
                value = String(argument.dropFirst(name.count + 1))
                remaining.remove(at: index)
                endOfOptions -= 1
            } else if names.contains(argument) {
                guard index + 1 < endOfOptions else { throw UsageError("\(argument) needs a value") }
                value = remaining[index + 1]
                remaining.removeSubrange(index...(index + 1))
                endOfOptions -= 2
            } else {
                index += 1
            }
        }
        return value
    }

    /// A number option, checked to be finite and within `range`.
    mutating func number(_ names: String..., in range: ClosedRange<Double>) throws -> Double? {
        var value: String?
        for name in names { if let found = try option(name) { value = found } }
        guard let value else { return nil }
        guard let number = Double(value), number.isFinite, range.contains(number) else {
            throw UsageError(
                "\(names[0]) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(value)'"
            )
        }
        return number
    }

    /// The positional arguments, after checking no unknown option is left.
    func positionals() throws -> [String] {
        for argument in remaining[..<endOfOptions] where argument.hasPrefix("-") && argument != "-" {
            throw UsageError("unknown option \(argument)")
        }
        return remaining
    }
}

/// Standard error, for messages and progress.
enum Console {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    static var isErrorTerminal: Bool { isatty(2) == 1 }
}
