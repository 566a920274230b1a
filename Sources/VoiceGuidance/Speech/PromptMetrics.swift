import Foundation

/// Timing and cost of one spoken prompt, for benchmarks and logs (`SpeechSynthesizer.metricsHandler`).
public struct PromptMetrics: Sendable, Equatable {
    /// The prompt (after any `willSpeak` override).
    public var instruction: SpokenInstruction
    /// True when the audio came from `prepare`'s cache rather than a fresh render.
    public var wasCached: Bool
    /// From the `speak` call to the first samples handed to the sink's `write`; nil when nothing
    /// was written (muted, cancelled before starting, failed).
    public var firstFrameLatency: Duration?
    /// Seconds of audio handed to the sink.
    public var audioSeconds: Double
    /// CPU seconds the playback thread spent on the prompt (render, gain, fades, sink writes).
    public var cpuSeconds: Double
    /// Wall-clock time from the `speak` call to `didSpeak`.
    public var totalTime: Duration
    /// What `didSpeak` carried.
    public var error: SpeechError?
}

/// CPU time consumed so far by the calling thread, in seconds.
func currentThreadCPUSeconds() -> Double {
    SystemCalls.threadCPUSeconds()
}
