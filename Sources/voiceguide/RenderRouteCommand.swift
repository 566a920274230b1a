import ESpeakBackend
import Foundation
import Synchronization
import VoiceGuidance

/// `voiceguide render-route`: every prompt of a route as a WAV file, plus `manifest.json`.
enum RenderRouteCommand: Command {
    static let name = "render-route"
    static let summary = "render every prompt of a route to WAV files with a manifest"
    static let usage = """
        usage: voiceguide render-route ROUTE.json --out-dir DIR [--voice ID] [--jobs N] [--quiet]

        Renders every prompt of the route to DIR/NNN-legL-stepS.wav and writes DIR/manifest.json
        ({"prompts":[{file, leg, step, text, ssml, duration_s, samples, key}]}). The prompts are the
        route's voiceInstructions; a route without them (OSRM) gets the prompts a drive at the
        route's own speed would speak. Resumable: a file already in the manifest with the same
        voice and SSML is kept, not rendered again.

          --out-dir DIR  where the files go (created if missing)
          --voice ID     voice profile (default en-US)
          --jobs N       render in N processes (eSpeak NG is one engine per process); default 1
          --quiet        no progress bar

        Exit status: 0 all rendered, 1 a prompt or the route failed, 64 usage.
        """

    /// One prompt to render, as handed to a worker process.
    struct Job: Codable, Sendable {
        var index: Int
        var leg: Int
        var step: Int
        var text: String
        var ssml: String?
        var file: String
        var key: String
    }

    /// One manifest row.
    struct Entry: Codable, Sendable {
        var file: String
        var leg: Int
        var step: Int
        var text: String
        var ssml: String?
        var durationS: Double
        var samples: Int
        var key: String

        enum CodingKeys: String, CodingKey {
            case file, leg, step, text, ssml, samples, key
            case durationS = "duration_s"
        }
    }

    struct Manifest: Codable {
        var route: String
        var voice: String
        var sampleRate: Int
        var prompts: [Entry]

        enum CodingKeys: String, CodingKey {
            case route, voice, prompts
            case sampleRate = "sample_rate"
        }
    }

    static func run(_ arguments: inout CommandLineArguments) async throws -> Int32 {
        let catalog = try Voices.catalog()
        let voice = try Voices.profile(&arguments)
        if let folder = try arguments.option("--worker") {
            return try runWorker(folder: folder, voice: voice)
        }
        guard let outDir = try arguments.option("--out-dir") else {
            throw UsageError("--out-dir DIR is required")
        }
        let jobs = Int(try arguments.number("--jobs", in: 1...64) ?? 1)
        let quiet = arguments.flag("--quiet")
        let files = try arguments.positionals()
        guard files.count == 1 else { throw UsageError("give one ROUTE.json") }

        let folder = URL(fileURLWithPath: outDir, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot create \(folder.path): \(error.localizedDescription)")
        }
        // Workers start now, so that their start-up overlaps reading the route.
        let workers = jobs > 1 ? try startWorkers(count: jobs - 1, voice: voice, folder: folder) : []
        defer { stopWorkers(workers) }
        let route = try RouteLoading.load(files[0])
        let book = try PhraseBook.load(
            directory: catalog.directory.appendingPathComponent("phrases"), language: voice.phrases)
        let all = prompts(of: route, phrases: PhraseBuilder(book: book, units: voice.units), voice: voice)

        // Keep what an earlier run rendered with the same key; render the rest.
        let manifestURL = folder.appendingPathComponent("manifest.json")
        let previous =
            (try? JSONDecoder().decode(Manifest.self, from: Data(contentsOf: manifestURL)))?.prompts ?? []
        var done: [Int: Entry] = [:]
        var todo: [Job] = []
        for job in all {
            if let old = previous.first(where: { $0.file == job.file && $0.key == job.key }),
                let size = try? FileManager.default.attributesOfItem(
                    atPath: folder.appendingPathComponent(job.file).path)[.size] as? Int,
                size == 44 + 2 * old.samples
            {
                done[job.index] = old
            } else {
                todo.append(job)
            }
        }
        let kept = done.count
        let progress = Progress(total: all.count, done: kept, isShown: !quiet && Console.isErrorTerminal)
        var failures: [String] = []
        if workers.isEmpty || todo.count < 2 {
            let renderer = try Engines.espeak()
            for job in todo {
                do {
                    done[job.index] = try render(job, renderer: renderer, voice: voice, folder: folder)
                } catch {
                    failures.append("\(job.file): \(error)")
                }
                progress.advance()
            }
        } else {
            let results = try runWorkers(
                todo, workers: workers, voice: voice, folder: folder, progress: progress)
            for (index, result) in results {
                switch result {
                case .success(let entry): done[index] = entry
                case .failure(let error): failures.append(error.message)
                }
            }
        }
        progress.finish()

        let manifest = Manifest(
            route: files[0], voice: voice.id, sampleRate: 22_050,
            prompts: all.compactMap { done[$0.index] })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try WAVFile.writeAtomically(try encoder.encode(manifest), to: manifestURL)
        print(
            "\(all.count) prompts: \(all.count - kept - failures.count) rendered, \(kept) kept, "
                + "\(failures.count) failed; manifest: \(manifestURL.path)")
        for failure in failures { Console.error("error: \(failure)") }
        return failures.isEmpty ? ExitStatus.success : ExitStatus.failure
    }

    /// The route's prompts: its voiceInstructions, or those of a drive at the route's speed.
    static func prompts(of route: Route, phrases: PhraseBuilder, voice: VoiceProfile) -> [Job] {
        var found: [(leg: Int, step: Int, text: String, ssml: String?)] = []
        for (legIndex, leg) in route.legs.enumerated() {
            for (stepIndex, step) in leg.steps.enumerated() {
                for instruction in step.voiceInstructions {
                    // A step's instructions announce the maneuver at the next step's start.
                    let announced = min(stepIndex + 1, leg.steps.count - 1)
                    found.append(
                        (legIndex, announced, instruction.announcement, instruction.ssmlAnnouncement))
                }
            }
        }
        if found.isEmpty {
            let drive = DriveSimulator(
                route: route, phrases: phrases, speed: .route, usesServerInstructions: false,
                durationOf: { 0.3 + Double($0.text.count) * 0.065 })
            found = drive.run().prompts.map { ($0.leg, $0.step, $0.text, $0.ssml) }
        }
        let voiceData =
            (try? { () throws -> Data in
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                return try encoder.encode(voice)
            }()) ?? Data()
        return found.enumerated().map { index, prompt in
            let file = String(format: "%03d-leg%d-step%02d.wav", index + 1, prompt.leg, prompt.step)
            let key = fnv1a(Data("v1|".utf8) + voiceData + Data("|\(prompt.ssml ?? "")|\(prompt.text)".utf8))
            return Job(
                index: index, leg: prompt.leg, step: prompt.step, text: prompt.text, ssml: prompt.ssml,
                file: file,
                key: key)
        }
    }

    /// Renders one prompt to its WAV file (atomically).
    static func render(_ job: Job, renderer: ESpeakRenderer, voice: VoiceProfile, folder: URL) throws -> Entry
    {
        let audio = PromptAudio(renderer: renderer, voice: voice)
        let rendered = try audio.audio(for: SpokenInstruction(text: job.text, ssml: job.ssml))
        try WAVFile.write(rendered, to: folder.appendingPathComponent(job.file))
        return Entry(
            file: job.file, leg: job.leg, step: job.step, text: job.text, ssml: job.ssml,
            durationS: (rendered.duration * 1000).rounded() / 1000, samples: rendered.samples.count,
            key: job.key)
    }

    /// Worker mode (`--worker DIR`): reads one job (JSON) per line on stdin, renders it into DIR,
    /// and answers one result (JSON) per line on stdout, until stdin closes.
    static func runWorker(folder: String, voice: VoiceProfile) throws -> Int32 {
        let renderer = try Engines.espeak()
        let folder = URL(fileURLWithPath: folder, isDirectory: true)
        let encoder = JSONEncoder()
        while let line = readLine(strippingNewline: true) {
            guard let job = try? JSONDecoder().decode(Job.self, from: Data(line.utf8)) else { continue }
            var result = WorkerResult(index: job.index, entry: nil, error: nil)
            do {
                result.entry = try render(job, renderer: renderer, voice: voice, folder: folder)
            } catch {
                result.error = "\(job.file): \(error)"
            }
            FileHandle.standardOutput.write(try encoder.encode(result) + Data("\n".utf8))
        }
        return ExitStatus.success
    }

    struct WorkerResult: Codable {
        var index: Int
        var entry: Entry?
        var error: String?
    }

    struct WorkerError: Error {
        var message: String
    }

    /// A worker process and the pipes to talk to it.
    struct Worker {
        var process: Process
        var toWorker: FileHandle
        var fromWorker: FileHandle
    }

    /// Starts `count` worker processes of this same program (eSpeak NG is one engine per
    /// process); each waits for jobs on its stdin.
    static func startWorkers(count: Int, voice: VoiceProfile, folder: URL) throws -> [Worker] {
        guard let executable = Bundle.main.executableURL else {
            throw CommandFailure("cannot find this program's path to start workers")
        }
        return try (0..<count).map { _ in
            let process = Process()
            process.executableURL = executable
            process.arguments = ["render-route", "--worker", folder.path, "--voice", voice.id]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            return Worker(
                process: process, toWorker: input.fileHandleForWriting,
                fromWorker: output.fileHandleForReading)
        }
    }

    /// Closes the workers' stdin (they finish) and waits for them.
    static func stopWorkers(_ workers: [Worker]) {
        for worker in workers { try? worker.toWorker.close() }
        for worker in workers { worker.process.waitUntilExit() }
    }

    /// Renders the jobs in this process and in the workers. Jobs wait in one queue, longest
    /// first, and whoever is free takes the next, so no process idles while another still has a
    /// backlog.
    static func runWorkers(
        _ jobs: [Job], workers: [Worker], voice: VoiceProfile, folder: URL, progress: Progress
    ) throws -> [(Int, Result<Entry, WorkerError>)] {
        let queue = Mutex(Array(jobs.sorted { $0.text.count < $1.text.count }))  // popLast = longest
        let results = Mutex<[(Int, Result<Entry, WorkerError>)]>([])
        let group = DispatchGroup()
        for worker in workers {
            let toWorker = worker.toWorker
            let fromWorker = worker.fromWorker
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var buffer = Data()
                while let job = queue.withLock({ $0.popLast() }) {
                    guard let line = try? JSONEncoder().encode(job) else { continue }
                    do {
                        try toWorker.write(contentsOf: line + Data("\n".utf8))
                    } catch {
                        queue.withLock { $0.append(job) }  // the worker is gone: leave the job to others
                        return
                    }
                    // Wait for this job's answer.
                    var answer: Data?
                    while answer == nil {
                        if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                            answer = buffer[buffer.startIndex..<newline]
                            buffer.removeSubrange(buffer.startIndex...newline)
                            break
                        }
                        let chunk = fromWorker.availableData
                        if chunk.isEmpty { break }
                        buffer.append(chunk)
                    }
                    guard let answer, let result = try? JSONDecoder().decode(WorkerResult.self, from: answer)
                    else {
                        queue.withLock { $0.append(job) }
                        return
                    }
                    let outcome: Result<Entry, WorkerError> =
                        result.entry.map { .success($0) }
                        ?? .failure(WorkerError(message: result.error ?? "\(job.file): the worker failed"))
                    results.withLock { $0.append((result.index, outcome)) }
                    progress.advance()
                }
            }
        }
        let renderer = try Engines.espeak()
        func renderQueued() {
            while let job = queue.withLock({ $0.popLast() }) {
                let outcome: Result<Entry, WorkerError>
                do {
                    outcome = .success(try render(job, renderer: renderer, voice: voice, folder: folder))
                } catch {
                    outcome = .failure(WorkerError(message: "\(job.file): \(error)"))
                }
                results.withLock { $0.append((job.index, outcome)) }
                progress.advance()
            }
        }
        renderQueued()
        group.wait()
        renderQueued()  // jobs handed back by a worker that died after this process ran dry
        return results.withLock { $0 }
    }

    /// A 64-bit FNV-1a hash, as 16 hex digits (stable across runs and machines).
    static func fnv1a(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return String(format: "%016llx", hash)
    }
}

/// A progress bar on stderr when it is a terminal.
final class Progress: Sendable {
    private let state: Mutex<Int>
    private let total: Int
    private let isShown: Bool

    init(total: Int, done: Int, isShown: Bool) {
        self.total = total
        self.isShown = isShown
        state = Mutex(done)
        draw(done)
    }

    func advance() {
        let done = state.withLock { value -> Int in
            value += 1
            return value
        }
        draw(done)
    }

    func finish() {
        if isShown { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private func draw(_ done: Int) {
        guard isShown, total > 0 else { return }
        let width = 30
        let filled = width * min(done, total) / total
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total)".utf8))
    }
}
