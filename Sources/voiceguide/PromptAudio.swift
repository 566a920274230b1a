import ESpeakBackend
import Foundation
import VoiceGuidance

/// Renders prompts with eSpeak NG and remembers their lengths (and the audio of the last few).
///
/// Memory stays proportional to the number of distinct prompts (a length each), not to their
/// audio: only the most recent renderings are kept, for the prompt that is about to be spoken.
/// SSML that does not parse falls back to the prompt's plain text, as a navigation app would,
/// and the fallback is reported on stderr.
final class PromptAudio: Sendable {
    let renderer: any SpeechRenderer
    let voice: VoiceProfile
    /// How many recent renderings are kept.
    static let recentLimit = 8

    private struct Store {
        var lengths: [PromptKey: Double] = [:]
        var recent: [(key: PromptKey, audio: RenderedAudio)] = []
        var renderCount = 0
    }
    private let store = Locked(Store())

    /// The route's languages: the server's instructions (`serverPrompts`, by SSML or text) and
    /// ours are marked with their language when the voice speaks another.
    private let languages: RouteVoice?
    private let serverPrompts: Set<String>

    init(renderer: any SpeechRenderer, voice: VoiceProfile, languages: RouteVoice? = nil, route: Route? = nil)
    {
        self.renderer = renderer
        self.voice = voice
        self.languages = languages
        serverPrompts = Set(
            (route?.legs ?? []).flatMap(\.steps).flatMap(\.voiceInstructions).map {
                $0.ssmlAnnouncement ?? $0.announcement
            })
    }

    /// How many renderings were made.
    var renderCount: Int { store.withLock { $0.renderCount } }

    /// The utterance a prompt says: its SSML when that parses, else its text (the parse error is
    /// reported); in its language.
    func utterance(for instruction: SpokenInstruction) -> Utterance {
        let (utterance, ssmlError) = instruction.utterance()
        if let ssmlError { Console.error("warning: \(ssmlError)") }
        let fromServer = serverPrompts.contains(instruction.ssml ?? instruction.text)
        return languages?.utterance(utterance, fromServer: fromServer) ?? utterance
    }

    /// The prompt's audio, rendered unless it is one of the last few.
    func audio(for instruction: SpokenInstruction) throws -> RenderedAudio {
        let key = PromptKey(instruction)
        if let cached = store.withLock({ $0.recent.first { $0.key == key }?.audio }) { return cached }
        let delivery = instruction.delivery
        let audio = delivery.withChime(
            try renderer.render(utterance(for: instruction), voice: voice.withSpeedGain(delivery.speedGainDB))
        )
        store.withLock { store in
            store.renderCount += 1
            store.lengths[key] = audio.duration
            store.recent.append((key, audio))
            if store.recent.count > Self.recentLimit { store.recent.removeFirst() }
        }
        return audio
    }

    /// The prompt's length in seconds; a prompt that cannot be rendered gets the timing model's
    /// estimate (and the error is reported).
    func duration(of instruction: SpokenInstruction) -> Double {
        if instruction.delivery != .plain {
            // The speed gain keeps the length: the plain prompt's length and the chime's.
            var plain = instruction
            plain.delivery = .plain
            let chime = instruction.delivery.chimeSamples(sampleRate: renderer.sampleRate).count
            return duration(of: plain) + Double(chime) / Double(max(1, renderer.sampleRate))
        }
        if let known = store.withLock({ $0.lengths[PromptKey(instruction)] }) { return known }
        do {
            return try audio(for: instruction).duration
        } catch {
            Console.error("warning: cannot render \"\(instruction.text)\": \(error)")
            let estimate = AnnouncementTiming().estimatedDuration(of: instruction)
            store.withLock { $0.lengths[PromptKey(instruction)] = estimate }
            return estimate
        }
    }
}
