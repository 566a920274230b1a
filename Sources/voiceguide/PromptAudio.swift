import ESpeakBackend
import Foundation
import VoiceGuidance

/// Renders prompts with eSpeak NG once each and remembers the audio (for durations and output).
///
/// SSML that does not parse falls back to the prompt's plain text, as a navigation app would,
/// and the fallback is reported once on stderr.
final class PromptAudio {
    let renderer: ESpeakRenderer
    let voice: VoiceProfile
    private let parser = SSMLParser()
    private var cache: [String: RenderedAudio] = [:]
    private(set) var renderCount = 0

    init(renderer: ESpeakRenderer, voice: VoiceProfile) {
        self.renderer = renderer
        self.voice = voice
    }

    /// The utterance a prompt says: its SSML when that parses, else its text.
    func utterance(for instruction: SpokenInstruction) -> Utterance {
        if let ssml = instruction.ssml {
            do {
                return try parser.parse(ssml)
            } catch {
                Console.error(
                    "warning: SSML of \"\(instruction.text)\" does not parse (\(error)); speaking its text")
            }
        }
        return Utterance(text: instruction.text)
    }

    /// The prompt's audio, rendered on first use.
    func audio(for instruction: SpokenInstruction) throws -> RenderedAudio {
        let key = instruction.ssml ?? instruction.text
        if let cached = cache[key] { return cached }
        let audio = try renderer.render(utterance(for: instruction), voice: voice)
        renderCount += 1
        cache[key] = audio
        return audio
    }

    /// The prompt's length in seconds; a prompt that cannot be rendered counts as an estimate
    /// from its length in characters (and the error is reported).
    func duration(of instruction: SpokenInstruction) -> Double {
        do {
            return try audio(for: instruction).duration
        } catch {
            Console.error("warning: cannot render \"\(instruction.text)\": \(error)")
            return 0.3 + Double(instruction.text.count) * 0.065
        }
    }
}
