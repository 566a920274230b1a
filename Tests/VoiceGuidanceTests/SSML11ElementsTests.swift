import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

private typealias Support = SSMLTestSupport

/// The SSML 1.1 elements real documents use besides the navigation subset: `audio` and
/// `desc`, `meta`, `metadata`, `lexicon`, `token`, the SSML 1.0 DOCTYPE, the namespace, and
/// `prosody duration` / `contour`.
@Suite struct SSML11ElementsTests {
    /// A folder with `chime.wav` (0.25 s of 440 Hz at 16 kHz), a stereo file, a text file
    /// named `.wav` and an 8-bit file; removed by the caller.
    static func audioFolder() throws -> URL {
        let folder = try CommandRunner.temporaryFolder()
        let tone = (0..<4_000).map { Int16(8_000 * sin(2 * Double.pi * 440 * Double($0) / 16_000)) }
        try WAVFile.write(samples: tone, sampleRate: 16_000, to: folder.appendingPathComponent("chime.wav"))
        let stereo: [Int16] = tone.flatMap { sample -> [Int16] in [sample, 0] }
        try WAVFile.encode(samples: stereo, sampleRate: 16_000, channels: 2)
            .write(to: folder.appendingPathComponent("stereo.wav"))
        try Data("not audio".utf8).write(to: folder.appendingPathComponent("text.wav"))
        var eightBit = WAVFile.encode(samples: tone, sampleRate: 16_000)
        eightBit[34] = 8  // bits per sample
        try eightBit.write(to: folder.appendingPathComponent("eight.wav"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        return folder
    }

    static func parser(_ folder: URL, limits: SSMLParser.Limits = .init()) -> SSMLParser {
        SSMLParser(limits: limits, audioFiles: AudioSourceLoader(directory: folder))
    }

    // MARK: - audio

    @Test func audioPlaysTheFileAndNotItsContent() throws {
        let folder = try Self.audioFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let utterance = try Self.parser(folder).parse(
            #"<speak>Ding <audio src="chime.wav"><desc>a chime</desc>fallback text</audio> now</speak>"#)
        #expect(utterance.warnings.isEmpty)
        #expect(utterance.segments.count == 3)
        guard case .audio(let clip) = utterance.segments[1] else {
            Issue.record("\(utterance.segments)")
            return
        }
        #expect(clip.source == "chime.wav" && clip.sampleRate == 16_000 && clip.samples.count == 4_000)
        #expect(abs(clip.duration - 0.25) < 1e-9)
        #expect(utterance.plainText == "Ding now")
    }

    @Test func audioSourceResolvesRelativeAbsoluteAndFileURL() throws {
        let folder = try Self.audioFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("chime.wav").path
        let subParser = Self.parser(folder.appendingPathComponent("sub"))
        for source in ["../chime.wav", path, "file://\(path)"] {
            let utterance = try subParser.parse(#"<speak><audio src="\#(source)"/></speak>"#)
            #expect(utterance.warnings.isEmpty, "\(source): \(utterance.warnings)")
            #expect(utterance.segments.count == 1, "\(source)")
        }
        // A symbolic link to a WAV is followed.
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link.wav").path, withDestinationPath: path)
        let linked = try Self.parser(folder).parse(#"<audio src="link.wav">x</audio>"#)
        #expect(linked.warnings.isEmpty && linked.segments.count == 1, "\(linked.warnings)")
        let stereo = try Self.parser(folder).parse(#"<audio src="stereo.wav"/>"#)
        guard case .audio(let clip) = try #require(stereo.segments.first) else {
            Issue.record("no clip")
            return
        }
        #expect(clip.samples.count == 4_000)
        #expect(clip.samples.max() == 4_000)  // mixed with a silent channel: half the level
    }

    /// A file that cannot be used: its content is spoken, its `<desc>` never, with a warning
    /// that names the element, its position and why.
    @Test(arguments: [
        ("missing.wav", "cannot read"), ("text.wav", "not a RIFF/WAVE"), ("eight.wav", "8-bit"),
        ("http://example.com/chime.wav", "not a local file"), ("sub", "not a regular file"),
    ])
    func unusableAudioSpeaksItsContent(source: String, reason: String) throws {
        let folder = try Self.audioFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let utterance = try Self.parser(folder).parse(
            #"<speak>Ding <audio src="\#(source)"><desc>a chime</desc>chime</audio> now</speak>"#)
        #expect(utterance.plainText == "Ding chime now")
        #expect(!utterance.segments.contains { if case .audio = $0 { true } else { false } })
        let warning = try #require(utterance.warnings.first)
        #expect(utterance.warnings.count == 1)
        #expect(warning.element == "audio" && warning.location == SourceLocation(line: 1, column: 20))
        #expect(warning.message.contains(reason), "\(warning.message)")
    }

    @Test func audioIsBoundedBySizeAndTotalLength() throws {
        let folder = try Self.audioFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = Self.parser(folder, limits: .init(maxAudioBytes: 1_000))
        let tooBig = try small.parse(#"<audio src="chime.wav">chime</audio>"#)
        #expect(tooBig.plainText == "chime")
        #expect(tooBig.warnings.first?.message.contains("over the limit of 1000 bytes") == true)
        // 0.25 s each; a limit of 0.6 s plays two and speaks the third.
        let short = Self.parser(folder, limits: .init(maxAudioSeconds: 0.6))
        let three = try short.parse(
            #"<speak><audio src="chime.wav">one</audio><audio src="chime.wav">two</audio><audio src="chime.wav">three</audio></speak>"#
        )
        #expect(three.plainText == "three")
        #expect(three.segments.count == 3)
        #expect(three.warnings.first?.message.contains("more than 0.6 s of recorded sound") == true)
        #expect(SSMLParser.Limits().maxAudioBytes == 16 * 1024 * 1024)
        #expect(SSMLParser.Limits().maxAudioSeconds == 30)
    }

    /// A FIFO named as the audio file is never opened (opening it would wait for a writer).
    @Test func aFIFOIsNotOpened() throws {
        let folder = try Self.audioFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe.wav").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let utterance = try Self.parser(folder).parse(#"<audio src="pipe.wav">ding</audio>"#)
        #expect(utterance.plainText == "ding")
        #expect(utterance.warnings.first?.message.contains("not a regular file") == true)
    }

    @Test func attributesThatWouldChangeTheClipWarn() throws {
        let folder = try Self.audioFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let utterance = try Self.parser(folder).parse(
            #"<audio src="chime.wav" soundLevel="+6dB" fetchtimeout="5s" repeatCount="2">x</audio>"#)
        #expect(utterance.segments.count == 1)
        #expect(
            utterance.warnings.map(\.message).sorted() == [
                "repeatCount is not supported; the clip is played as recorded",
                "soundLevel is not supported; the clip is played as recorded",
            ])
    }

    @Test func audioNeedsASource() {
        #expect(Support.error("<speak><audio>x</audio></speak>")?.message.contains("'src'") == true)
    }

    @Test func descIsNeverSpokenEvenOutsideAudio() throws {
        let utterance = try SSMLParser().parse("<speak>Turn <desc>not this</desc>left</speak>")
        #expect(utterance.plainText == "Turn left")
    }

    // MARK: - meta, metadata, lexicon, token

    @Test func documentInformationIsNeverSpoken() throws {
        let ssml = """
            <speak version="1.1" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en-US">
            <meta name="seeAlso" content="http://example.com/info.xml"/><meta http-equiv="Cache-Control" content="no-cache"/>
            <metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description>
            <dc:title xmlns:dc="http://purl.org/dc/elements/1.1/">Never read aloud</dc:title><break time="5s"/>
            </rdf:Description></rdf:RDF></metadata>
            <lexicon uri="http://example.com/streets.pls" xml:id="streets"/>Turn right.</speak>
            """
        for strict in [false, true] {
            let utterance = try SSMLParser(isStrict: strict).parse(ssml)
            #expect(utterance.plainText == "Turn right.")
            #expect(utterance.segments.count == 1)
            #expect(utterance.warnings.isEmpty, "\(utterance.warnings)")
        }
        #expect(Support.error("<speak><metadata><a></metadata></speak>") != nil)
    }

    // MARK: - DOCTYPE and namespace

    static let ssml10 = """
        <?xml version="1.0"?>
        <!DOCTYPE speak PUBLIC "-//W3C//DTD SYNTHESIS 1.0//EN"
                          "http://www.w3.org/TR/speech-synthesis/synthesis.dtd">
        <speak version="1.0" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en-US">Hello</speak>
        """

    @Test func ssml10DocumentTypeIsAccepted() throws {
        let utterance = try SSMLParser(isStrict: true).parse(Self.ssml10)
        #expect(utterance.plainText == "Hello" && utterance.warnings.isEmpty && utterance.language == "en-US")
        #expect(try SSMLParser().parse("<!DOCTYPE speak><speak>Hi</speak>").plainText == "Hi")
    }

    @Test(arguments: [
        ("<!DOCTYPE speak [<!ENTITY a \"b\">]><speak>&a;</speak>", "internal subset"),
        (
            "<!DOCTYPE speak PUBLIC \"-//W3C//DTD SYNTHESIS 1.0//EN\" \"http://www.w3.org/x.dtd\" [ ]><speak/>",
            "internal subset"
        ),
        ("<!DOCTYPE speak SYSTEM \"file:///etc/passwd\"><speak/>", "no external entities"),
        (
            "<!DOCTYPE speak PUBLIC \"-//EVIL//X\" \"http://www.w3.org/x.dtd\"><speak/>",
            "no external entities"
        ),
        (
            "<!DOCTYPE speak PUBLIC \"-//W3C//DTD SYNTHESIS 1.0//EN\" \"http://evil.example/x.dtd\"><speak/>",
            "no external entities"
        ),
        ("<!DOCTYPE html><speak/>", "except <!DOCTYPE speak"),
        ("<speak><!DOCTYPE speak></speak>", "only come once, before the root"),
        ("<!DOCTYPE speak><!DOCTYPE speak><speak/>", "only come once"),
        ("<!DOCTYPE speak PUBLIC \"-//W3C//DTD SYNTHESIS 1.0//EN\" \"http://www.w3.org/", "never closed"),
    ])
    func otherDocumentTypesStayRefused(ssml: String, message: String) throws {
        let error = try #require(Support.error(ssml))
        #expect(error.kind == .malformed)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test func aForeignNamespaceOnSpeakWarns() throws {
        let other = try SSMLParser().parse(#"<speak xmlns="http://example.com/ns">Hi</speak>"#)
        #expect(other.plainText == "Hi")
        #expect(other.warnings.map(\.element) == ["speak"])
        #expect(other.warnings.first?.location == SourceLocation(line: 1, column: 8))
        #expect(other.warnings.first?.message.contains("not the SSML namespace") == true)
        let ssml = try SSMLParser().parse(#"<speak xmlns="http://www.w3.org/2001/10/synthesis">Hi</speak>"#)
        #expect(ssml.warnings.isEmpty)
    }

    // MARK: - prosody duration and contour

    @Test func prosodyDurationIsSharedByLengthAfterBreaks() throws {
        let utterance = try SSMLParser().parse(
            #"<speak>Now <prosody duration="3s">turn <break time="1s"/>left <emphasis>here</emphasis></prosody> ok</speak>"#
        )
        let texts = Support.texts(utterance)
        #expect(texts.map(\.text) == ["Now", "turn", "left", "here", "ok"])
        let durations = texts.map { $0.prosody.duration ?? -1 }
        #expect(durations[0] == -1 && durations[4] == -1)
        // 2 s left after the break, shared over 4 + 4 + 4 characters.
        for value in durations[1...3] { #expect(abs(value - 2.0 / 3) < 1e-9) }
        #expect(utterance.warnings.isEmpty)
    }

    @Test func prosodyDurationValuesAreCheckedAndClamped() throws {
        #expect(Support.error(#"<prosody duration="fast">x</prosody>"#)?.message.contains("duration") == true)
        let long = try SSMLParser().parse(#"<prosody duration="2000s">x</prosody>"#)
        #expect(Support.onlyText(long)?.prosody.duration == 60)
        #expect(long.warnings.first?.message.contains("clamped to 60 s") == true)
        let noTime = try SSMLParser().parse(#"<prosody duration="1s">a<break time="2s"/>b</prosody>"#)
        #expect(Support.texts(noTime).allSatisfy { $0.prosody.duration == nil })
        #expect(noTime.warnings.first?.message.contains("no time for the text") == true)
    }

    @Test func contourWarnsOnce() throws {
        let utterance = try SSMLParser().parse(
            #"<speak><prosody contour="(0%,+20Hz)">a</prosody> <prosody contour="(0%,-9Hz)">b</prosody></speak>"#
        )
        #expect(utterance.plainText == "a b")
        #expect(utterance.warnings.count == 1)
        #expect(utterance.warnings.first?.location == SourceLocation(line: 1, column: 17))
    }

    // MARK: - strict mode

    /// Every standard SSML 1.1 element we support, in one document: strict mode accepts it.
    static let everySupportedElement = """
        <?xml version="1.0" encoding="UTF-8"?>
        <speak version="1.1" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en-US">
          <meta name="author" content="test"/><metadata><x>y</x></metadata><lexicon uri="a.pls"/>
          <p><s>Turn <emphasis level="strong">left</emphasis><break time="300ms"/></s>
          <s><prosody rate="slow" pitch="+2st" volume="+3dB" duration="2s">then</prosody>
          <say-as interpret-as="cardinal">3</say-as> <sub alias="Street">St</sub>
          <phoneme alphabet="ipa" ph="ˈtʌn">ton</phoneme> <w role="amazon:VB">read</w> <token>it</token>
          <lang xml:lang="de-DE">Ausfahrt</lang> <voice gender="female">now</voice><mark name="m"/>
          <audio src="missing.wav"><desc>chime</desc>ding</audio></s></p>
        </speak>
        """

    @Test func strictModeAcceptsEveryStandardElementWeSupport() throws {
        let utterance = try SSMLParser(isStrict: true).parse(Self.everySupportedElement)
        #expect(utterance.warnings.map(\.element) == ["audio"])  // the file is missing
        let standard: Set<String> = [
            "speak", "lexicon", "meta", "metadata", "p", "s", "token", "w", "say-as", "phoneme", "sub",
            "lang",
            "voice", "emphasis", "break", "prosody", "audio", "desc", "mark",
        ]
        let used = Set(
            Self.everySupportedElement.split(separator: "<").compactMap { piece -> String? in
                let name = piece.prefix { $0.isLetter || $0 == "-" }
                return name.isEmpty ? nil : String(name)
            })
        #expect(standard.subtracting(["desc"]).isSubset(of: used.union(["desc"])))
        #expect(standard.subtracting(used).isEmpty)
    }

    @Test func strictModeNamesStandardElementsWeDoNotSupport() throws {
        let error = try #require(
            Support.error(
                #"<speak><lookup ref="streets">St</lookup></speak>"#, parser: SSMLParser(isStrict: true)))
        #expect(error.message.contains("<lookup>") && error.message.contains("standard SSML 1.1"))
        #expect(error.location == SourceLocation(line: 1, column: 8))
        let lenient = try SSMLParser().parse(#"<speak><lookup ref="streets">St</lookup></speak>"#)
        #expect(lenient.plainText == "St")
        #expect(lenient.warnings.first?.message.contains("standard SSML 1.1 element") == true)
    }
}
