import ESpeakBackend
import Foundation
import VoiceGuidance

/// `voiceguide check`: parse SSML files and report errors and warnings with positions.
enum CheckCommand: Command {
    static let name = "check"
    static let summary = "check SSML files; print errors and warnings as file:line:col"
    static let usage = """
        usage: voiceguide check [--strict] [--voice ID] FILE...

        Parses each file (- for standard input) as SSML and prints every error and warning as
        file:line:col: severity: message: the parser's, and every warning render would give in
        the voice (a number too long to read, a voice not installed, a rate or pitch clamped).

          --strict     vendor and unknown tags are errors, not warnings
          --voice ID   the voice profile render would use (default en-US)

        Exit status: 0 when every file parses, 1 otherwise, 64 usage.
        """

    static func run(_ arguments: inout CommandLineArguments) async throws -> Int32 {
        let strict = arguments.flag("--strict")
        let voice = try Voices.profile(&arguments)
        let files = try arguments.positionals()
        guard !files.isEmpty else { throw UsageError("give one or more FILEs") }
        var parser = SSMLParser(isStrict: strict)
        let renderer = try Engines.espeak()
        var failed = 0
        for file in files {
            let data: Data
            let name = file == "-" ? "<stdin>" : file
            parser.audioFiles = Input.audioFiles(for: file)
            do {
                // At most the size limit plus one byte is read (`check - < /dev/zero` stops).
                data = try Input.contents(of: file)
            } catch let failure as CommandFailure {
                print("\(name): error: \(failure.message)")
                failed += 1
                continue
            }
            do {
                let utterance = try parser.parse(data: data)
                for warning in try warnings(of: utterance, voice: voice, renderer: renderer) {
                    print(UtteranceReader.locatedWarning(name, warning))
                }
            } catch let error as SSMLError {
                print("\(UtteranceReader.located(name, error.location)) error: \(error.message)")
                failed += 1
            } catch {
                print("\(name): error: \(error)")
                failed += 1
            }
        }
        return failed == 0 ? ExitStatus.success : ExitStatus.failure
    }

    /// The parser's warnings and those render would add, in source order (`line:col: warning: …`).
    static func warnings(of utterance: Utterance, voice: VoiceProfile, renderer: ESpeakRenderer) throws
        -> [String]
    {
        let parsed = utterance.warnings.map { ($0.location, $0.description) }
        let rendered = try renderer.warnings(for: utterance, voice: voice).map {
            text -> (SourceLocation?, String) in
            let numbers = text.prefix { $0.isNumber || $0 == ":" }.split(separator: ":").compactMap {
                Int($0)
            }
            return (numbers.count == 2 ? SourceLocation(line: numbers[0], column: numbers[1]) : nil, text)
        }
        let all = parsed + rendered
        // Stable: by line and column, unplaced ones last, ties in the order found.
        return all.enumerated().sorted { left, right in
            let a = left.element.0.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
            let b = right.element.0.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
            return a != b ? a < b : left.offset < right.offset
        }.map(\.element.1)
    }
}
