public import Foundation

/// Parses the SSML subset navigation prompts use into an ``Utterance``.
///
/// Accepted input is a `<speak>` document, or plain text with or without inline tags (no root
/// needed). Supported elements: `speak`, `p`, `s`, `break`, `prosody`, `say-as`, `sub`, `phoneme`,
/// `emphasis`, `lang`, `voice`, `mark`, `w`, `token`, `audio` (+`desc`), `meta`, `metadata`,
/// `lexicon` (never spoken), `amazon:effect name="drc"`; see `docs/ssml.md`. Text with no tag at
/// all is plain text: an `&` that does not start a known reference is a literal ampersand.
///
/// What is an error and what is a warning:
/// - Markup that is not well-formed (unclosed or mismatched tags, broken start tags, unquoted or
///   repeated attributes, unknown entities, a DTD other than SSML 1.0's standard
///   `<!DOCTYPE speak PUBLIC …>`) is an ``SSMLError`` of kind `.malformed`, with
///   the line and column in the caller's text (columns count Unicode scalars, from 1).
/// - Invalid values of attributes with a closed grammar (`break time`/`strength`, `prosody`
///   `rate`/`pitch`/`volume`, `emphasis level`) and missing required attributes (`say-as
///   interpret-as`, `sub alias`, `phoneme ph`, `mark name`, `lang xml:lang`) are errors too.
/// - Unknown and vendor elements (`amazon:domain`, `amazon:breath`, `foo:bar`), unknown
///   attributes, an unknown `interpret-as`, phoneme `alphabet` or `amazon:effect` name keep their
///   text and give a warning naming the element and position; with ``isStrict`` they are errors.
/// - Values out of range are clamped with a warning: a break longer than
///   ``Limits/maxBreakSeconds``, a composed rate or pitch outside 0.25×…4×, volume over +24 dB.
/// - Over a limit (``Limits``) is an error of kind `.limitExceeded`.
///
/// Entities: `&lt; &gt; &amp; &quot; &apos;`, numeric references (`&#233;`, `&#xE9;`), and
/// `&nbsp;`, which is read as a space (HTML habits are common in hand-written prompts, and a
/// no-break space is a space to a listener; a literal U+00A0 is a space too). In text with no
/// tag at all an `&` that starts no known reference is an ampersand; in a fragment with tags
/// but no `<speak>` root a bare `&` is kept as a literal with a warning.
///
/// `<audio src>` reads a WAV file through ``audioFiles`` (see ``AudioSourceLoader``); when it
/// cannot be played, the element's content is spoken and a warning says why.
///
/// White space: runs collapse to one space, segment ends are trimmed, and adjacent text with the
/// same attributes is one segment. `<p>` and `<s>` give strong and medium pauses, never doubled
/// and never at the very start or end; a `<break>` next to one replaces it.
///
/// The parser is a small hand-written tokenizer rather than FoundationXML's `XMLParser`: it
/// reports every position in the caller's own text, needs no namespace declaration for
/// `amazon:`, refuses DTDs with declarations (so no entity-expansion bomb can start), and walks the document with
/// an explicit stack, so deep nesting costs no call stack.
public struct SSMLParser: Sendable {
    /// The bounds enforced on input.
    public var limits: Limits
    /// Whether unknown and vendor elements, unknown attributes and unsupported values are errors
    /// instead of warnings. `amazon:effect name="drc"` is supported and accepted in both modes.
    public var isStrict: Bool
    /// Where `<audio src>` files are found (a relative `src` is relative to its directory).
    public var audioFiles: AudioSourceLoader

    /// Creates a parser.
    public init(limits: Limits = .init(), isStrict: Bool = false, audioFiles: AudioSourceLoader = .init()) {
        self.limits = limits
        self.isStrict = isStrict
        self.audioFiles = audioFiles
    }

    /// Parses SSML (or plain text) into an utterance.
    ///
    /// - Parameter text: A `<speak>` document, a fragment with inline tags, or plain text.
    /// - Returns: The segments, the document language, and warnings.
    /// - Throws: ``SSMLError`` with the location of the problem in `text`.
    /// - Complexity: O(n) in the length of `text`.
    public func parse(_ text: String) throws(SSMLError) -> Utterance {
        let size = text.utf8.count
        guard size <= limits.maxInputBytes else {
            throw SSMLError(
                .limitExceeded, "input is \(size) bytes; the limit is \(limits.maxInputBytes) bytes",
                at: SourceLocation(line: 1, column: 1))
        }
        var reader = SSMLDocumentReader(text, limits: limits, isStrict: isStrict, audioLoader: audioFiles)
        return try reader.read()
    }

    /// Parses SSML bytes, which must be UTF-8 (a byte order mark is skipped).
    ///
    /// - Throws: ``SSMLError`` of kind `.invalidEncoding` at the first byte that is not UTF-8,
    ///   or any error of ``parse(_:)``.
    public func parse(data: Data) throws(SSMLError) -> Utterance {
        guard data.count <= limits.maxInputBytes else {
            throw SSMLError(
                .limitExceeded, "input is \(data.count) bytes; the limit is \(limits.maxInputBytes) bytes",
                at: SourceLocation(line: 1, column: 1))
        }
        if let bad = UTF8Validation.firstInvalidByte(in: data) {
            let isUTF16 = data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF])
            throw SSMLError(
                .invalidEncoding,
                "byte \(UTF8Validation.hex(bad.byte)) at offset \(bad.offset) is not valid UTF-8"
                    + (bad.reason.isEmpty ? "" : ": \(bad.reason)")
                    + (isUTF16 ? " (the input looks like UTF-16; SSML must be UTF-8)" : ""),
                at: bad.location)
        }
        return try parse(String(decoding: data, as: UTF8.self))
    }
}
