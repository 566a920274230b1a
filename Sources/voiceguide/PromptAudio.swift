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

    /// The route's languages: the server's instructions (`serverPrompts`, by SSML or text) and
    /// ours are marked with their language when the voice speaks another.
    private let languages: RouteVoice?
    private let serverPrompts: Set<String>

    init(renderer: ESpeakRenderer, voice: VoiceProfile, languages: RouteVoice? = nil, route: Route? = nil) {
        self.renderer = renderer
        self.voice = voice
        self.languages = languages
        serverPrompts = Set(
            (route?.legs ?? []).flatMap(\.steps).flatMap(\.voiceInstructions).map {
                $0.ssmlAnnouncement ?? $0.announcement
            })
    }

    /// The utterance a prompt says: its SSML when that parses, else its text; in its language.
    func utterance(for instruction: SpokenInstruction) -> Utterance {
        var utterance = Utterance(text: instruction.text)
        if let ssml = instruction.ssml {
            do {
                utterance = try parser.parse(ssml)
            } catch {
                Console.error(
                    "warning: SSML of \"\(instruction.text)\" does not parse (\(error)); speaking its text")
            }
        }
        let fromServer = serverPrompts.contains(instruction.ssml ?? instruction.text)
        return languages?.utterance(utterance, fromServer: fromServer) ?? utterance
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
