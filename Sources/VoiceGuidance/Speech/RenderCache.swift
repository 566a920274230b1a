/// Rendered prompts kept for reuse, keyed by voice and markup, bounded in bytes, least recently
/// used dropped first.
final class RenderCache: Sendable {
    /// What identifies a rendering: every voice setting that changes the sound, and the markup.
    struct Key: Hashable, Sendable {
        var voice: String
        var prompt: PromptKey

        init(voice: VoiceProfile, instruction: SpokenInstruction) {
            self.voice = [
                voice.id, voice.espeakVoice, voice.variant ?? "", "\(voice.rate)", "\(voice.pitch)",
                "\(voice.volumeDB)", "\(voice.speedGainDB)",
            ].joined(separator: "|")
            self.prompt = PromptKey(instruction)
        }
    }

    /// A cached rendering and the SSML problem met while making it (re-reported on every use).
    struct Entry: Sendable {
        var audio: RenderedAudio
        var ssmlError: SpeechError?

        var byteCount: Int { audio.samples.count * 2 + 256 }
    }

    private struct Store {
        var entries: [Key: (entry: Entry, lastUse: UInt64)] = [:]
        var byteCount = 0
        var tick: UInt64 = 0
    }

    /// The most bytes of samples kept.
    let limitBytes: Int
    private let store = Locked(Store())

    init(limitBytes: Int) {
        self.limitBytes = limitBytes
    }

    /// The entry for `key`, marked as just used.
    func entry(for key: Key) -> Entry? {
        store.withLock { store in
            guard let found = store.entries[key] else { return nil }
            store.tick += 1
            store.entries[key] = (found.entry, store.tick)
            return found.entry
        }
    }

    /// Keeps `entry`, dropping the least recently used ones until it fits. An entry larger than
    /// the whole limit is not kept.
    ///
    /// - Complexity: O(n) per dropped entry.
    func insert(_ entry: Entry, for key: Key) {
        guard entry.byteCount <= limitBytes else { return }
        store.withLock { store in
            if let old = store.entries.removeValue(forKey: key) { store.byteCount -= old.entry.byteCount }
            while store.byteCount + entry.byteCount > limitBytes,
                let oldest = store.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                store.entries.removeValue(forKey: oldest.key)
                store.byteCount -= oldest.value.entry.byteCount
            }
            store.tick += 1
            store.entries[key] = (entry, store.tick)
            store.byteCount += entry.byteCount
        }
    }

    /// Number of entries and bytes held.
    var usage: (count: Int, bytes: Int) { store.withLock { ($0.entries.count, $0.byteCount) } }
}
