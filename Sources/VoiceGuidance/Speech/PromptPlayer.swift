/// Writes one prompt's samples to a sink in small pieces on the playback thread, applying the
/// output gain, fading out click-free when the prompt is cut, and firing word and mark events
/// when they are heard (the sink's delay taken into account).
///
/// Not thread-safe: one player lives on the playback thread for one prompt.
final class PromptPlayer {
    /// How the prompt ended, once it has.
    enum Ending: Equatable {
        case finished
        case cancelled(SpeechCancellation)
        case failed(SpeechError)
    }

    private let sink: any AudioSink
    private let job: SpeechJob
    private let hub: SpeechEventHub
    let sampleRate: Int
    private let gain: Double
    private let pieceFrames: Int
    private let interruptFadeFrames: Int
    private let stopFadeFrames: Int
    private let stopWaitFrames: Int
    /// Silence, then a chime, written before the prompt's first sample; event positions are
    /// shifted by them.
    private let leadInFrames: Int
    private let chime: [Int16]
    private var isLeadInWritten = false

    /// Frames handed to the sink so far.
    private(set) var written = 0
    /// When the first frame went to the sink.
    private(set) var firstWrite: ContinuousClock.Instant?
    /// Set once the prompt has ended; no more audio is written after.
    private(set) var ending: Ending?

    private var pending: [(sample: Int, event: SpeechEvent)] = []
    private var pendingIndex = 0
    private var wordStarts: [Int] = []
    private var fade: FadeRamp?
    private var cut: SpeechCancellation?
    private var stopSeenAt: Int?

    init(
        sink: any AudioSink, job: SpeechJob, hub: SpeechEventHub, sampleRate: Int, gain: Double,
        configuration: SpeechSynthesizer.Configuration
    ) {
        let delivery = job.instruction.delivery
        self.sink = sink
        self.job = job
        self.hub = hub
        self.sampleRate = sampleRate
        self.gain = gain
        func frames(_ seconds: Double) -> Int {
            max(1, Int(saturating: (seconds * Double(sampleRate)).rounded()))
        }
        pieceFrames = frames(configuration.pieceDuration)
        interruptFadeFrames = frames(configuration.interruptFade)
        stopFadeFrames = frames(configuration.stopFade)
        stopWaitFrames = frames(configuration.stopWordWait)
        // The prompt's own chime (from `VoiceController`) before the configured one, as loud as
        // the voice at this speed.
        chime =
            (delivery.chime ?? configuration.chime).map {
                Chime.samples(
                    $0, sampleRate: sampleRate, loudness: Chime.voiceLoudness + delivery.speedGainDB)
            } ?? []
        leadInFrames = (configuration.leadIn > 0 ? frames(configuration.leadIn) : 0) + chime.count
    }

    /// Queues a word event, fired when its first sample is heard.
    func schedule(word: WordBoundary) {
        pending.append((word.sample + leadInFrames, .word(job.instruction, word)))
        wordStarts.append(word.sample + leadInFrames)
    }

    /// Queues a mark event, fired when its position is heard.
    func schedule(mark: MarkBoundary) {
        pending.append((mark.sample + leadInFrames, .mark(job.instruction, mark)))
    }

    /// Plays `chunk`; returns false once the prompt has ended (cut or failed) and no more audio
    /// is wanted.
    func feed(_ chunk: [Int16]) -> Bool {
        guard ending == nil else { return false }
        if !isLeadInWritten {
            isLeadInWritten = true
            guard writeLeadIn() else { return false }
        }
        var samples = chunk
        PlaybackGain.apply(gain: gain, to: &samples)
        var offset = 0
        while offset < samples.count {
            if fade == nil { checkCancellation() }
            var count = min(pieceFrames, samples.count - offset)
            if fade == nil, cut == .stop {
                // Finish the current word: fade from the next word's start, or after a while.
                if let next = wordStarts.first(where: { $0 >= written }), next < written + count {
                    count = next - written
                }
                if count == 0 || written - (stopSeenAt ?? written) >= stopWaitFrames {
                    fade = FadeRamp(length: stopFadeFrames)
                    count = min(pieceFrames, samples.count - offset)
                }
            }
            var piece = Array(samples[offset..<offset + count])
            if fade != nil { piece = fade!.apply(to: piece) }
            if !piece.isEmpty {
                if firstWrite == nil { firstWrite = .now }
                do {
                    try sink.write(piece)
                } catch {
                    fail(with: error)
                    return false
                }
                written += piece.count
                deliverHeardEvents(through: heardFrame())
            }
            offset += count
            if let fade, fade.isComplete, let cut {
                end(cut)
                return false
            }
        }
        return true
    }

    /// Writes the lead-in silence in pieces, stopping early when the prompt is cut; false when
    /// the sink failed.
    private func writeLeadIn() -> Bool {
        var preamble = [Int16](repeating: 0, count: leadInFrames - chime.count) + chime
        PlaybackGain.apply(gain: gain, to: &preamble)
        var left = leadInFrames
        while left > 0, job.cancellation == nil {
            let count = min(left, pieceFrames)
            let start = leadInFrames - left
            if firstWrite == nil { firstWrite = .now }
            do {
                try sink.write(Array(preamble[start..<(start + count)]))
            } catch {
                fail(with: error)
                return false
            }
            written += count
            left -= count
        }
        return true
    }

    /// Ends the prompt after the last chunk: plays out the queue (or cuts it, if asked to
    /// meanwhile) and fires the events still due.
    func finish() {
        guard ending == nil else { return }
        if fade == nil { checkCancellation() }
        if let cut, cut != .stop {
            // Nothing left to fade: the prompt's own last samples were the last written.
            end(cut)
            return
        }
        do {
            try sink.finish()
        } catch {
            fail(with: error)
            return
        }
        deliverHeardEvents(through: .max)
        ending = cut.map { .cancelled($0) } ?? .finished
    }

    /// Ends a prompt that was cut before it started (nothing written).
    func endBeforeStart(_ reason: SpeechCancellation) {
        ending = .cancelled(reason)
    }

    /// Ends a muted prompt (nothing written, no error).
    func endSilently() {
        ending = .finished
    }

    /// Ends a prompt that could not start (the sink did not open).
    func endFailed(_ error: SpeechError) {
        ending = .failed(error)
    }

    /// Ends the prompt because the renderer failed.
    func abandon(with error: SpeechError) {
        guard ending == nil else { return }
        sink.interrupt()
        ending = .failed(error)
    }

    private func checkCancellation() {
        guard let reason = job.cancellation else { return }
        switch reason {
        case .stop:
            if stopSeenAt == nil { stopSeenAt = written }
            cut = .stop
        case .interrupt, .mute:
            cut = reason
            fade = FadeRamp(length: interruptFadeFrames)
        }
    }

    private func end(_ reason: SpeechCancellation) {
        if reason == .stop {
            do {
                try sink.finish()
            } catch {
                fail(with: error)
                return
            }
            deliverHeardEvents(through: written)
        } else {
            sink.interrupt()
        }
        ending = .cancelled(reason)
    }

    private func fail(with error: any Error) {
        sink.interrupt()
        ending = .failed(SpeechError(.audioDevice, "\(error)"))
    }

    private func heardFrame() -> Int {
        written - Int(saturating: (sink.delay * Double(sampleRate)).rounded())
    }

    private func deliverHeardEvents(through frame: Int) {
        while pendingIndex < pending.count, pending[pendingIndex].sample <= frame {
            hub.emit(pending[pendingIndex].event)
            pendingIndex += 1
        }
    }
}
