import Foundation

/// The voice a route is spoken in, and the language of its server's instructions.
///
/// With no voice chosen, the route's `voiceLocale` picks the profile and so its units and phrase
/// book, as the Mapbox SDKs do: a `de-DE` route is spoken in German with metric distances. A
/// locale with no profile gets eSpeak NG's voice for its language (said in a warning). Whatever
/// the voice, a prompt is never spoken by a voice of another language: the server's text is in
/// `voiceLocale`, and when that is not the voice's language, `utterance(_:fromServer:)` marks it
/// so the renderer speaks it with that language's voice (said in a warning).
public struct RouteVoice: Sendable, Equatable {
    /// The profile prompts are rendered with; its units and phrase book build our own prompts.
    public var profile: VoiceProfile
    /// The language of the server's instructions when it is not the profile's, else nil.
    public var serverLanguage: String?
    /// What the user should be told, once: fallbacks and languages spoken by another voice.
    public var warnings: [String]

    /// The profile used when neither a voice nor a route locale is given.
    public static let defaultProfileID = "en-US"

    /// Regions whose people hear distances in miles and feet (Mapbox's imperial regions).
    public static let imperialRegions: Set<String> = ["US", "GB", "LR", "MM"]

    /// The voice for a route whose server speaks `locale` (its `voiceLocale`, nil if none).
    ///
    /// - Parameters:
    ///   - chosen: the profile the user asked for (`--voice`), or nil to follow the route.
    ///   - catalog: the profiles, and the `phrases/` folder beside them.
    /// - Throws: `VoiceCatalogError` when no locale is given and the default profile is missing.
    public static func choose(for locale: String?, chosen: VoiceProfile? = nil, catalog: VoiceCatalog) throws
        -> RouteVoice
    {
        let tag = locale.map(normalized).flatMap { $0.isEmpty ? nil : $0 }
        var warnings: [String] = []
        let profile: VoiceProfile
        if let chosen {
            profile = chosen
        } else if let tag {
            profile = Self.profile(for: tag, catalog: catalog, warnings: &warnings)
        } else {
            profile = try catalog.profile(id: defaultProfileID)
        }
        var serverLanguage: String?
        if let tag, language(of: tag) != profile.language {
            serverLanguage = tag
            warnings.append(
                "the route's instructions are in \(tag) and the voice \(profile.id) speaks \(profile.language): "
                    + "they are spoken with eSpeak NG's voice for \(tag)")
        }
        return RouteVoice(profile: profile, serverLanguage: serverLanguage, warnings: warnings)
    }

    /// The profile whose locale is `tag`; else one made from eSpeak NG's voice for the language.
    static func profile(for tag: String, catalog: VoiceCatalog, warnings: inout [String]) -> VoiceProfile {
        if let exact = catalog.profiles.first(where: { normalized($0.locale) == tag }) {
            return exact
        }
        let language = language(of: tag)
        let region = tag.split(separator: "-").dropFirst().first.map { $0.uppercased() }
        let sibling = catalog.profiles.first { $0.language == language }
        let units: UnitSystem = region.map { imperialRegions.contains($0) } == true ? .imperial : .metric
        let hasPhrases = FileManager.default.fileExists(
            atPath: catalog.directory.appendingPathComponent("phrases/\(language).json").path)
        var fallback = VoiceProfile(
            id: tag, locale: tag, espeakVoice: language, rate: sibling?.rate ?? 175,
            pitch: sibling?.pitch ?? 50,
            volumeDB: sibling?.volumeDB ?? 0, units: units, phrases: hasPhrases ? language : "en")
        fallback.variant = sibling?.variant
        warnings.append(
            "no voice profile for \(tag): speaking with eSpeak NG's voice for '\(language)', \(units.rawValue) units"
        )
        if !hasPhrases {
            warnings.append(
                "no phrase book for '\(language)': prompts built here are in English, spoken by an English voice"
            )
        }
        return fallback
    }

    /// The utterance with the language of its text set where the markup did not set it: the
    /// server's language for the server's instructions, the phrase book's for ours, when either
    /// is not the voice's (the renderer then picks that language's voice and normalisation).
    public func utterance(_ utterance: Utterance, fromServer: Bool) -> Utterance {
        let phraseLanguage = profile.phrases == profile.language ? nil : profile.phrases
        guard let language = fromServer ? serverLanguage : phraseLanguage else { return utterance }
        var marked = utterance
        marked.language = utterance.language ?? language
        marked.segments = utterance.segments.map { segment in
            guard case .text(var text) = segment, text.language == nil else { return segment }
            text.language = marked.language
            return .text(text)
        }
        return marked
    }

    /// A BCP 47 tag with `-` separators, language lower case, region upper case (`de-DE`).
    static func normalized(_ tag: String) -> String {
        let parts = tag.trimmingCharacters(in: .whitespaces).split(whereSeparator: { $0 == "-" || $0 == "_" })
        return parts.enumerated().map { index, part in
            index == 0 ? part.lowercased() : part.count == 2 ? part.uppercased() : String(part)
        }.joined(separator: "-")
    }

    static func language(of tag: String) -> String {
        String(tag.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }
}
