import Foundation
import VoiceGuidance

/// One thing to say, as given on the command line: a file, standard input, or the text itself.
struct Input {
    /// How it is named in messages (`file.ssml`, `<stdin>`, `"Turn left"`).
    var displayName: String
    /// A file-name stem for default output names.
    var stem: String
    var data: Data
    /// The folder of the input file, where a relative `<audio src>` is found (nil: the current
    /// directory, for standard input and text given on the command line).
    var directory: URL?

    /// Where `<audio src>` files of `argument` (a file, or `-`) are found: next to the file.
    static func audioFiles(for argument: String) -> AudioSourceLoader {
        guard argument != "-" else { return AudioSourceLoader() }
        return AudioSourceLoader(directory: URL(fileURLWithPath: argument).deletingLastPathComponent())
    }

    /// The most bytes read from one input: SSML's limit (64 KiB), for text too.
    static let maxBytes = SSMLParser.Limits().maxInputBytes

    /// Reads `argument`: `-` is standard input, an existing path is a file, anything else is text.
    ///
    /// - Throws: `CommandFailure` when the input is over ``maxBytes`` (at most that plus one
    ///   byte is read, so `- < /dev/zero` stops at once), or cannot be read.
    static func read(_ argument: String) throws -> Input {
        if argument == "-" {
            return Input(displayName: "<stdin>", stem: "stdin", data: try contents(of: argument))
        }
        if FileManager.default.fileExists(atPath: argument) {
            let url = URL(fileURLWithPath: argument)
            return Input(
                displayName: argument, stem: url.deletingPathExtension().lastPathComponent,
                data: try contents(of: argument), directory: url.deletingLastPathComponent())
        }
        if argument.utf8.count > maxBytes {
            throw CommandFailure(
                "the text given is \(argument.utf8.count) bytes; the limit is \(maxBytes) bytes")
        }
        if looksLikePath(argument) {
            throw CommandFailure("no such file: \(argument)", status: ExitStatus.noInput)
        }
        return Input(
            displayName: "\"\(argument.prefix(40))\"", stem: slug(argument), data: Data(argument.utf8))
    }

    /// The bytes of the file at `path` (`-`: standard input), at most ``maxBytes`` of them.
    ///
    /// - Throws: `CommandFailure` saying in words why not: no such file, a folder (exit 66), over
    ///   the limit (exit 1, after reading one byte more).
    static func contents(of path: String) throws -> Data {
        try FileProblem.contents(of: path, limit: maxBytes)
    }

    /// True for arguments that can only be meant as a file (`x.ssml`, `dir/x`), not as text.
    private static func looksLikePath(_ argument: String) -> Bool {
        guard !argument.contains(" "), !argument.contains("<") else { return false }
        return argument.hasSuffix(".ssml") || argument.hasSuffix(".xml") || argument.hasSuffix(".txt")
            || argument.contains("/")
    }

    /// A short, file-name-safe version of some text: lower-case words joined by dashes.
    static func slug(_ text: String) -> String {
        let plain = text.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        var words: [String] = []
        var current = ""
        for character in plain.lowercased() {
            if character.isLetter || character.isNumber, character.isASCII {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        let joined = words.prefix(8).joined(separator: "-")
        return joined.isEmpty ? "utterance" : String(joined.prefix(60))
    }
}

/// How input text is read.
enum InputMode {
    /// SSML when it looks like markup, plain text otherwise.
    case automatic
    case ssml
    case text

    static func from(_ arguments: inout CommandLineArguments) throws -> InputMode {
        let ssml = arguments.flag("--ssml")
        let text = arguments.flag("--text")
        switch (ssml, text) {
        case (true, true): throw UsageError("--ssml and --text cannot be used together")
        case (true, false): return .ssml
        case (false, true): return .text
        case (false, false): return .automatic
        }
    }
}

/// Turns input into an utterance, reporting SSML errors with the input's name, line and column.
struct UtteranceReader {
    var parser = SSMLParser()
    var mode: InputMode = .automatic

    func utterance(from input: Input) throws -> Utterance {
        switch mode {
        case .text:
            // Plain text has SSML's size limit too (the speech limit is the renderer's).
            guard input.data.count <= parser.limits.maxInputBytes else {
                throw CommandFailure(
                    "\(input.displayName): error: input is \(input.data.count) bytes; the limit is "
                        + "\(parser.limits.maxInputBytes) bytes")
            }
            guard let text = String(data: input.data, encoding: .utf8) else {
                throw CommandFailure("\(input.displayName): error: the input is not valid UTF-8")
            }
            return Utterance(text: text.trimmingCharacters(in: .whitespacesAndNewlines))
        case .ssml, .automatic:
            do {
                var parser = parser
                parser.audioFiles = AudioSourceLoader(directory: input.directory)
                return try parser.parse(data: input.data)
            } catch {
                throw CommandFailure(
                    "\(Self.located(input.displayName, error.location)) error: \(error.message)")
            }
        }
    }

    /// A warning as `name:line:col: warning: message` (`name: warning: message` when it has no
    /// place), from a renderer's or parser's `line:col: warning: message` or bare text.
    static func locatedWarning(_ name: String, _ warning: String) -> String {
        let place = warning.prefix { $0.isNumber || $0 == ":" }
        if place.split(separator: ":").count == 2, warning.dropFirst(place.count).hasPrefix(" ") {
            return "\(name):\(warning)"
        }
        if warning.hasPrefix("warning: ") { return "\(name): \(warning)" }
        return "\(name): warning: \(warning)"
    }

    /// `name:line:col:` (or `name:` without a location).
    static func located(_ name: String, _ location: SourceLocation?) -> String {
        guard let location else { return "\(name):" }
        return "\(name):\(location.line):\(location.column):"
    }
}

/// Finds the voice profiles and picks one.
enum Voices {
    static func catalog() throws -> VoiceCatalog {
        guard let folder = VoiceCatalog.defaultDirectory() else {
            throw CommandFailure(
                "cannot find the Voices/ folder; run from the repository or set VOICEGUIDE_VOICES")
        }
        return try VoiceCatalog(directory: folder)
    }

    /// The profile named by `--voice`, or nil when none is given.
    static func chosenProfile(_ arguments: inout CommandLineArguments) throws -> VoiceProfile? {
        guard let id = try arguments.option("--voice") else { return nil }
        do {
            return try catalog().profile(id: id)
        } catch let error as VoiceCatalogError {
            throw CommandFailure(error.message)
        }
    }

    /// The voice for a route: `chosen`, else the route's `voiceLocale`'s (warnings on stderr).
    static func forRoute(_ route: Route, chosen: VoiceProfile?, catalog: VoiceCatalog) throws -> RouteVoice {
        do {
            let voice = try RouteVoice.choose(for: route.voiceLocale, chosen: chosen, catalog: catalog)
            for warning in voice.warnings { Console.error("warning: \(warning)") }
            return voice
        } catch let error as VoiceCatalogError {
            throw CommandFailure(error.message)
        }
    }

    /// The profile named by `--voice`, else en-US.
    static func profile(_ arguments: inout CommandLineArguments) throws -> VoiceProfile {
        let id = try arguments.option("--voice") ?? "en-US"
        do {
            return try catalog().profile(id: id)
        } catch let error as VoiceCatalogError {
            throw CommandFailure(error.message)
        }
    }
}

/// JSON output: compact, keys sorted, slashes left alone.
enum JSONOutput {
    static func line(_ object: Any) -> String {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
