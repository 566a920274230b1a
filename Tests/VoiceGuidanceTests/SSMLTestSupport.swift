import Foundation
import VoiceGuidance

/// Helpers shared by the SSML test suites.
enum SSMLTestSupport {
    /// The error parsing `text` throws, or nil when it parses.
    static func error(_ text: String, parser: SSMLParser = SSMLParser()) -> SSMLError? {
        do {
            _ = try parser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    /// The error parsing `data` throws, or nil when it parses.
    static func error(data: Data, parser: SSMLParser = SSMLParser()) -> SSMLError? {
        do {
            _ = try parser.parse(data: data)
            return nil
        } catch {
            return error
        }
    }

    /// The text segments of an utterance.
    static func texts(_ utterance: Utterance) -> [TextSegment] {
        utterance.segments.compactMap { segment in
            if case .text(let text) = segment { return text }
            return nil
        }
    }

    /// The single text segment of an utterance, or nil when there is not exactly one.
    static func onlyText(_ utterance: Utterance) -> TextSegment? {
        let found = texts(utterance)
        return found.count == 1 ? found[0] : nil
    }
}
