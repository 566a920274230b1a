/// A voice installed with eSpeak NG.
public struct ESpeakVoice: Sendable, Equatable, Hashable, Codable {
    /// The display name (`German`, `English (America)`).
    public var name: String
    /// The languages it speaks, most preferred first (`de`, `en-us`).
    public var languages: [String]
    /// The file name within `espeak-ng-data/voices`, usable as a voice name (`gmw/de`).
    public var identifier: String

    public init(name: String, languages: [String], identifier: String) {
        self.name = name
        self.languages = languages
        self.identifier = identifier
    }

    /// Whether the voice needs the MBROLA synthesizer (its identifier starts with `mb/`).
    public var isMBROLA: Bool { identifier.hasPrefix("mb/") }
}
