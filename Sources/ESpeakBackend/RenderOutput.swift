import VoiceGuidance

/// The sample pipeline between eSpeak NG and a render handler.
///
/// For each text segment: the silence eSpeak puts before the speech is dropped; a trailing
/// silent run is held back until more sound follows (then passed on) or the segment ends (then
/// kept as the natural gap before another text segment, or dropped before a pause or the end,
/// where `finish()` ends the prompt with that silence kept within `Silence.promptTail`);
/// the segment's gain (with a limiter) is applied; word events become utterance sample offsets.
/// Compression starts from the level of the render's first compressed speech: its first
/// `primingWindow` (100 ms) is held until it has been made.
/// Pauses and marks are written between segments. Everything goes to the handler as it is made,
/// except a beeped segment (`say-as expletive`), which is held until its length is known.
final class RenderOutput {
    /// What happens to a text segment's samples after its gain.
    enum Effect: Sendable, Equatable {
        case none
        /// Dynamic range compression (`amazon:effect name="drc"`), state carried across segments.
        case compressed
        /// Replaced by a beep of the same length (`say-as interpret-as="expletive"`).
        case beep
    }

    private let handler: (RenderEvent) -> RenderControl
    private let sampleRate: Int
    private let threshold = Silence.defaultThreshold

    /// Samples handed to the handler so far.
    private(set) var emitted = 0
    /// How many of the samples handed on last are silent.
    private var trailingSilence = 0
    /// The length of the silence eSpeak made after the last text segment, when nothing was
    /// written after it.
    private var droppedTail = 0
    /// True once the handler asked to stop.
    private(set) var isStopped = false
    private(set) var words: [WordBoundary] = []
    private(set) var marks: [MarkBoundary] = []

    // The text segment being spoken.
    private var gain = GainStage(gainDB: 0, sampleRate: 22_050)
    private var segmentStart = 0
    private var rawSeen = 0
    private var leadTrim: Int?
    private var held: [Int16] = []
    private var pendingWords: [ESpeakEvent] = []
    private var scalars: [Unicode.Scalar] = []
    private var spokenWords: [Substring]?
    private var wordIndex = 0
    private var outBuffer: [Int16] = []
    private var effect = Effect.none
    private var compressor = DynamicRangeCompressor.speech
    private var compressorState = DynamicRangeCompressor.State()
    /// The first compressed samples of the render, held until they set the compressor's
    /// starting state; nil once it is set.
    private var priming: [Int16]? = []
    private var beeped: [Int16] = []

    init(sampleRate: Int, handler: @escaping (RenderEvent) -> RenderControl) {
        self.sampleRate = sampleRate
        self.handler = handler
    }

    /// Starts a text segment.
    ///
    /// - Parameters:
    ///   - input: the exact text handed to eSpeak (event positions count its characters).
    ///   - writtenText: for phoneme input, the written words reported instead.
    ///   - gainDB: the segment's gain.
    ///   - effect: compression or a beep over the segment's samples.
    func beginSpeech(input: String, writtenText: String?, gainDB: Double, effect: Effect = .none) {
        // A compressed segment's gain goes into the compressor's input (no limiter of its own).
        let gainDB = gainDB.isNaN ? 0 : gainDB
        gain = GainStage(gainDB: effect == .compressed ? 0 : gainDB, sampleRate: sampleRate)
        compressor.inputGainDB = effect == .compressed ? gainDB : 0
        self.effect = effect
        beeped.removeAll(keepingCapacity: true)
        segmentStart = emitted
        rawSeen = 0
        leadTrim = nil
        held.removeAll(keepingCapacity: true)
        pendingWords.removeAll()
        scalars = Array(input.unicodeScalars)
        spokenWords = writtenText.map { $0.split(whereSeparator: \.isWhitespace) }
        wordIndex = 0
    }

    /// Takes one chunk from eSpeak; returns false when the handler asked to stop.
    func receive(_ chunk: UnsafeBufferPointer<Int16>, events: [ESpeakEvent]) -> Bool {
        guard !isStopped else { return false }
        pendingWords.append(contentsOf: events.filter { $0.kind == .word && $0.length > 0 })
        var start = 0
        if leadTrim == nil {
            guard let first = chunk.firstIndex(where: { !Silence.isSilent($0, threshold: threshold) }) else {
                rawSeen += chunk.count
                return true
            }
            leadTrim = rawSeen + first
            start = first
        }
        rawSeen += chunk.count
        flushPendingWords()
        outBuffer.removeAll(keepingCapacity: true)
        let rest = UnsafeBufferPointer(rebasing: chunk[start...])
        if let last = rest.lastIndex(where: { !Silence.isSilent($0, threshold: threshold) }) {
            if !held.isEmpty {
                held.withUnsafeBufferPointer { gain.process($0, into: &outBuffer) }
                held.removeAll(keepingCapacity: true)
            }
            let sound = UnsafeBufferPointer(rebasing: rest[...last])
            gain.process(sound, into: &outBuffer)
            held.append(contentsOf: rest[(last + 1)...])
        } else {
            held.append(contentsOf: rest)
        }
        emitSpeech(outBuffer)
        return !isStopped
    }

    /// Ends the text segment; keeps the trailing silence as a gap when `keepTail` is true.
    func endSpeech(keepTail: Bool) {
        guard !isStopped else { return }
        outBuffer.removeAll(keepingCapacity: true)
        if leadTrim == nil {
            // Nothing audible: report the words at the segment's start and keep no silence.
            leadTrim = rawSeen
        } else if keepTail && !held.isEmpty {
            held.withUnsafeBufferPointer { gain.process($0, into: &outBuffer) }
        }
        let tail = keepTail ? 0 : held.count
        held.removeAll(keepingCapacity: true)
        flushPendingWords()
        gain.flush(into: &outBuffer)
        emitSpeech(outBuffer)
        if effect == .compressed { releasePriming() }
        if effect == .beep, !beeped.isEmpty {
            ExpletiveBeep.standard.apply(to: &beeped, range: 0..<beeped.count, sampleRate: sampleRate)
            emitAudio(beeped)
            beeped.removeAll(keepingCapacity: true)
        }
        effect = .none
        droppedTail = tail
    }

    /// Ends the prompt with its natural trailing silence kept within `Silence.promptTail`:
    /// the silence eSpeak made after the last words (or the pause written last), lengthened or
    /// cut to the range.
    func finish() {
        guard !isStopped, emitted > 0 else { return }
        let shortest = Silence.sampleCount(seconds: Silence.promptTail.lowerBound, sampleRate: sampleRate)
        let longest = Silence.sampleCount(seconds: Silence.promptTail.upperBound, sampleRate: sampleRate)
        let natural = trailingSilence + droppedTail
        writeSilence(min(max(natural, shortest), longest) - trailingSilence)
    }

    /// Passes a text segment's samples on through its effect.
    private func emitSpeech(_ samples: [Int16]) {
        guard !samples.isEmpty else { return }
        switch effect {
        case .none:
            emitAudio(samples)
        case .compressed:
            if priming != nil {
                priming?.append(contentsOf: samples)
                if let held = priming, held.count >= compressor.primingSampleCount(sampleRate: sampleRate) {
                    releasePriming()
                }
                return
            }
            var compressed = samples
            compressor.process(&compressed, sampleRate: sampleRate, state: &compressorState)
            emitAudio(compressed)
        case .beep:
            beeped.append(contentsOf: samples)
        }
    }

    /// Starts the compressor from the state the held first samples warrant (no onset boost) and
    /// passes them on compressed. Holding them costs the time eSpeak takes to make
    /// `primingWindow` of speech (a few milliseconds), not the window itself.
    private func releasePriming() {
        guard var held = priming, !held.isEmpty else { return }
        priming = nil
        compressorState = held.withUnsafeBufferPointer {
            compressor.primedState(from: $0, sampleRate: sampleRate)
        }
        compressor.process(&held, sampleRate: sampleRate, state: &compressorState)
        emitAudio(held)
    }

    /// Writes `count` samples of silence (a pause), in chunks so a stop takes effect quickly.
    func writeSilence(_ count: Int) {
        var remaining = count
        let chunkSize = 2_048
        while remaining > 0 && !isStopped {
            let size = min(chunkSize, remaining)
            emitAudio(Silence.samples(count: size))
            remaining -= size
        }
    }

    /// Writes a recorded sound (`<audio>`), in chunks so a stop takes effect quickly.
    func writeClip(_ samples: [Int16]) {
        var start = 0
        while start < samples.count && !isStopped {
            let end = min(start + 2_048, samples.count)
            emitAudio(Array(samples[start..<end]))
            start = end
        }
    }

    /// Reports a mark at the current position.
    func mark(_ name: String) {
        guard !isStopped else { return }
        let mark = MarkBoundary(name: name, sample: emitted)
        marks.append(mark)
        send(.mark(mark))
    }

    private func flushPendingWords() {
        guard let leadTrim, !pendingWords.isEmpty else { return }
        for event in pendingWords {
            guard let text = wordText(event) else { continue }
            let offset = segmentStart + max(0, event.sample - leadTrim)
            let word = WordBoundary(sample: max(offset, emitted), text: text)
            words.append(word)
            send(.word(word))
            if isStopped { break }
        }
        pendingWords.removeAll()
    }

    private func wordText(_ event: ESpeakEvent) -> String? {
        if let spokenWords {
            defer { wordIndex += 1 }
            guard wordIndex < spokenWords.count else { return nil }
            return String(spokenWords[wordIndex])
        }
        let start = event.textPosition - 1
        guard start >= 0, start < scalars.count else { return "" }
        let end = min(scalars.count, start + event.length)
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<end])
        return text
    }

    private func emitAudio(_ samples: [Int16]) {
        guard !samples.isEmpty, !isStopped else { return }
        emitted += samples.count
        droppedTail = 0
        let silent = Silence.trailingCount(in: samples, threshold: threshold)
        trailingSilence = silent == samples.count ? trailingSilence + silent : silent
        send(.audio(samples))
    }

    private func send(_ event: RenderEvent) {
        if handler(event) == .stop { isStopped = true }
    }
}
