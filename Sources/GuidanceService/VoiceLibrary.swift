public import Foundation
public import VoiceGuidance

/// The voice profiles and phrase books the daemon speaks with, read from a `Voices/` folder and
/// read again on `reloaded()` (SIGHUP).
public struct VoiceLibrary: Sendable {
    /// The profiles found.
    public let catalog: VoiceCatalog
    /// Every phrase book of `catalog`'s profiles, by language code.
    public let phraseBooks: [String: PhraseBook]

    /// Reads every profile in `directory` and the phrase book each one names.
    ///
    /// - Throws: `ProtocolError` `failed` naming the file that is wrong.
    public init(directory: URL) throws(ProtocolError) {
        do {
            catalog = try VoiceCatalog(directory: directory)
            var books: [String: PhraseBook] = [:]
            let folder = directory.appendingPathComponent("phrases", isDirectory: true)
            for profile in catalog.profiles where books[Self.code(profile.phrases)] == nil {
                books[Self.code(profile.phrases)] = try PhraseBook.load(
                    directory: folder, language: profile.phrases)
            }
            phraseBooks = books
        } catch {
            throw ProtocolError(.failed, "\(error)")
        }
    }

    /// The same folder read again.
    public func reloaded() throws(ProtocolError) -> VoiceLibrary {
        try VoiceLibrary(directory: catalog.directory)
    }

    /// The profile with this id (case-insensitive).
    public func profile(id: String) throws(ProtocolError) -> VoiceProfile {
        do {
            return try catalog.profile(id: id)
        } catch {
            throw ProtocolError(.notFound, "\(error)")
        }
    }

    /// The phrase builder for a voice, in `units` (the voice's own when nil).
    public func phrases(for voice: VoiceProfile, units: UnitSystem? = nil) throws(ProtocolError)
        -> PhraseBuilder
    {
        guard let book = phraseBooks[Self.code(voice.phrases)] else {
            throw ProtocolError(.notFound, "no phrase book for '\(voice.phrases)'")
        }
        return PhraseBuilder(book: book, units: units ?? voice.units)
    }

    private static func code(_ language: String) -> String {
        String(language.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }
}
