extension SpokenInstruction {
    /// Turns SSML into an utterance; throws when it does not parse.
    public typealias SSMLParsing = @Sendable (String) throws -> Utterance

    /// The utterance this prompt says: its SSML parsed, or its plain text when it has no SSML,
    /// when `parse` is nil, or when the SSML does not parse (then with the error that says so).
    ///
    /// The one place a prompt becomes an utterance: synthesizers, the command line and the
    /// benchmarks all call it.
    public func utterance(parsingWith parse: SSMLParsing? = { try SSMLParser().parse($0) }) -> (
        utterance: Utterance, ssmlError: SpeechError?
    ) {
        guard let ssml, let parse else { return (Utterance(text: text), nil) }
        do {
            return (try parse(ssml), nil)
        } catch {
            let failure = SpeechError(
                .invalidSSML, "the SSML of \"\(text)\" does not parse (\(error)); speaking the text")
            return (Utterance(text: text), failure)
        }
    }
}
