import DriveSimulation
import ESpeakBackend
import Foundation
import VoiceGuidance

/// `voiceguide render-route`: every prompt of a route as a WAV file, plus `manifest.json`.
enum RenderRouteCommand: Command {
    static let name = "render-route"
    static let summary = "render every prompt of a route to WAV files with a manifest"
    static let usage = """
        usage: voiceguide render-route ROUTE.json --out-dir DIR [--voice ID] [--jobs N] [--quiet] [--force]

        Renders every prompt of the route to DIR/NNN-legL-stepS.wav and writes DIR/manifest.json
        ({"prompts":[{file, leg, step, text, ssml, duration_s, samples, key}]}). The prompts are the
        route's voiceInstructions; a route without them (OSRM) gets the prompts a drive at the
        route's own speed would speak. A prompt the route repeats is rendered once. Resumable: a
        file already in the manifest with the same voice and SSML is kept, not rendered again; the
        manifest is rewritten every 32 prompts, so an interrupted run keeps what it had done.

          --out-dir DIR  where the files go (created if missing)
          --voice ID     voice profile (default en-US)
          --jobs N       render in N processes (eSpeak NG is one engine per process); default 1
          --quiet        no progress bar
          --force        write into a folder whose manifest belongs to another route (or is not
                         a manifest), replacing that manifest; without it, that is refused

        Exit status: 0 all rendered, 1 a prompt or the route failed, 64 usage.
        """

    /// The prompts of the folder's manifest when it belongs to this route (resume), else none.
    ///
    /// - Throws: `CommandFailure` when the folder holds another route's manifest, or a
    ///   `manifest.json` that is not one, and `force` is not set: that is never replaced silently.
    static func previousPrompts(in url: URL, route: String, routeKey: String, force: Bool) throws -> [Entry] {
        guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
        let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        let isSameRoute = manifest.map { old in
            old.routeKey.map { $0 == routeKey }
                ?? (URL(fileURLWithPath: old.route).standardizedFileURL
                    == URL(fileURLWithPath: route).standardizedFileURL)
        }
        if isSameRoute == true { return manifest?.prompts ?? [] }
        if force { return [] }
        let holder =
            manifest.map { "the prompts of \($0.route)" }
            ?? "a manifest.json that is not a render-route manifest"
        throw CommandFailure(
            "\(url.deletingLastPathComponent().path) already holds \(holder); "
                + "choose another --out-dir, or use --force to replace \(url.path)")
    }

    /// One prompt to render, as handed to a worker process.
    struct Job: Codable, Sendable {
        var index: Int
        var leg: Int
        var step: Int
        var text: String
        var ssml: String?
        var file: String
        var key: String

        /// What the prompt says.
        var instruction: SpokenInstruction { SpokenInstruction(text: text, ssml: ssml) }
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
        /// FNV-1a of the route file's bytes: which route the folder holds (absent in manifests
        /// written before it was added; then `route`, the path, is compared).
        var routeKey: String?
        var voice: String
        var sampleRate: Int
        var prompts: [Entry]

        enum CodingKeys: String, CodingKey {
            case route, voice, prompts
            case routeKey = "route_key"
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
        let force = arguments.flag("--force")
        let files = try arguments.positionals()
        guard files.count == 1 else { throw UsageError("give one ROUTE.json") }

        let folder = URL(fileURLWithPath: outDir, isDirectory: true)
        try FileProblem.createFolder(folder)
        // Workers start now, so that their start-up overlaps reading the route.
        let workers = jobs > 1 ? try startWorkers(count: jobs - 1, voice: voice, folder: folder) : []
        defer { stopWorkers(workers) }
        let routeData = try RouteLoading.read(files[0])
        let route = try RouteLoading.decode(routeData, from: files[0])
        let book = try PhraseBook.load(
            directory: catalog.directory.appendingPathComponent("phrases"), language: voice.phrases)
        let all = await prompts(
            of: route, phrases: PhraseBuilder(book: book, units: voice.units), voice: voice)

        // Keep what an earlier run rendered with the same key; render the rest, each distinct
        // prompt once (a route says "Keep left onto I-80 East" up to four times).
        let manifestURL = folder.appendingPathComponent("manifest.json")
        let routeKey = fnv1a(routeData)
        let previous = try previousPrompts(
            in: manifestURL, route: files[0], routeKey: routeKey, force: force)
        var kept: [Int: Entry] = [:]
        var todo: [Job] = []
        var copies: [String: [Job]] = [:]
        for job in all {
            if let old = previous.first(where: { $0.file == job.file && $0.key == job.key }),
                let size = try? FileManager.default.attributesOfItem(
                    atPath: folder.appendingPathComponent(job.file).path)[.size] as? Int,
                size == 44 + 2 * old.samples
            {
                kept[job.index] = old
            } else if copies[job.key] != nil {
                copies[job.key]!.append(job)
            } else {
                copies[job.key] = []
                todo.append(job)
            }
        }
        AtomicFile.removeLeftovers(of: all.map(\.file) + ["manifest.json"], in: folder)
        let collector = Collector(
            manifest: Manifest(
                route: files[0], routeKey: routeKey, voice: voice.id, sampleRate: 22_050, prompts: []),
            all: all, kept: kept, copies: copies, folder: folder.path,
            progress: RenderRouteProgress(
                total: all.count, done: kept.count, isShown: !quiet && Console.isErrorTerminal)
        )
        if workers.isEmpty || todo.count < 2 {
            try renderInOneProcess(todo, voice: voice, folder: folder.path, collector: collector)
        } else {
            try runWorkers(todo, workers: workers, voice: voice, folder: folder.path, collector: collector)
            // A worker that died mid-job left its temporary file behind.
            stopWorkers(workers)
            AtomicFile.removeLeftovers(of: all.map(\.file), in: folder)
        }
        let (manifest, failures) = collector.finish()
        try OutputFile.write(try Collector.encode(manifest), to: manifestURL)
        print(
            "\(all.count) prompts: \(all.count - kept.count - failures.count) rendered, \(kept.count) kept, "
                + "\(failures.count) failed; manifest: \(manifestURL.path)")
        for failure in failures { Console.error("error: \(failure)") }
        return failures.isEmpty ? ExitStatus.success : ExitStatus.failure
    }

    /// The route's prompts: its voiceInstructions, or those of a drive at the route's speed.
    static func prompts(of route: Route, phrases: PhraseBuilder, voice: VoiceProfile) async -> [Job] {
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
            let timing = AnnouncementTiming()
            let drive = DriveSimulator(
                route: route, phrases: phrases, speed: .route, timing: timing, usesServerInstructions: false,
                durationOf: { timing.estimatedDuration(of: $0) })
            let prompts = (try? await drive.run().prompts) ?? []
            found = prompts.map { ($0.leg, $0.step, $0.text, $0.ssml) }
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

    /// A rendered prompt: its manifest row and, when at hand, the bytes of its WAV file.
    struct Rendered: Sendable {
        var entry: Entry
        var wav: Data?
    }

    /// Renders the jobs in this process, in two overlapping halves as `render` does: eSpeak NG
    /// synthesizes the next prompt on a thread of its own while this thread finishes the audio
    /// of the previous one (trimming, gain, compression) and writes its file.
    static func renderInOneProcess(_ jobs: [Job], voice: VoiceProfile, folder: String, collector: Collector)
        throws
    {
        let queue = Locked(jobs[...])
        try renderInOneProcess(
            next: { queue.withLock { $0.popFirst() } }, voice: voice, folder: folder, collector: collector)
    }

    /// The same, with the jobs taken one at a time by `next` until it returns nil (from a queue
    /// the workers take from too).
    static func renderInOneProcess(
        next: @escaping @Sendable () -> Job?, depth: Int = 4, voice: VoiceProfile, folder: String,
        collector: Collector
    ) throws {
        let renderer = try Engines.espeak()
        let prompts = PromptAudio(renderer: renderer, voice: voice)
        pipelined(depth: depth) {
            next().map { job in
                (
                    job,
                    Result { try renderer.synthesize(prompts.utterance(for: job.instruction), voice: voice) }
                )
            }
        } consume: { job, synthesis in
            collector.record(
                job, Result { try write(job, renderer.finish(try synthesis.get()), folder: folder) })
        }
    }

    /// Renders one prompt to its WAV file in `folder` (atomically).
    static func render(_ job: Job, renderer: ESpeakRenderer, voice: VoiceProfile, folder: String) throws
        -> Rendered
    {
        let audio = PromptAudio(renderer: renderer, voice: voice)
        return try write(job, try audio.audio(for: job.instruction), folder: folder)
    }

    /// Writes one rendered prompt to its WAV file in `folder` (atomically); its manifest row.
    static func write(_ job: Job, _ rendered: RenderedAudio, folder: String) throws -> Rendered {
        let wav = WAVFile.encode(samples: rendered.samples, sampleRate: rendered.sampleRate)
        try OutputFile.write(wav, toPath: folder + "/" + job.file)
        let entry = Entry(
            file: job.file, leg: job.leg, step: job.step, text: job.text, ssml: job.ssml,
            durationS: (rendered.duration * 1000).rounded() / 1000, samples: rendered.samples.count,
            key: job.key)
        return Rendered(entry: entry, wav: wav)
    }

    /// Worker mode (`--worker DIR`): reads one job (JSON) per line on stdin, renders it into DIR,
    /// and answers one result (JSON) per line on stdout, until stdin closes.
    static func runWorker(folder: String, voice: VoiceProfile) throws -> Int32 {
        let renderer = try Engines.espeak()
        let encoder = JSONEncoder()
        while let line = readLine(strippingNewline: true) {
            guard let job = try? JSONDecoder().decode(Job.self, from: Data(line.utf8)) else { continue }
            var result = WorkerResult(index: job.index, entry: nil, error: nil)
            do {
                result.entry = try render(job, renderer: renderer, voice: voice, folder: folder).entry
            } catch {
                result.error = "\(error)"
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

    struct WorkerError: Error, CustomStringConvertible {
        var description: String
    }

    /// A worker process and the pipes to talk to it.
    struct Worker {
        var process: ChildProcess
        var toWorker: FileHandle
        var fromWorker: FileHandle
    }

    /// Starts `count` worker processes of this same program (eSpeak NG is one engine per
    /// process); each waits for jobs on its stdin.
    static func startWorkers(count: Int, voice: VoiceProfile, folder: URL) throws -> [Worker] {
        guard let executable = Bundle.main.executableURL?.path else {
            throw CommandFailure("cannot find this program's path to start workers")
        }
        // A worker that dies must not take this process with it: its pipe then reports EPIPE.
        SystemCalls.ignoreBrokenPipes()
        return try (0..<count).map { _ in
            try spawn(executable, ["render-route", "--worker", folder.path, "--voice", voice.id])
        }
    }

    /// Starts one worker, its stdin and stdout on pipes to this process.
    static func spawn(_ executable: String, _ arguments: [String]) throws -> Worker {
        let process: ChildProcess
        do {
            process = try ChildProcess(executable, arguments, input: .pipe, output: .pipe)
        } catch {
            throw CommandFailure("cannot start a worker: \(error.reason)")
        }
        guard let toWorker = process.input, let fromWorker = process.output else {
            process.kill()
            throw CommandFailure("cannot start a worker: no pipe to it")
        }
        return Worker(process: process, toWorker: toWorker, fromWorker: fromWorker)
    }

    /// Closes the workers' stdin (they finish) and waits for them: up to 5 s, then they are
    /// killed.
    static func stopWorkers(_ workers: [Worker]) {
        for worker in workers { try? worker.toWorker.close() }
        let deadline = Date(timeIntervalSinceNow: 5)
        for worker in workers where worker.process.wait(timeout: deadline.timeIntervalSinceNow) == nil {
            worker.process.kill()
        }
    }

    /// How many jobs a worker holds at once: the one it renders and the next.
    nonisolated static let jobsInFlight = 2

    /// Renders the jobs in this process and in the workers. Jobs wait in one queue, longest
    /// first, and whoever is free takes the next, so no process idles while another still has a
    /// backlog.
    static func runWorkers(
        _ jobs: [Job], workers: [Worker], voice: VoiceProfile, folder: String, collector: Collector
    ) throws {
        let queue = Locked(Array(jobs.sorted { $0.text.count < $1.text.count }))  // popLast = longest
        let group = DispatchGroup()
        for worker in workers {
            let toWorker = worker.toWorker
            let fromWorker = worker.fromWorker
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var buffer = Data()
                // Jobs sent and not yet answered. The next job is sent before the answer to the
                // one being rendered comes back, so the worker never waits for this thread to be
                // scheduled (on a 2-core machine that wait cost a few ms per job).
                var sent: [Int: Job] = [:]
                var isGone = false
                while !isGone {
                    // Near the end (the shortest jobs), one at a time: a job waiting in a busy
                    // worker while another process runs dry would lengthen the run.
                    while sent.count < (queue.withLock { $0.count } > 4 ? Self.jobsInFlight : 1),
                        let job = queue.withLock({ $0.popLast() })
                    {
                        guard let line = try? JSONEncoder().encode(job) else { continue }
                        do {
                            try toWorker.write(contentsOf: line + Data("\n".utf8))
                            sent[job.index] = job
                        } catch {
                            queue.withLock { $0.append(job) }
                            isGone = true
                            break
                        }
                    }
                    if sent.isEmpty { break }
                    // Wait for the next answer.
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
                    guard let answer, let result = try? JSONDecoder().decode(WorkerResult.self, from: answer),
                        let job = sent.removeValue(forKey: result.index)
                    else {
                        break
                    }
                    collector.record(
                        job,
                        result.entry.map { .success(Rendered(entry: $0, wav: nil)) }
                            ?? .failure(WorkerError(description: result.error ?? "the worker failed")))
                }
                // The worker is gone: leave what it had to the others.
                let unanswered = sent.values
                queue.withLock { $0.append(contentsOf: unanswered) }
            }
        }
        // This process renders from the same queue, in two overlapping halves; it takes one job
        // ahead of the one it finishes, so a worker is not left without work near the end.
        let next: @Sendable () -> Job? = { queue.withLock { $0.popLast() } }
        try renderInOneProcess(next: next, depth: 1, voice: voice, folder: folder, collector: collector)
        group.wait()
        // Jobs handed back by a worker that died after this process ran dry.
        try renderInOneProcess(next: next, depth: 1, voice: voice, folder: folder, collector: collector)
    }

    /// Where rendered prompts go: each is copied to the prompts that say the same, and every
    /// `manifestInterval` prompts the manifest of everything so far is rewritten, so an
    /// interrupted run loses only its last few prompts.
    final class Collector: Sendable {
        static let manifestInterval = 32

        private struct State {
            var done: [Int: Entry]
            var failures: [String] = []
            var sinceManifest = 0
        }

        private let state: Locked<State>
        private let manifest: Manifest
        private let all: [Job]
        private let copies: [String: [Job]]
        private let folder: String
        private let progress: RenderRouteProgress

        init(
            manifest: Manifest, all: [Job], kept: [Int: Entry], copies: [String: [Job]], folder: String,
            progress: RenderRouteProgress
        ) {
            self.manifest = manifest
            self.all = all
            self.copies = copies
            self.folder = folder
            self.progress = progress
            state = Locked(State(done: kept))
        }

        /// Takes one rendered prompt (or its error) and writes the prompts with the same key.
        func record(_ job: Job, _ result: Result<Rendered, any Error>) {
            let sameKey = copies[job.key] ?? []
            state.withLock { state in
                switch result {
                case .success(let rendered):
                    state.done[job.index] = rendered.entry
                    for copy in sameKey {
                        do {
                            let wav =
                                try rendered.wav
                                ?? Data(contentsOf: URL(fileURLWithPath: folder + "/" + job.file))
                            try OutputFile.write(wav, toPath: folder + "/" + copy.file)
                            var entry = rendered.entry
                            (entry.file, entry.leg, entry.step) = (copy.file, copy.leg, copy.step)
                            state.done[copy.index] = entry
                        } catch {
                            state.failures.append("\(copy.file): \(error)")
                        }
                    }
                case .failure(let error):
                    for failed in [job] + sameKey { state.failures.append("\(failed.file): \(error)") }
                }
                state.sinceManifest += 1 + sameKey.count
                if state.sinceManifest >= Self.manifestInterval {
                    state.sinceManifest = 0
                    // A failed write here only costs resumability; the final one reports.
                    try? OutputFile.write(
                        Self.encode(manifest(of: state.done)), toPath: folder + "/manifest.json")
                }
            }
            for _ in 0...sameKey.count { progress.advance() }
        }

        /// The manifest of every prompt done, and the failures.
        func finish() -> (Manifest, [String]) {
            progress.finish()
            return state.withLock { state in (manifest(of: state.done), state.failures) }
        }

        private func manifest(of done: [Int: Entry]) -> Manifest {
            var result = manifest
            result.prompts = all.compactMap { done[$0.index] }
            return result
        }

        /// The manifest as written: pretty, keys sorted.
        static func encode(_ manifest: Manifest) throws -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return try encoder.encode(manifest)
        }
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
final class RenderRouteProgress: Sendable {
    private let state: Locked<Int>
    private let total: Int
    private let isShown: Bool

    init(total: Int, done: Int, isShown: Bool) {
        self.total = total
        self.isShown = isShown
        state = Locked(done)
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
