/// Why a request failed: a stable `code` for programs and a `message` for people.
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The codes a reply's `error.code` can hold (see docs/protocol.md).
    public enum Code: String, Sendable, CaseIterable {
        /// The line is not JSON.
        case parseError = "parse_error"
        /// The line is JSON but not an object, or its `id` is not a string, number or null.
        case invalidRequest = "invalid_request"
        /// The request has no `cmd`.
        case missingCommand = "missing_cmd"
        /// `cmd` names no command.
        case unknownCommand = "unknown_cmd"
        /// A field the command needs is missing.
        case missingField = "missing_field"
        /// A field holds the wrong kind of JSON value.
        case wrongType = "wrong_type"
        /// A field holds a value out of range or not one of the allowed words.
        case invalidValue = "invalid_value"
        /// A field the command does not know (a typo, or a newer protocol).
        case unknownField = "unknown_field"
        /// The route does not decode as a Directions v5 route or response.
        case invalidRoute = "invalid_route"
        /// A file or voice that was named does not exist or cannot be read.
        case notFound = "not_found"
        /// The command needs a route and none is loaded.
        case noRoute = "no_route"
        /// `position` on a route without geometry (a polyline or GeoJSON line per step or route).
        case noGeometry = "no_geometry"
        /// `position` to a daemon that reads positions itself from gpsd (`serve --gpsd`).
        case positionsFromGPSD = "positions_from_gpsd"
        /// The line was longer than the limit; it was discarded.
        case lineTooLong = "line_too_long"
        /// The daemon has as many clients as it takes.
        case tooManyClients = "too_many_clients"
        /// The client's user may not use this daemon.
        case permissionDenied = "permission_denied"
        /// Something failed inside the daemon (voice files, audio).
        case failed = "failed"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
