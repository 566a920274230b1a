import Foundation

/// A renderer that runs an external program: the utterance goes to its standard input (as plain
/// text or SSML), and it writes a WAV file on its standard output (`espeak-ng --stdout`,
/// `piper --output_file /dev/stdout`, a script of your own).
///
/// The command string is split into arguments like a shell would split simple words, but no
/// shell runs it: arguments are separated by unquoted white space; `'…'` keeps everything
/// literally; `"…"` keeps everything except `\"` and `\\`, which stand for `"` and `\`; outside
/// quotes, `\` makes the next character literal. There is no expansion of `$VAR`, `~`, `*`,
/// `;`, `|`, `>` or backquotes: they are passed on as written. The first word is the program,
/// looked up on `PATH` unless it contains a `/`.
///
/// The program's output is decoded with `WAVFile`, mixed down to mono and resampled to
/// `sampleRate` if needed. It reports no word or mark positions, so they are estimated from
/// the share of text before each one.
public struct CommandRenderer: SpeechRenderer {
    /// What the program reads on standard input.
    public enum Input: Sendable, Equatable {
        /// The utterance's text, segments joined by spaces.
        case plainText
        /// The utterance as SSML (`<speak>`, `<prosody>`, `<break>`, `<mark>`, `xml:lang`).
        case ssml
    }

    /// The program and its arguments, as split from the command string.
    public let arguments: [String]
    /// What goes to standard input.
    public let input: Input
    public let sampleRate: Int
    /// SSML when the program reads SSML; plain words otherwise. Either way the words are
    /// normalised first (`NormalizingRenderer`).
    public var accepts: RendererInput { input == .ssml ? .ssml : [] }
    /// Longest run time in seconds before the program is killed.
    public let timeout: Double

    /// A renderer running `command`.
    ///
    /// - Throws: `RenderError.engineUnavailable` when the command is empty, has an unclosed
    ///   quote, or names a program that cannot be found.
    public init(command: String, input: Input = .plainText, sampleRate: Int = 22_050, timeout: Double = 10)
        throws
    {
        let words = try Self.split(command)
        guard let program = words.first else {
            throw RenderError(.engineUnavailable, "the engine command is empty")
        }
        guard Self.resolve(program) != nil else {
            throw RenderError(.engineUnavailable, "the engine program \"\(program)\" is not found on PATH")
        }
        self.arguments = words
        self.input = input
        self.sampleRate = sampleRate
        self.timeout = timeout
    }

    /// Splits a command string into arguments by the rules in the type's description.
    ///
    /// - Throws: `RenderError.engineUnavailable` for an unclosed quote or a trailing backslash.
    public static func split(_ command: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var hasWord = false
        var iterator = command.makeIterator()
        while let character = iterator.next() {
            switch character {
            case "'":
                hasWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "'" {
                        closed = true
                        break
                    }
                    current.append(next)
                }
                guard closed else {
                    throw RenderError(.engineUnavailable, "unclosed ' in the engine command")
                }
            case "\"":
                hasWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "\"" {
                        closed = true
                        break
                    }
                    if next == "\\" {
                        guard let escaped = iterator.next() else { break }
                        if escaped != "\"" && escaped != "\\" { current.append("\\") }
                        current.append(escaped)
                    } else {
                        current.append(next)
                    }
                }
                guard closed else {
                    throw RenderError(.engineUnavailable, "unclosed \" in the engine command")
                }
            case "\\":
                guard let escaped = iterator.next() else {
                    throw RenderError(.engineUnavailable, "the engine command ends with a backslash")
                }
                hasWord = true
                current.append(escaped)
            case _ where character.isWhitespace:
                if hasWord { words.append(current) }
                current = ""
                hasWord = false
            default:
                hasWord = true
                current.append(character)
            }
        }
        if hasWord { words.append(current) }
        return words
    }

    public func render(
        _ utterance: Utterance, voice: VoiceProfile, handler: (RenderEvent) -> RenderControl
    ) throws -> RenderSummary {
        let text = input == .ssml ? Self.ssml(for: utterance) : utterance.plainText
        guard !utterance.plainText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw RenderError(.invalidInput, "nothing to say")
        }
        let output = try run(stdin: Data(text.utf8))
        let contents: WAVFile.Contents
        do {
            contents = try WAVFile.decode(output)
        } catch {
            throw RenderError(
                .synthesisFailed, "\(commandLine) did not write a WAV file on standard output: \(error)")
        }
        let samples = Self.resample(Self.mono(contents), from: contents.sampleRate, to: sampleRate)
        let (words, marks) = Self.estimatePositions(utterance, sampleCount: samples.count)

        var events: [(Int, RenderEvent)] =
            words.map { ($0.sample, .word($0)) } + marks.map { ($0.sample, .mark($0)) }
        events.sort { $0.0 < $1.0 }
        var eventIndex = 0
        var offset = 0
        let chunk = 1_024
        var stopped = false
        repeat {
            while eventIndex < events.count, events[eventIndex].0 <= offset {
                if handler(events[eventIndex].1) == .stop { stopped = true }
                eventIndex += 1
            }
            if stopped || offset >= samples.count { break }
            let end = min(offset + chunk, samples.count)
            if handler(.audio(Array(samples[offset..<end]))) == .stop { stopped = true }
            offset = end
        } while !stopped
        return RenderSummary(
            sampleRate: sampleRate, sampleCount: offset, marks: marks, words: words, wasStopped: stopped)
    }

    private var commandLine: String { "`\(arguments.joined(separator: " "))`" }

    /// Runs the program with `stdin`, returning its standard output.
    private func run(stdin: Data) throws -> Data {
        guard let executable = Self.resolve(arguments[0]) else {
            throw RenderError(
                .engineUnavailable, "the engine program \"\(arguments[0])\" is not found on PATH")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "voiceguidance-command-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw RenderError(
                .engineUnavailable, "cannot make a temporary folder: \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputURL = folder.appendingPathComponent("in")
        let outputURL = folder.appendingPathComponent("out")
        let errorURL = folder.appendingPathComponent("err")
        do {
            try stdin.write(to: inputURL)
        } catch {
            throw RenderError(
                .engineUnavailable, "cannot set up \(commandLine): \(error.localizedDescription)")
        }
        let child: ChildProcess
        do {
            child = try ChildProcess(
                executable.path, Array(arguments.dropFirst()), input: .readFile(inputURL.path),
                output: .writeFile(outputURL.path), error: .writeFile(errorURL.path))
        } catch {
            throw RenderError(.engineUnavailable, "cannot start \(commandLine): \(error.reason)")
        }
        guard let status = child.wait(timeout: timeout) else {
            child.terminate()
            if child.wait(timeout: 1) == nil { child.kill() }
            throw RenderError(
                .synthesisFailed,
                "\(commandLine) took longer than \(timeout) s and was stopped\(stderrTail(errorURL))")
        }
        switch status {
        case .exited(0): break
        case .exited(let code):
            throw RenderError(
                .synthesisFailed, "\(commandLine) exited with status \(code)\(stderrTail(errorURL))")
        case .signalled(let signal):
            throw RenderError(
                .synthesisFailed, "\(commandLine) was killed by signal \(signal)\(stderrTail(errorURL))")
        }
        do {
            return try Data(contentsOf: outputURL)
        } catch {
            throw RenderError(
                .synthesisFailed, "cannot read the output of \(commandLine): \(error.localizedDescription)")
        }
    }

    /// The last lines the program wrote on standard error, for messages.
    private func stderrTail(_ url: URL) -> String {
        guard let data = try? Data(contentsOf: url), !data.isEmpty else { return "" }
        let text = String(decoding: data.suffix(600), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        return text.isEmpty ? "" : ": \(text)"
    }

    /// The program's file: as given when it has a `/`, else the first match on `PATH`.
    static func resolve(_ program: String) -> URL? {
        let manager = FileManager.default
        if program.contains("/") {
            return manager.isExecutableFile(atPath: program) ? URL(fileURLWithPath: program) : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(program)"
            if manager.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }

    /// Interleaved samples averaged to one channel.
    static func mono(_ contents: WAVFile.Contents) -> [Int16] {
        let channels = max(1, contents.channels)
        guard channels > 1 else { return contents.samples }
        return stride(from: 0, to: contents.samples.count - channels + 1, by: channels).map { start in
            var sum = 0
            for index in start..<start + channels { sum += Int(contents.samples[index]) }
            return Int16(sum / channels)
        }
    }

    /// Linear-interpolation resampling (enough for speech; the identity when the rates agree).
    static func resample(_ samples: [Int16], from source: Int, to target: Int) -> [Int16] {
        guard source != target, source > 0, samples.count > 1 else { return samples }
        let count = Int(saturating: (Double(samples.count) * Double(target) / Double(source)).rounded())
        let step = Double(source) / Double(target)
        return (0..<count).map { index in
            let position = Double(index) * step
            let left = min(Int(saturating: position), samples.count - 1)
            let right = min(left + 1, samples.count - 1)
            let fraction = position - Double(left)
            return Int16(
                (Double(samples[left]) * (1 - fraction) + Double(samples[right]) * fraction).rounded())
        }
    }

    /// Word and mark positions estimated from the share of characters before each.
    static func estimatePositions(_ utterance: Utterance, sampleCount: Int) -> (
        [WordBoundary], [MarkBoundary]
    ) {
        let total = max(
            1,
            utterance.segments.reduce(0) { sum, segment in
                if case .text(let text) = segment { return sum + text.text.count + 1 }
                return sum
            })
        var before = 0
        var words: [WordBoundary] = []
        var marks: [MarkBoundary] = []
        func position() -> Int { sampleCount * before / total }
        for segment in utterance.segments {
            switch segment {
            case .text(let text):
                var characters = 0
                for word in text.text.split(separator: " ", omittingEmptySubsequences: false) {
                    if !word.isEmpty {
                        words.append(
                            WordBoundary(
                                sample: sampleCount * (before + characters) / total, text: String(word)))
                    }
                    characters += word.count + 1
                }
                before += text.text.count + 1
            case .mark(let name):
                marks.append(MarkBoundary(name: name, sample: position()))
            case .pause, .audio:
                break
            }
        }
        return (words, marks)
    }

    /// The utterance as SSML for programs that read it (`espeak-ng -m`).
    public static func ssml(for utterance: Utterance) -> String {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        var body = ""
        for segment in utterance.segments {
            switch segment {
            case .text(let text):
                let prosody = text.prosody
                var attributes: [String] = []
                if prosody.rate != 1 {
                    attributes.append("rate=\"\(Int(saturating: (prosody.rate * 100).rounded()))%\"")
                }
                if prosody.pitch != 1 {
                    attributes.append(
                        String(
                            format: "pitch=\"%+d%%\"", Int(saturating: ((prosody.pitch - 1) * 100).rounded()))
                    )
                }
                if prosody.volumeDB != 0, prosody.volumeDB.isFinite {
                    attributes.append(String(format: "volume=\"%+.1fdB\"", prosody.volumeDB))
                }
                var piece = escape(text.text)
                if let language = text.language {
                    piece = "<lang xml:lang=\"\(escape(language))\">\(piece)</lang>"
                }
                if !attributes.isEmpty {
                    piece = "<prosody \(attributes.joined(separator: " "))>\(piece)</prosody>"
                }
                body += piece + " "
            case .pause(let pause):
                body += "<break time=\"\(Int(saturating: (pause.seconds * 1_000).rounded()))ms\"/>"
            case .mark(let name):
                body += "<mark name=\"\(escape(name))\"/>"
            case .audio(let clip):
                body += "<audio src=\"\(escape(clip.source))\"/>"
            }
        }
        let language = utterance.language.map { " xml:lang=\"\(escape($0))\"" } ?? ""
        return "<speak\(language)>\(body)</speak>"
    }
}
