/// The library error behind one of ours: which library and its own status code, so that a
/// caller can tell an eSpeak NG or ALSA failure apart without parsing the message.
public struct ErrorCause: Sendable, Hashable, CustomStringConvertible {
    /// The library (`libespeak-ng`, `libasound`).
    public var library: String
    /// Its status code (`espeak_ng_STATUS`, the errno ALSA reported).
    public var code: Int64

    public init(library: String, code: Int64) {
        self.library = library
        self.code = code
    }

    public var description: String { "\(library) status \(code)" }
}
