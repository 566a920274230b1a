import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// The files in `ssml-samples/`: every one parses; only the vendor-tag samples warn.
@Suite struct SSMLSamplesTests {
    static let folder = TestFixtures.packageRoot().appendingPathComponent("ssml-samples", isDirectory: true)

    /// Samples that use vendor markup we do not support: each gives exactly one warning.
    static let vendorSamples: Set<String> = [
        "amazon-domain", "amazon-breath", "amazon-auto-breaths", "amazon-effect-whispered", "vendor-other",
    ]

    static func sampleNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".ssml") }
            .map { String($0.dropLast(5)) }
            .sorted()
    }

    static func parse(_ name: String) throws -> Utterance {
        try SSMLParser().parse(data: Data(contentsOf: folder.appendingPathComponent("\(name).ssml")))
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
            ] + InterpretAs.allCases.map { "say-as-\($0.rawValue)" }
        #expect(required.filter { !names.contains($0) } == [])
    }

    @Test(arguments: try sampleNames())
    func sampleParsesAndSaysWhatToHear(name: String) throws {
        let source = try String(
            contentsOf: Self.folder.appendingPathComponent("\(name).ssml"), encoding: .utf8)
        #expect(source.hasPrefix("<!-- Hear: "))
        #expect(SSMLParser.looksLikeSSML(source) || name == "plain-text")
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
}
