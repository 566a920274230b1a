import Foundation
import VoiceGuidance

/// `voiceguide check`: parse SSML files and report errors and warnings with positions.
enum CheckCommand: Command {
    static let name = "check"
    static let summary = "check SSML files; print errors and warnings as file:line:col"
    static let usage = """
        usage: voiceguide check [--strict] FILE...

        Parses each file (- for standard input) as SSML and prints every error and warning as
        file:line:col: severity: message.

          --strict   vendor and unknown tags are errors, not warnings

        Exit status: 0 when every file parses, 1 otherwise, 64 usage.
        """

    static func run(_ arguments: inout CommandLineArguments) async throws -> Int32 {
        let strict = arguments.flag("--strict")
        let files = try arguments.positionals()
        guard !files.isEmpty else { throw UsageError("give one or more FILEs") }
        var parser = SSMLParser(isStrict: strict)
        var failed = 0
        for file in files {
            let data: Data
            let name = file == "-" ? "<stdin>" : file
            parser.audioFiles = Input.audioFiles(for: file)
            do {
                // At most the size limit plus one byte is read (`check - < /dev/zero` stops).
                if file == "-" {
                    data = try Input.bounded(FileHandle.standardInput, name: name)
                } else if let handle = FileHandle(forReadingAtPath: file) {
                    defer { try? handle.close() }
                    data = try Input.bounded(handle, name: name)
                } else {
                    print("\(file): error: cannot read the file")
                    failed += 1
                    continue
                }
            } catch let failure as CommandFailure {
                print(failure.message)
                failed += 1
                continue
            }
            do {
                let utterance = try parser.parse(data: data)
                for warning in utterance.warnings {
                    let element = warning.element.map { "<\($0)>: " } ?? ""
                    print(
                        "\(UtteranceReader.located(name, warning.location)) warning: \(element)\(warning.message)"
                    )
                }
            } catch {
                print("\(UtteranceReader.located(name, error.location)) error: \(error.message)")
                failed += 1
            }
        }
        return failed == 0 ? ExitStatus.success : ExitStatus.failure
    }
}
