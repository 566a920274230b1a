public import VoiceGuidance

/// An error status from libespeak-ng, with its readable message.
///
/// The C type is `espeak_ng_STATUS`; `code` keeps its value so callers can match the common
/// ones (`ESpeakError.Code.voiceNotFound`).
public struct ESpeakError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A libespeak-ng status code.
    public struct Code: RawRepresentable, Sendable, Hashable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// The voice named does not exist (`ENS_VOICE_NOT_FOUND`).
        public static let voiceNotFound = Code(rawValue: 0x1000_06FF)
        /// The engine was used before it was initialized (`ENS_NOT_INITIALIZED`).
        public static let notInitialized = Code(rawValue: 0x1000_04FF)
        /// An MBROLA voice was asked for but MBROLA is not installed (`ENS_MBROLA_NOT_FOUND`).
        public static let mbrolaNotFound = Code(rawValue: 0x1000_07FF)
        /// Synthesis was stopped by the callback (`ENS_SPEECH_STOPPED`); not a failure.
        public static let speechStopped = Code(rawValue: 0x1000_0EFF)
        /// Used for failures found on our side of the boundary (no C status).
        public static let other = Code(rawValue: 0xFFFF_FFFF)
    }

    /// The status code.
    public var code: Code
    /// What failed and why, in words.
    public var message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// The status as the cause of one of the core's errors.
    public var cause: ErrorCause { ErrorCause(library: "libespeak-ng", code: Int64(code.rawValue)) }
}
