import ESpeakBackend
import Foundation
import VoiceGuidance

/// `voiceguide render`: SSML or text to WAV files, in one process.
enum RenderCommand: Command {
    static let name = "render"
    static let summary = "render SSML or text to WAV files"
    static let usage = """
        usage: voiceguide render [--voice ID] [--ssml | --text] [--engine espeak|command:PROGRAM…]
                                 [-o OUT.wav | --out-dir DIR] [--json] (FILE... | - | "string")

        Renders each input to a WAV file (mono 16-bit PCM). An input is a file, - for standard input,
        or the text itself. Without -o, each output is named after its input (input.wav) and written
        to --out-dir, or to the current folder.

          --voice ID     voice profile from Voices/ (default en-US; see 'voiceguide voices')
          --ssml         read input as SSML (default: SSML when it looks like markup)
          --text         read input as plain text, markup and all
          --engine E     espeak (default) or command:PROGRAM ARGS… (reads SSML on stdin, writes WAV
                         on stdout); either gets the same normalised words
          -o, --output   the output file (one input only); - is standard output (the report then
                         goes to standard error); a device, FIFO or symbolic link is written
                         through, a regular file replaced atomically
          --out-dir DIR  folder for the outputs (created if missing)
          --json         print one JSON object per output: path, sample_rate, samples,
                         duration_s, marks [{name, sample}], words [{text, sample}], warnings

        Exit status: 0 all rendered, 1 an input failed (the others are still written), 64 usage.
        """

    static func run(_ arguments: inout CommandLineArguments) async throws -> Int32 {
        let voice = try Voices.profile(&arguments)
        let reader = UtteranceReader(mode: try InputMode.from(&arguments))
        let output = try arguments.option("-o", "--output")
        let outDir = try arguments.option("--out-dir")
        let json = arguments.flag("--json")
        let engine = try Engines.renderer(&arguments)
        let inputs = try arguments.positionals()
        guard !inputs.isEmpty else { throw UsageError("nothing to render: give a FILE, - or a string") }
        if output != nil, inputs.count > 1 {
            throw UsageError("-o takes one input; use --out-dir for several")
        }
        if output != nil, outDir != nil { throw UsageError("-o and --out-dir cannot be used together") }

        let folder = URL(fileURLWithPath: outDir ?? ".", isDirectory: true)
        if outDir != nil {
            try FileProblem.createFolder(folder)
        }
        let espeak = engine as? ESpeakRenderer
        var status = ExitStatus.success
        var usedNames: Set<String> = []
        // eSpeak synthesizes the next input on a thread of its own while this one finishes the
        // audio of the previous input (trimming, gain, compression) and writes its file.
        pipelined(inputs) { argument in
            (
                argument,
                Result { () throws -> Synthesized in
                    let input = try Input.read(argument)
                    let utterance = try reader.utterance(from: input)
                    // eSpeak in two halves (see above); another engine whole, here.
                    let synthesis: Synthesized.Audio =
                        if let espeak {
                            .espeak(try espeak.synthesize(utterance, voice: voice), espeak)
                        } else {
                            .whole(try engine.render(utterance, voice: voice))
                        }
                    return Synthesized(input: input, utterance: utterance, synthesis: synthesis)
                }
            )
        } consume: { argument, result in
            do {
                let synthesized = try result.get()
                let input = synthesized.input
                let audio =
                    switch synthesized.synthesis {
                    case .espeak(let synthesis, let espeak): espeak.finish(synthesis)
                    case .whole(let audio): audio
                    }
                let url: URL
                if let output {
                    url = output == "-" ? URL(fileURLWithPath: "/dev/stdout") : URL(fileURLWithPath: output)
                } else {
                    var stem = input.stem
                    var counter = 2
                    while usedNames.contains(stem) {
                        stem = "\(input.stem)-\(counter)"
                        counter += 1
                    }
                    usedNames.insert(stem)
                    url = folder.appendingPathComponent(stem + ".wav")
                }
                try OutputFile.write(
                    WAVFile.encode(samples: audio.samples, sampleRate: audio.sampleRate),
                    toPath: output ?? url.path)
                let isOnStandardOutput = url.path == "/dev/stdout"
                let warnings = (synthesized.utterance.warnings.map(\.description) + audio.warnings).map {
                    UtteranceReader.locatedWarning(input.displayName, $0)
                }
                if json {
                    report(
                        isOnStandardOutput,
                        JSONOutput.line([
                            "path": url.path, "sample_rate": audio.sampleRate, "samples": audio.samples.count,
                            "duration_s": (audio.duration * 1000).rounded() / 1000,
                            "marks": audio.marks.map { ["name": $0.name, "sample": $0.sample] },
                            "words": audio.words.map { ["text": $0.text, "sample": $0.sample] },
                            "warnings": warnings,
                        ]))
                } else {
                    for warning in warnings { Console.error(warning) }
                    report(isOnStandardOutput, "\(url.path)  \(String(format: "%.2f", audio.duration)) s")
                }
            } catch let failure as CommandFailure {
                Console.error(failure.message)
                status = max(status, failure.status)
            } catch {
                Console.error("\(argument): error: \(FileProblem.words(error))")
                status = ExitStatus.failure
            }
        }
        return status
    }

    /// Prints a line of the report: on standard error when the WAV goes to standard output.
    static func report(_ isOnStandardOutput: Bool, _ line: String) {
        if isOnStandardOutput { Console.error(line) } else { print(line) }
    }

    /// One input read, parsed and synthesized.
    struct Synthesized: Sendable {
        /// eSpeak's first half, or another engine's whole audio.
        enum Audio: Sendable {
            case espeak(ESpeakSynthesis, ESpeakRenderer)
            case whole(RenderedAudio)
        }
        var input: Input
        var utterance: Utterance
        var synthesis: Audio
    }
}
