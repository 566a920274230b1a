/// What identifies a prompt's audio for a given voice: its markup (the SSML, or the text when it
/// has none) and which of the two that is. Two prompts with the same key sound the same.
public struct PromptKey: Hashable, Sendable {
    /// The SSML, or the plain text when there is no SSML.
    public var markup: String
    /// True when `markup` is SSML.
    public var isSSML: Bool
    /// The speed gain and chime it is delivered with.
    public var delivery: PromptDelivery

    public init(_ instruction: SpokenInstruction) {
        markup = instruction.ssml ?? instruction.text
        isSSML = instruction.ssml != nil
        delivery = instruction.delivery
    }
}
