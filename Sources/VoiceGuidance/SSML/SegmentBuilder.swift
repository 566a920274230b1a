/// Collects text, pauses and marks into segments: white space collapsed, adjacent text with the
/// same attributes merged, sentence and paragraph pauses never doubled.
///
/// Pauses come in two kinds. *Soft* pauses come from structure (the end of `<s>` or `<p>`):
/// next to another pause they merge into the stronger one, an explicit `<break>` replaces them,
/// and they are dropped at the start and the end of the utterance, where silence means nothing.
/// *Explicit* pauses come from `<break>`: they are kept where they are, also at the start, and
/// two in a row add up.
struct SegmentBuilder {
    private let limits: SSMLParser.Limits
    private(set) var segments: [Segment] = []
    /// Parallel to `segments`: whether a pause there is soft.
    private var isSoftPause: [Bool] = []
    private var pendingText = ""
    private var pendingAttributes: TextAttributes?
    private var pendingLocation: SourceLocation?
    private var hasContent = false
    private var suppressesNextSoftPause = false
    private var totalBreakSeconds = 0.0

    init(limits: SSMLParser.Limits) {
        self.limits = limits
    }

    /// Adds character data spoken with `attributes`.
    mutating func appendText(_ text: String, attributes: TextAttributes, firstVisible: SourceLocation?)
        throws(SSMLError)
    {
        guard let visible = firstVisible else {
            // White space only: a separator inside the current run, never the start of a new one.
            if pendingAttributes != nil { pendingText += " " }
            return
        }
        if pendingAttributes != attributes {
            try flush()
            pendingAttributes = attributes
            pendingLocation = visible
        }
        pendingText += text
    }

    /// Adds a text segment with no text (a `<phoneme>` whose pronunciation is all there is).
    mutating func appendEmptyText(attributes: TextAttributes, at location: SourceLocation) throws(SSMLError) {
        try flush()
        try append(.text(attributes.segment(text: "", location: location)), soft: false, at: location)
        hasContent = true
        suppressesNextSoftPause = false
    }

    /// Ends the current run of text, so the next text starts a new segment.
    mutating func flush() throws(SSMLError) {
        guard let attributes = pendingAttributes else { return }
        let text = Self.collapsingWhitespace(pendingText)
        pendingText = ""
        pendingAttributes = nil
        if text.isEmpty, attributes.phoneme == nil { return }
        try append(
            .text(attributes.segment(text: text, location: pendingLocation)), soft: false, at: pendingLocation
        )
        hasContent = true
        suppressesNextSoftPause = false
    }

    /// Adds a pause from structure (`<s>`, `<p>`).
    mutating func appendSoftPause(_ strength: BreakStrength, at location: SourceLocation) throws(SSMLError) {
        try flush()
        guard hasContent, !suppressesNextSoftPause else { return }
        if case .pause(let last) = segments.last {
            if isSoftPause[isSoftPause.count - 1], case .strength(let lastStrength) = last,
                lastStrength.seconds < strength.seconds
            {
                segments[segments.count - 1] = .pause(.strength(strength))
            }
            return
        }
        try append(.pause(.strength(strength)), soft: true, at: location)
    }

    /// Adds a `<break>`: a length in seconds (already clamped) or a strength.
    mutating func appendBreak(_ pause: Pause, at location: SourceLocation) throws(SSMLError) {
        try flush()
        if case .pause = segments.last, isSoftPause[isSoftPause.count - 1] {
            segments.removeLast()
            isSoftPause.removeLast()
        }
        if pause == .strength(.none) {
            suppressesNextSoftPause = true
            return
        }
        totalBreakSeconds += pause.seconds
        if totalBreakSeconds > limits.maxTotalBreakSeconds {
            throw SSMLError(
                .limitExceeded,
                "breaks add up to more than the limit of \(Self.format(limits.maxTotalBreakSeconds)) s of silence",
                at: location)
        }
        try append(.pause(pause), soft: false, at: location)
        hasContent = true
    }

    /// Adds a recorded sound (`<audio>` whose file could be read).
    mutating func appendAudio(_ clip: AudioClip, at location: SourceLocation) throws(SSMLError) {
        try flush()
        try append(.audio(clip), soft: false, at: location)
        hasContent = true
        suppressesNextSoftPause = false
    }

    /// Shares `duration` seconds among the text segments from index `start` on, in proportion
    /// to their length, after the pauses among them and the durations nested elements set.
    /// Returns false (and changes nothing) when no time is left for the text.
    mutating func distribute(duration: Double, from start: Int) -> Bool {
        guard start < segments.count else { return true }
        var taken = 0.0
        var characters = 0
        for segment in segments[start...] {
            switch segment {
            case .pause(let pause): taken += pause.seconds
            case .audio(let clip): taken += clip.duration
            case .text(let text):
                if let fixed = text.prosody.duration { taken += fixed } else { characters += text.text.count }
            case .mark: break
            }
        }
        let left = duration - taken
        guard characters > 0 else { return true }
        guard left > 0 else { return false }
        for index in start..<segments.count {
            guard case .text(var text) = segments[index], text.prosody.duration == nil else { continue }
            text.prosody.duration = left * Double(text.text.count) / Double(characters)
            segments[index] = .text(text)
        }
        return true
    }

    /// Adds a `<mark>`.
    mutating func appendMark(_ name: String, at location: SourceLocation) throws(SSMLError) {
        try flush()
        try append(.mark(name), soft: false, at: location)
    }

    /// The segments, with trailing structural pauses removed.
    mutating func finish() throws(SSMLError) -> [Segment] {
        try flush()
        var index = segments.count - 1
        while index >= 0 {
            if case .mark = segments[index] {
                index -= 1
                continue
            }
            guard case .pause = segments[index], isSoftPause[index] else { break }
            segments.remove(at: index)
            isSoftPause.remove(at: index)
            index -= 1
        }
        return segments
    }

    private mutating func append(_ segment: Segment, soft: Bool, at location: SourceLocation?)
        throws(SSMLError)
    {
        guard segments.count < limits.maxSegments else {
            throw SSMLError(
                .limitExceeded, "more than \(limits.maxSegments) segments (text runs, pauses and marks)",
                at: location)
        }
        segments.append(segment)
        isSoftPause.append(soft)
    }

    /// Runs of XML white space become one space; none is left at either end.
    ///
    /// - Complexity: O(n), on UTF-8 code units.
    static func collapsingWhitespace(_ text: String) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            if SSMLTokenizer.isWhitespace(byte) {
                pendingSpace = true
            } else {
                if pendingSpace, !result.isEmpty { result.append(0x20) }
                pendingSpace = false
                result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }
}
