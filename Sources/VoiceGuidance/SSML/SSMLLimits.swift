extension SSMLParser {
    /// Bounds the parser enforces, so hostile or broken input fails fast with a clear error.
    ///
    /// The defaults are generous for navigation prompts (a real Mapbox `ssmlAnnouncement` is
    /// about 150 bytes, 3 segments, no breaks) and small enough that parsing the worst input
    /// allowed takes milliseconds.
    public struct Limits: Sendable, Equatable {
        /// Largest input, in UTF-8 bytes (default 64 KiB). Larger input is refused before parsing.
        public var maxInputBytes: Int
        /// Deepest element nesting, `<speak>` included (default 64).
        public var maxDepth: Int
        /// Most segments (text runs, pauses and marks) in one utterance (default 4,096).
        public var maxSegments: Int
        /// Longest single `<break>`, in seconds (default 10). Longer breaks are clamped to it,
        /// with a warning.
        public var maxBreakSeconds: Double
        /// Most silence from `<break>` elements in one utterance, in seconds (default 60).
        /// Over it is an error.
        public var maxTotalBreakSeconds: Double
        /// Largest WAV file one `<audio src>` may name, in bytes (default 16 MiB); a larger file
        /// is not read, and the element's content is spoken instead, with a warning.
        public var maxAudioBytes: Int
        /// Most recorded sound from `<audio>` in one utterance, in seconds (default 30); a clip
        /// that would go over it is not played, and its content is spoken instead, with a warning.
        public var maxAudioSeconds: Double

        /// Creates limits; every parameter has the documented default.
        public init(
            maxInputBytes: Int = 64 * 1024, maxDepth: Int = 64, maxSegments: Int = 4096,
            maxBreakSeconds: Double = 10, maxTotalBreakSeconds: Double = 60,
            maxAudioBytes: Int = 16 * 1024 * 1024, maxAudioSeconds: Double = 30
        ) {
            self.maxInputBytes = maxInputBytes
            self.maxDepth = maxDepth
            self.maxSegments = maxSegments
            self.maxBreakSeconds = maxBreakSeconds
            self.maxTotalBreakSeconds = maxTotalBreakSeconds
            self.maxAudioBytes = maxAudioBytes
            self.maxAudioSeconds = maxAudioSeconds
        }
    }
}
