import Foundation
public import VoiceGuidance

/// A failed ALSA call: which device, which call, the error code by name and ALSA's own words.
public struct ALSAError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A positive errno value ALSA returned negated, with readable names (`.noDevice` is `ENODEV`).
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// The libasound function that failed (`snd_pcm_open`).
    public var operation: String
    /// The PCM name (`default`, `plughw:CARD=PCH,DEV=0`).
    public var device: String
    /// `snd_strerror`'s text, or ours.
    public var message: String
    /// What ALSA itself said meanwhile (its stderr messages, caught).
    public var details: [String]

    public init(code: Code, operation: String, device: String, message: String, details: [String] = []) {
        self.code = code
        self.operation = operation
        self.device = device
        self.message = message
        self.details = details
    }

    /// True for errors after which the device must be closed and opened again.
    /// The status as the cause of one of the core's errors.
    public var cause: ErrorCause { ErrorCause(library: "libasound", code: Int64(code.rawValue)) }

    public var needsReopen: Bool { code != .underrun && code != .suspended && code != .interrupted }

    public var description: String {
        var text = "ALSA device \"\(device)\": \(message) (\(operation))"
        if let last = details.last, !last.isEmpty { text += "; ALSA says: \(last)" }
        if operation == "snd_pcm_open" {
            text +=
                ". Choose another output with --device NAME (see `voiceguide devices`)"
                + " or write a file with --output FILE.wav"
        }
        return text
    }
}

/// A playback device from ALSA's name hints.
public struct ALSADevice: Sendable, Equatable, Hashable {
    /// The PCM name to open (`default`, `plughw:CARD=PCH,DEV=0`).
    public var name: String
    /// ALSA's description (may span lines: card, then device).
    public var description: String

    public init(name: String, description: String) {
        self.name = name
        self.description = description
    }

    /// The description on one line.
    public var summary: String {
        description.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: ", ")
    }
}
