import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// The files in `ssml-samples/`: every one parses; only the vendor-tag samples warn.
@Suite struct SSMLSamplesTests {
    static let folder = TestFixtures.packageRoot().appendingPathComponent("ssml-samples", isDirectory: true)

    /// Samples that use vendor markup we do not support, or show a warning (a missing audio
    /// file, contour, a foreign namespace): each gives exactly one warning.
    static let vendorSamples: Set<String> = [
        "amazon-domain", "amazon-breath", "amazon-auto-breaths", "amazon-effect-whispered", "vendor-other",
        "audio-missing", "prosody-contour", "speak-xmlns-other",
    ]

    /// Plain-text samples (no tag besides the comment).
    static let plainTextSamples: Set<String> = ["plain-text", "plain-text-ampersand"]

    static func sampleNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".ssml") }
            .map { String($0.dropLast(5)) }
            .sorted()
    }

    static func parse(_ name: String) throws -> Utterance {
        try SSMLParser(audioFiles: AudioSourceLoader(directory: folder)).parse(
            data: Data(contentsOf: folder.appendingPathComponent("\(name).ssml")))
    }

    @Test func everyElementHasASample() throws {
        let names = Set(try Self.sampleNames())
        let required =
            [
                "speak", "p", "s", "break", "prosody-rate", "prosody-pitch", "prosody-volume", "sub",
                "phoneme-ipa",
                "phoneme-xsampa", "emphasis", "lang", "voice", "mark", "w", "amazon-effect-drc",
                "amazon-domain",
                "amazon-breath", "amazon-auto-breaths", "real-mapbox-exit", "real-mapbox-roundabout",
                "audio", "meta", "token", "doctype-ssml10", "prosody-duration", "prosody-contour",
                "plain-text-ampersand", "say-as-fraction-polly", "say-as-time-duration", "emphasis-article",
                "phoneme-ipa-diphthongs", "speak-xmlns-other",
            ] + InterpretAs.allCases.map { "say-as-\($0.rawValue)" }
        #expect(required.filter { !names.contains($0) } == [])
    }

    @Test(arguments: try sampleNames())
    func sampleParsesAndSaysWhatToHear(name: String) throws {
        let source = try String(
            contentsOf: Self.folder.appendingPathComponent("\(name).ssml"), encoding: .utf8)
        #expect(source.hasPrefix("<!-- Hear: "))
        #expect(SSMLParser.looksLikeSSML(source) || Self.plainTextSamples.contains(name))
        let utterance = try Self.parse(name)
        #expect(!utterance.plainText.isEmpty)
        if Self.vendorSamples.contains(name) {
            #expect(utterance.warnings.count == 1)
            #expect(utterance.warnings.allSatisfy { $0.element != nil && $0.location != nil })
        } else {
            #expect(utterance.warnings.isEmpty, "\(utterance.warnings)")
        }
    }

    @Test func samplesSayWhatTheirCommentsPromise() throws {
        #expect(try Self.parse("break").segments.contains(.pause(.seconds(1.5))))
        #expect(try Self.parse("break-first").segments.first == .pause(.seconds(1)))
        let rates = SSMLTestSupport.texts(try Self.parse("prosody-rate")).map(\.prosody.rate)
        #expect(rates == [1, 0.6, 1.5])
        let gains = SSMLTestSupport.texts(try Self.parse("prosody-volume")).map(\.prosody.volumeDB)
        #expect(gains == [0, 6, -6])
        let pitches = SSMLTestSupport.texts(try Self.parse("prosody-pitch")).map(\.prosody.pitch)
        #expect(pitches.count == 3 && pitches[1] > 1 && pitches[2] < 1)
        #expect(try Self.parse("sub").plainText == "Merge onto the World Wide Web Expressway.")
        let languages = SSMLTestSupport.texts(try Self.parse("lang")).map(\.language)
        #expect(languages == ["en-US", "de-DE", "en-US"])
        #expect(
            try Self.parse("mark").segments.filter { if case .mark = $0 { true } else { false } }.count == 2)
        let exit = SSMLTestSupport.texts(try Self.parse("real-mapbox-exit"))
        #expect(exit.map(\.sayAs?.interpretAs) == [nil, .address, nil])
        #expect(exit.allSatisfy { $0.isCompressed && $0.prosody.rate == 1.08 })
        let sentences = try Self.parse("real-multi-sentence").segments
        #expect(sentences.contains(.pause(.strength(.medium))))
        #expect(
            try Self.parse("entities-and-utf8").plainText.contains("Café & Bar, 20 °C, exit #5, Ørestad,"))
    }

    @Test func newSSML11SamplesSayWhatTheirCommentsPromise() throws {
        let audio = try Self.parse("audio")
        guard case .audio(let clip) = try #require(audio.segments.first) else {
            Issue.record("no clip first: \(audio.segments)")
            return
        }
        #expect(clip.sampleRate == 44_100 && abs(clip.duration - 0.4) < 0.001)
        #expect(audio.plainText == "Turn left now.")
        #expect(try Self.parse("audio-missing").plainText == "Chime. Turn left now.")
        #expect(try Self.parse("meta").plainText == "Turn right onto Main Street.")
        #expect(SSMLTestSupport.texts(try Self.parse("token")).map(\.role) == [nil, "amazon:VB", nil])
        #expect(try Self.parse("doctype-ssml10").plainText == "This document is SSML one point oh.")
        let durations = SSMLTestSupport.texts(try Self.parse("prosody-duration")).map(\.prosody.duration)
        #expect(durations == [nil, 3, nil])
        #expect(
            try Self.parse("plain-text-ampersand").plainText
                == "Turn right at Fish & Chips, then compile&flash.")
    }
}
