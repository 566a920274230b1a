/// Everything an element in force says about the text inside it: what a ``TextSegment`` carries
/// besides its text and location.
///
/// Two runs of text with equal attributes are one segment.
struct TextAttributes: Sendable, Equatable {
    var prosody = Prosody()
    var language: String?
    var voice: VoiceRequest?
    var sayAs: SayAs?
    var phoneme: PhonemeSpec?
    var emphasis: EmphasisLevel?
    var isCompressed = false
    var role: String?

    /// A segment with these attributes.
    func segment(text: String, location: SourceLocation?) -> TextSegment {
        TextSegment(
            text: text, prosody: prosody, language: language, voice: voice, sayAs: sayAs, phoneme: phoneme,
            emphasis: emphasis, isCompressed: isCompressed, role: role, location: location)
    }
}
