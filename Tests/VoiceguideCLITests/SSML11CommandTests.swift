import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// The CLI with SSML 1.1 documents: `check --strict` accepts every standard element we
/// support and names the ones we do not; `<audio src>` is found next to the SSML file.
@Suite struct SSML11CommandTests {
    let cli: CommandRunner
    init() throws { cli = try CommandRunner() }

    /// Every standard SSML 1.1 element we support, with a chime next to the file.
    static let everySupportedElement = """
        <?xml version="1.0" encoding="UTF-8"?>
        <speak version="1.1" xmlns="http://www.w3.org/2001/10/synthesis" xml:lang="en-US">
          <meta name="author" content="test"/><metadata><x>y</x></metadata><lexicon uri="a.pls"/>
          <p><s>Turn <emphasis level="strong">left</emphasis><break time="300ms"/></s>
          <s><prosody rate="slow" pitch="+2st" volume="+3dB" duration="2s">then</prosody>
          <say-as interpret-as="currency">$45</say-as> <sub alias="Street">St</sub>
          <phoneme alphabet="ipa" ph="ˈtʌn">ton</phoneme> <w role="amazon:VBD">read</w> <token>it</token>
          <lang xml:lang="de-DE">Ausfahrt</lang> <voice gender="female">now</voice><mark name="m"/>
          <audio src="sounds/chime.wav"><desc>chime</desc>ding</audio></s></p>
        </speak>
        """

    static func folderWithDocument() throws -> URL {
        let folder = try CommandRunner.temporaryFolder()
        let sounds = folder.appendingPathComponent("sounds")
        try FileManager.default.createDirectory(at: sounds, withIntermediateDirectories: true)
        let tone = (0..<8_000).map { Int16(5_000 * sin(2 * Double.pi * 660 * Double($0) / 16_000)) }
        try WAVFile.write(samples: tone, sampleRate: 16_000, to: sounds.appendingPathComponent("chime.wav"))
        try Data(everySupportedElement.utf8).write(to: folder.appendingPathComponent("all.ssml"))
        try Data(#"<speak><lookup ref="lex">St</lookup> <foo>x</foo></speak>"#.utf8)
            .write(to: folder.appendingPathComponent("lookup.ssml"))
        return folder
    }

    @Test func strictCheckAcceptsEverySupportedStandardElement() throws {
        let folder = try Self.folderWithDocument()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Run from elsewhere: the audio file is found next to the SSML file, not in the cwd.
        let result = try cli.run(["check", "--strict", folder.appendingPathComponent("all.ssml").path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("warning") && !result.stdout.contains("error"), "\(result.stdout)")
    }

    @Test func strictCheckNamesStandardElementsWeDoNotSupport() throws {
        let folder = try Self.folderWithDocument()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("lookup.ssml").path
        let strict = try cli.run(["check", "--strict", path])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("lookup.ssml:1:8:"), "\(strict.stdout)")
        #expect(strict.stdout.contains("<lookup>: standard SSML 1.1 element that is not supported"))
        let lenient = try cli.run(["check", path])
        #expect(lenient.status == 0)
        #expect(lenient.stdout.contains("<lookup>: standard SSML 1.1 element"))
        #expect(lenient.stdout.contains("<foo>: unknown element"))
    }

    @Test func renderPlaysTheAudioNextToTheFile() throws {
        let folder = try Self.folderWithDocument()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ssml = folder.appendingPathComponent("chime.ssml")
        try Data(#"<speak>Ding <audio src="sounds/chime.wav">missing</audio> dong</speak>"#.utf8).write(
            to: ssml)
        let out = folder.appendingPathComponent("chime.wav")
        let result = try cli.run(["render", "--json", "-o", out.path, ssml.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            !result.stdout.contains("missing") && !result.stderr.contains("not played"), "\(result.stderr)")
        let explained = try cli.run(["explain", ssml.path])
        #expect(explained.stdout.contains("audio sounds/chime.wav 0.500 s"), "\(explained.stdout)")
        let spoken = try cli.run(["speak", "-o", folder.appendingPathComponent("spoken.wav").path, ssml.path])
        #expect(spoken.status == 0, "\(spoken.stderr)")
        #expect(!spoken.stderr.contains("not played"), "\(spoken.stderr)")
        let missing = folder.appendingPathComponent("missing.ssml")
        try Data(#"<speak>Ding <audio src="absent.wav">missing</audio> dong</speak>"#.utf8).write(to: missing)
        let warned = try cli.run([
            "speak", "-o", folder.appendingPathComponent("missing.wav").path, missing.path,
        ])
        #expect(warned.status == 0 && warned.stderr.contains("not played"), "\(warned.stderr)")
        // Given as text on the command line, the src is relative to the current directory.
        let inline = try cli.run([
            "explain", #"<speak><audio src="sounds/chime.wav">missing</audio></speak>"#,
        ])
        #expect(inline.stdout.contains("eSpeak:   missing"), "\(inline.stdout)")
        let here = try cli.run(
            ["explain", #"<speak><audio src="sounds/chime.wav">missing</audio></speak>"#], directory: folder)
        #expect(here.stdout.contains("audio sounds/chime.wav"), "\(here.stdout)")
    }
}
