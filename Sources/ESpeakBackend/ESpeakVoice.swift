/// A voice installed with eSpeak NG.
public struct ESpeakVoice: Sendable, Equatable, Hashable, Codable {
    /// The display name (`German`, `English (America)`).
    public var name: String
    /// The languages it speaks, most preferred first (`de`, `en-us`).
    public var languages: [String]
    /// The file name within `espeak-ng-data/voices`, usable as a voice name (`gmw/de`).
    public var identifier: String
    /// eSpeak's preference for this voice for each of `languages` (lower is preferred).
    public var languagePriorities: [Int]

    public init(name: String, languages: [String], identifier: String, languagePriorities: [Int]? = nil) {
        self.name = name
        self.languages = languages
        self.identifier = identifier
        self.languagePriorities = languagePriorities ?? Array(repeating: 5, count: languages.count)
    }

    /// eSpeak's preference for this voice for `language` (lower is preferred), if it speaks it.
    func priority(of language: String) -> Int? {
        guard let index = languages.firstIndex(where: { $0.lowercased() == language.lowercased() }) else {
            return nil
        }
        return index < languagePriorities.count ? languagePriorities[index] : 5
    }

    /// Whether the voice needs the MBROLA synthesizer (its identifier starts with `mb/`).
    public var isMBROLA: Bool { identifier.hasPrefix("mb/") }
}
