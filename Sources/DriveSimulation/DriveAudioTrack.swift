public import VoiceGuidance

/// A drive's audio as one track, written to a sink as the drive goes: silence, and each prompt
/// at its time for as long as it was heard (a cut prompt fades out).
///
/// Only one prompt's samples are held at a time, so a drive of any length takes the same memory.
/// With `timeScale` above 1 the silences between prompts are that many times shorter (a drive
/// played N times faster); the prompts keep their own speed.
public final class DriveAudioTrack {
    /// Where the samples go (a WAV file, a sound device).
    public let sink: any AudioSink
    /// Frames per second of the track (the renderer's rate).
    public let sampleRate: Int
    /// How many times faster than the drive the silences pass.
    public let timeScale: Double
    private let audioOf: (SpokenInstruction) throws -> RenderedAudio
    /// Simulated time and track frame where the last prompt written ended.
    private var cursorTime = 0.0
    private var cursorFrame = 0
    private var hasBegun = false
    private let silenceChunk: [Int16]

    /// Makes a track.
    ///
    /// - Parameters:
    ///   - sink: where the samples go.
    ///   - sampleRate: frames per second.
    ///   - timeScale: silences are this many times shorter (1: the drive's own time).
    ///   - audioOf: a prompt's samples (rendered when it is written).
    public init(
        sink: any AudioSink, sampleRate: Int, timeScale: Double = 1,
        audioOf: @escaping (SpokenInstruction) throws -> RenderedAudio
    ) {
        self.sink = sink
        self.sampleRate = sampleRate
        self.timeScale = timeScale.isFinite && timeScale > 0 ? timeScale : 1
        self.audioOf = audioOf
        self.silenceChunk = [Int16](repeating: 0, count: max(1, sampleRate / 10))
    }

    /// Opens the sink (so that a missing device is reported before the drive starts).
    ///
    /// - Throws: `AudioSinkError` from the sink.
    public func begin() throws {
        guard !hasBegun else { return }
        try sink.begin(AudioFormat(sampleRate: sampleRate))
        hasBegun = true
    }

    /// Writes silence up to `start` (seconds since departure), then the prompt for the `heard`
    /// seconds the drive's timeline gave it (nil: the whole clip): faded out where it is cut,
    /// followed by silence where the clip is shorter. A prompt rendered again can differ from the
    /// rendering that was timed by a few milliseconds; the track keeps the timeline's lengths so
    /// that every later prompt stays where the timeline put it.
    public func add(_ instruction: SpokenInstruction, at start: Double, heardFor heard: Double? = nil) throws
    {
        try begin()
        let audio = try audioOf(instruction)
        var clip = audio.samples
        let length = heard.map { Self.frames($0, rate: sampleRate) } ?? clip.count
        if length < clip.count {
            clip.removeSubrange(length...)
            Fade.applyFadeOut(to: &clip, length: min(length, Fade.length(sampleRate: sampleRate)))
        }
        let startFrame = cursorFrame + Self.frames((start - cursorTime) / timeScale, rate: sampleRate)
        try writeSilence(upTo: startFrame)
        // A prompt that starts inside the previous one (rounding) loses its overlapping head.
        let skip = min(clip.count, max(0, cursorFrame - startFrame))
        if skip < clip.count { try sink.write(Array(clip[skip...])) }
        cursorFrame = max(cursorFrame, startFrame + clip.count)
        try writeSilence(upTo: startFrame + length)
        cursorTime = start + Double(cursorFrame - startFrame) / Double(sampleRate)
    }

    /// Writes silence up to `end` and finishes the sink's prompt (the caller closes the sink).
    public func finish(at end: Double) throws {
        try begin()
        try writeSilence(upTo: cursorFrame + Self.frames((end - cursorTime) / timeScale, rate: sampleRate))
        try sink.finish()
    }

    private func writeSilence(upTo frame: Int) throws {
        while cursorFrame < frame {
            let count = min(silenceChunk.count, frame - cursorFrame)
            try sink.write(count == silenceChunk.count ? silenceChunk : Array(silenceChunk.prefix(count)))
            cursorFrame += count
        }
    }

    /// Whole frames in `seconds` (0 for a negative or non-finite value).
    private static func frames(_ seconds: Double, rate: Int) -> Int {
        let value = seconds * Double(rate)
        guard value.isFinite, value > 0 else { return 0 }
        return Int(min(value, Double(Int.max / 4)))
    }
}
