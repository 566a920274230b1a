import Foundation

/// A failed libpulse call: which server, which call, the error code by name and libpulse's words.
public struct PulseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A libpulse error code (`PA_ERR_*`), with readable names (`.connectionRefused`).
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// The libpulse function that failed (`pa_context_connect`).
    public var operation: String
    /// The server asked (`unix:/run/user/1000/pulse/native`), or "the default server".
    public var server: String
    /// `pa_strerror`'s text, or ours.
    public var message: String

    public init(code: Code, operation: String, server: String, message: String) {
        self.code = code
        self.operation = operation
        self.server = server
        self.message = message
    }

    public var description: String {
        "sound server \(server): \(message) (\(operation))"
    }
}
