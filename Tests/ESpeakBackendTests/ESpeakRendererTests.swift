import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@testable import ESpeakBackend

/// Audio tests of the eSpeak NG renderer (serialized: eSpeak is one process-wide engine).
@Suite(.serialized)
struct ESpeakRendererTests {
    let renderer: ESpeakRenderer
    let english = VoiceProfile.fallback
    var rate: Int { renderer.sampleRate }

    init() throws {
        renderer = try ESpeakRenderer()
    }

    private func text(_ string: String, prosody: Prosody = Prosody(), language: String? = nil) -> Segment {
        .text(TextSegment(text: string, prosody: prosody, language: language))
    }

    private func render(_ segments: [Segment], voice: VoiceProfile? = nil) throws -> RenderedAudio {
        try renderer.render(Utterance(segments: segments), voice: voice ?? english)
    }

    private func trace(_ segments: [Segment], voice: VoiceProfile? = nil) throws -> (
        summary: RenderSummary, trace: [ESpeakRenderer.SegmentTrace], calls: [String]
    ) {
        try renderer.renderTraced(Utterance(segments: segments), voice: voice ?? english) { _ in .continue }
    }

    @Test func sampleRateIsEspeaks() {
        #expect(renderer.sampleRate == 22_050)
    }

    @Test func breakBetweenWordsIsExact() throws {
        let audio = try render([text("Turn left"), .pause(.seconds(1.5)), text("then turn right")])
        let gap = AudioAnalysis.longestSilentRun(audio.samples)
        #expect(abs(Double(gap.count) / Double(rate) - 1.5) <= 0.015)
        #expect(gap.start > 0)
    }

    @Test func breakAsFirstSegmentIsKept() throws {
        let audio = try render([.pause(.seconds(1.5)), text("Turn left")])
        let lead = AudioAnalysis.leadingSilence(audio.samples, sampleRate: rate)
        #expect(abs(lead - 1.5) <= 0.015)
    }

    @Test func speechStartsAtOnceAndEndsWithAShortTail() throws {
        let audio = try render([text("Turn left.")])
        #expect(AudioAnalysis.leadingSilence(audio.samples, sampleRate: rate) < 0.001)
        let tail = AudioAnalysis.trailingSilence(audio.samples, sampleRate: rate)
        #expect(Silence.promptTail.contains(tail), "tail \(tail) s")
        #expect(audio.duration == Double(audio.samples.count) / Double(rate))
    }

    @Test func tailIsKeptAfterAShortPauseAndAMarkAndNotAddedToALongPause() throws {
        let short = try render([text("Turn left."), .pause(.seconds(0.03))])
        let shortTail = AudioAnalysis.trailingSilence(short.samples, sampleRate: rate)
        #expect(Silence.promptTail.contains(shortTail), "tail \(shortTail) s")
        let marked = try render([text("Turn left."), .mark("end")])
        let markedTail = AudioAnalysis.trailingSilence(marked.samples, sampleRate: rate)
        #expect(Silence.promptTail.contains(markedTail), "tail \(markedTail) s")
        #expect(marked.marks.first.map { $0.sample < marked.samples.count } == true)
        let long = try render([text("Turn left."), .pause(.seconds(1))])
        let longTail = AudioAnalysis.trailingSilence(long.samples, sampleRate: rate)
        #expect(abs(longTail - 1) <= 0.015, "a 1 s pause at the end stays 1 s: \(longTail) s")
    }

    @Test func tailCountsInTheLengthEvenWhenStreamed() throws {
        var streamed = 0
        let summary = try renderer.render(Utterance(text: "Keep right."), voice: english) { event in
            if case .audio(let samples) = event { streamed += samples.count }
            return .continue
        }
        #expect(streamed == summary.sampleCount)
        #expect(Double(summary.sampleCount) / Double(rate) > Silence.promptTail.lowerBound + 0.3)
    }

    @Test func sixDecibelsRaiseLoudnessBySix() throws {
        let sentence = "Turn left onto Main Street, then keep right."
        let plain = try render([text(sentence)])
        let louder = try render([text(sentence, prosody: Prosody(volumeDB: 6))])
        let difference = AudioLevel.rmsDB(louder.samples) - AudioLevel.rmsDB(plain.samples)
        #expect(abs(difference - 6) <= 1, "RMS rose by \(difference) dB")
        #expect(AudioLevel.peak(louder.samples) < 32_767)
        // Gain must not change the length; eSpeak's own output varies by a few samples between
        // utterances of one process, so allow 10 ms.
        #expect(abs(louder.samples.count - plain.samples.count) <= rate / 100)
    }

    @Test func twentyDecibelsOnLoudSpeechDoNotClip() throws {
        let loud = VoiceProfile(id: "loud", locale: "en-US", espeakVoice: "en-us", volumeDB: 10)
        let audio = try render(
            [text("Attention! Turn right now!", prosody: Prosody(volumeDB: 20))], voice: loud)
        #expect(AudioLevel.peak(audio.samples) < 32_767)
        var clippedRuns = 0
        for index in 1..<audio.samples.count
        where abs(Int(audio.samples[index])) >= 32_767 && abs(Int(audio.samples[index - 1])) >= 32_767 {
            clippedRuns += 1
        }
        #expect(clippedRuns == 0)
        #expect(AudioLevel.rmsDB(audio.samples) > -12, "the boost made it loud")
    }

    @Test func fasterRateShortensSpeech() throws {
        let sentence = "In two miles, take the exit towards Cesar Chavez Street."
        let normal = try render([text(sentence)])
        let fast = try render([text(sentence, prosody: Prosody(rate: 1.5))])
        let ratio = Double(fast.samples.count) / Double(normal.samples.count)
        #expect(abs(ratio - 1 / 1.5) <= 0.1 / 1.5, "fast/normal length ratio \(ratio)")
    }

    @Test(arguments: [(0.8, false), (1.25, true)])
    func pitchMovesFundamental(multiplier: Double, raises: Bool) throws {
        let sentence = "Continue on the main road for a while."
        let base = try render([text(sentence)])
        let moved = try render([text(sentence, prosody: Prosody(pitch: multiplier))])
        let baseF0 = try #require(AudioAnalysis.fundamentalFrequency(base.samples, sampleRate: rate))
        let movedF0 = try #require(AudioAnalysis.fundamentalFrequency(moved.samples, sampleRate: rate))
        #expect(raises ? movedF0 > baseF0 : movedF0 < baseF0, "F0 \(baseF0) → \(movedF0)")
        // The mapping is calibrated: the measured change is close to the one asked for.
        #expect(abs(movedF0 / baseF0 / multiplier - 1) < 0.1, "F0 \(baseF0) → \(movedF0)")
    }

    @Test func markFallsBetweenItsWords() throws {
        let audio = try render([text("Turn left"), .mark("here"), text("onto Main Street.")])
        let mark = try #require(audio.marks.first)
        #expect(mark.name == "here")
        let left = try #require(audio.words.first { $0.text == "left" })
        let onto = try #require(audio.words.first { $0.text == "onto" })
        #expect(left.sample < mark.sample)
        #expect(mark.sample <= onto.sample)
        #expect(audio.words.map(\.text) == ["Turn", "left", "onto", "Main", "Street"])
        let offsets = audio.words.map(\.sample)
        #expect(offsets == offsets.sorted())
        #expect(offsets.first == 0)
    }

    @Test func marksAtStartAndEnd() throws {
        let audio = try render([.mark("start"), text("Turn left."), .mark("end")])
        // The end mark is where the speech ends, before the prompt's silent tail.
        let speechEnd = audio.samples.count - Silence.trailingCount(in: audio.samples)
        #expect(audio.marks.map(\.name) == ["start", "end"])
        #expect(audio.marks.first?.sample == 0)
        let end = try #require(audio.marks.last?.sample)
        #expect(
            end >= speechEnd && end - speechEnd <= rate / 1000, "end mark \(end), speech ends \(speechEnd)")
        #expect(Silence.promptTail.contains(Double(audio.samples.count - end) / Double(rate)))
    }

    @Test func germanSegmentSwitchesVoiceAndBack() throws {
        let segments = [
            text("Turn left onto"), text("Hauptstraße", language: "de-DE"), text("then keep right."),
        ]
        #expect(try trace(segments).trace.map(\.settings.voiceName) == ["en-us", "gmw/de", "en-us"])

        // The German segment sounds like the German voice, not like English.
        let switched = try render([text("Hauptstraße", language: "de-DE")])
        let germanProfile = VoiceProfile(id: "de", locale: "de-DE", espeakVoice: "gmw/de")
        let german = try render([text("Hauptstraße")], voice: germanProfile)
        let asEnglish = try render([text("Hauptstraße")])
        let toGerman = AudioAnalysis.spectralSimilarity(switched.samples, german.samples)
        let toEnglish = AudioAnalysis.spectralSimilarity(switched.samples, asEnglish.samples)
        #expect(toGerman > 0.9, "similarity to German \(toGerman)")
        #expect(toEnglish < toGerman - 0.1, "similarity to English \(toEnglish), to German \(toGerman)")
        #expect(abs(switched.samples.count - german.samples.count) < rate / 50)

        // The text after it is English again: it sounds like English alone.
        let after = try render([
            text("Hauptstraße", language: "de-DE"), .pause(.seconds(0.5)), text("then keep right."),
        ])
        let englishAlone = try render([text("then keep right.")])
        let tail = Array(after.samples.suffix(englishAlone.samples.count))
        #expect(AudioAnalysis.spectralSimilarity(tail, englishAlone.samples) > 0.9)
    }

    @Test(arguments: [
        ("fr-FR", "roa/fr"), ("es-ES", "roa/es"), ("en-GB", "gmw/en"), ("de-AT", "gmw/de"),
        ("pt-BR", "roa/pt-BR"),
        ("EN-us", "en-us"), ("en", "en-us"), ("it_IT", "roa/it"),
    ])
    func languageTagsPickEspeakVoices(tag: String, voiceName: String) throws {
        #expect(try trace([text("x", language: tag)]).trace.map(\.settings.voiceName) == [voiceName])
    }

    @Test func emptyTextAndLongPauses() throws {
        let empty = try render([text(""), text("  "), .mark("m")])
        #expect(empty.samples.isEmpty)
        #expect(empty.marks == [MarkBoundary(name: "m", sample: 0)])
        #expect(throws: RenderError.self) { try render([.pause(.seconds(400)), .pause(.seconds(400))]) }
    }

    @Test func languageOfTheProfileKeepsTheProfileVoice() throws {
        let segments = [text("Turn left", language: "en"), text("now", language: "en-US")]
        #expect(try trace(segments).trace.map(\.settings.voiceName) == ["en-us", "en-us"])
    }

    @Test func voiceRequestsPickVoiceAndVariant() throws {
        let variantProfile = VoiceProfile(id: "x", locale: "en-US", espeakVoice: "en-us", variant: "m2")
        let segments: [Segment] = [
            .text(TextSegment(text: "one", voice: VoiceRequest(gender: "female"))),
            .text(TextSegment(text: "zwei", language: "de")),
            .text(TextSegment(text: "trois", voice: VoiceRequest(name: "French (France)"))),
            .text(TextSegment(text: "four", voice: VoiceRequest(name: "Joanna"))),
        ]
        let (summary, trace, _) = try trace(segments, voice: variantProfile)
        #expect(trace.map(\.settings.voiceName) == ["en-us+f3", "gmw/de+m2", "roa/fr+m2", "en-us+m2"])
        #expect(summary.warnings.contains { $0.contains("Joanna") })
    }

    @Test func unknownLanguageWarnsAndKeepsVoice() throws {
        let (summary, trace, _) = try trace([text("hello", language: "tlh")])
        #expect(trace.map(\.settings.voiceName) == ["en-us"])
        #expect(summary.warnings.contains { $0.contains("tlh") })
    }

    @Test func rateOutsideEspeaksRangeIsClampedWithWarning() throws {
        let (summary, trace, _) = try trace([text("go", prosody: Prosody(rate: 4))])
        #expect(trace.first?.settings.rate == 450)
        #expect(summary.warnings.contains { $0.contains("700") && $0.contains("450") })
    }

    /// eSpeak NG's waveform depends on what the process synthesized before, so the comparison
    /// with `espeak-ng -w` (a fresh process) renders in a fresh process too: this test binary,
    /// running only `renderInFreshProcess` (below) with the output path in the environment.
    @Test func matchesTheCommandLineProgram() throws {
        let sentence = "Turn left onto Main Street, then keep right."
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("espeak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cliWAV = directory.appendingPathComponent("cli.wav")
        let oursWAV = directory.appendingPathComponent("ours.wav")
        try run("/usr/bin/espeak-ng", ["-v", "en-us", "-s", "175", "-w", cliWAV.path, sentence])
        try run(
            ProcessInfo.processInfo.arguments[0],
            ["--testing-library", "swift-testing", "--filter", "renderInFreshProcess"],
            environment: [
                FreshProcessRender.outputVariable: oursWAV.path, FreshProcessRender.textVariable: sentence,
            ])
        let reference = try WAVFile.read(from: cliWAV)
        let ours = try WAVFile.read(from: oursWAV)
        #expect(reference.sampleRate == rate && ours.sampleRate == rate)
        let theirs = Array(Silence.trimmed(reference.samples))
        let mine = Array(Silence.trimmed(ours.samples))
        let lengthDifference = abs(Double(theirs.count - mine.count)) / Double(rate)
        #expect(lengthDifference <= 0.010, "lengths differ by \(lengthDifference) s")
        let match = AudioAnalysis.bestCorrelation(mine, theirs, maxLag: 1_000)
        #expect(match.correlation >= 0.9, "correlation \(match.correlation) at lag \(match.lag)")
        // Later renders in one process differ in phase but not in sound or length.
        let again = try render([text(sentence)])
        #expect(AudioAnalysis.spectralSimilarity(again.samples, theirs) > 0.9)
        #expect(abs(Silence.trimmed(again.samples).count - theirs.count) < rate / 50)
    }

    @Test func missingDataIsAnErrorNotAnExit() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("espeak-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.txt")
        try run(
            ProcessInfo.processInfo.arguments[0],
            ["--testing-library", "swift-testing", "--filter", "renderInFreshProcess"],
            environment: [
                FreshProcessRender.outputVariable: report.path,
                FreshProcessRender.dataVariable: directory.path,
            ])
        let message = try String(contentsOf: report, encoding: .utf8)
        #expect(message.hasPrefix("engineUnavailable: cannot start eSpeak NG"), "\(message)")
        #expect(message.contains(directory.path))
    }

    @Test func anotherDataPathAfterStartIsAnError() {
        #expect {
            _ = try ESpeakRenderer(dataPath: "/tmp/some-other-espeak-data")
        } throws: { error in
            (error as? RenderError)?.kind == .engineUnavailable
        }
    }

    @Test func emphasisChangesRatePitchAndVolume() throws {
        let segments: [Segment] = [
            .text(TextSegment(text: "now", emphasis: .strong)),
            .text(TextSegment(text: "now", emphasis: .reduced)),
            .text(TextSegment(text: "now", emphasis: EmphasisLevel.none)),
        ]
        let settings = try trace(segments).trace.map(\.settings)
        #expect(settings[0].rate < 175 && settings[0].pitch > 50 && settings[0].gainDB > 0)
        #expect(settings[1].rate > 175 && settings[1].pitch < 50 && settings[1].gainDB < 0)
        #expect(settings[2].rate == 175 && settings[2].pitch == 50 && settings[2].gainDB == 0)
    }

    private func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(executable) exited with \(process.terminationStatus)")
    }

    @Test func unknownVoiceListsInstalledVoices() throws {
        let missing = VoiceProfile(id: "x", locale: "xx", espeakVoice: "no-such-voice")
        do {
            _ = try render([text("hello")], voice: missing)
            Issue.record("rendering with a missing voice succeeded")
        } catch let error as RenderError {
            #expect(error.kind == .voiceNotFound)
            #expect(error.message.contains("no-such-voice"))
            #expect(error.message.contains("gmw/de"))
        }
        // The engine still works afterwards, in the right voice.
        let after = try render([text("Turn left.")])
        let before = try render([text("Turn left.")])
        #expect(AudioAnalysis.spectralSimilarity(after.samples, before.samples) > 0.9)
        #expect(try trace([text("Turn left.")]).trace.map(\.settings.voiceName) == ["en-us"])
    }

    @Test func mbrolaVoiceIsRefusedWithoutCallingEspeak() throws {
        let mbrola = VoiceProfile(id: "x", locale: "de-DE", espeakVoice: "mb-de1")
        #expect {
            _ = try render([text("hallo")], voice: mbrola)
        } throws: { error in
            guard let error = error as? RenderError else { return false }
            return error.kind == .voiceNotFound && error.message.contains("MBROLA")
        }
    }

    @Test func handlerThatRendersAgainGetsAnErrorNotADeadlock() throws {
        var nestedError: RenderError?
        let renderer = self.renderer
        let voice = english
        let audio = try renderer.render(Utterance(text: "Turn left."), voice: voice) { event in
            if nestedError == nil {
                do {
                    _ = try renderer.render(Utterance(text: "again"), voice: voice)
                } catch {
                    nestedError = error as? RenderError
                }
            }
            return .continue
        }
        #expect(audio.sampleCount > rate / 4)
        let error = try #require(nestedError)
        #expect(error.message.contains("must not call the renderer"))
    }

    @Test func stopEndsWithinAChunk() throws {
        var chunks = 0
        var samples = 0
        let summary = try renderer.render(
            Utterance(text: "In two miles, take the exit towards Cesar Chavez Street, then keep left."),
            voice: english
        ) { event in
            guard case .audio(let chunk) = event else { return .continue }
            chunks += 1
            samples += chunk.count
            return .stop
        }
        #expect(summary.wasStopped)
        #expect(chunks == 1)
        #expect(summary.sampleCount == samples)
        #expect(samples <= 1_200)
        // The next render is whole again.
        let whole = try render([text("Turn left.")])
        #expect(whole.samples.count > rate / 4)
    }

    @Test func stopDuringAPause() throws {
        var chunks = 0
        let summary = try renderer.render(
            Utterance(segments: [.pause(.seconds(5)), text("Turn left.")]), voice: english
        ) { event in
            if case .audio = event { chunks += 1 }
            return chunks == 2 ? .stop : .continue
        }
        #expect(summary.wasStopped)
        #expect(chunks == 2)
        #expect(summary.sampleCount < rate)
    }

    @Test func audioStreamsInChunks() throws {
        var sizes: [Int] = []
        _ = try renderer.render(
            Utterance(text: "In two miles, take the exit towards Cesar Chavez Street."), voice: english
        ) { event in
            if case .audio(let chunk) = event { sizes.append(chunk.count) }
            return .continue
        }
        // Chunks come as eSpeak makes them (a held-back pause between words may join one).
        #expect(sizes.count > 10)
        #expect(sizes.first ?? .max <= 1_081)
        #expect((sizes.max() ?? 0) < sizes.reduce(0, +) / 4)
    }

    @Test func phonemeInputSpeaksPhonemes() throws {
        let segment = TextSegment(text: "hello", espeakPhonemes: "h@l'oU")
        let audio = try renderer.render(Utterance(segments: [.text(segment)]), voice: english)
        let spoken = try render([text("hello")])
        #expect(audio.words.map(\.text) == ["hello"])
        #expect(AudioAnalysis.spectralSimilarity(audio.samples, spoken.samples) > 0.8)
    }

    @Test func neighboursSpokenAlikeAreOnePhrase() throws {
        let ssml = #"<speak>Take exit <say-as interpret-as="address">53</say-as> towards Washington</speak>"#
        let utterance = try SSMLParser().parse(ssml)
        #expect(utterance.segments.count == 3)
        let (summary, _, calls) = try renderer.renderTraced(utterance, voice: english) { _ in .continue }
        #expect(calls.count == 1)
        #expect(calls.first?.hasPrefix("Take exit fifty") == true)
        #expect(summary.words.map(\.text).prefix(3) == ["Take", "exit", "fifty"])
        // Spoken as one phrase: no clause pause between "exit" and the number.
        let audio = try renderer.render(utterance, voice: english)
        let exit = try #require(audio.words.first { $0.text == "exit" }?.sample)
        let fifty = try #require(audio.words.first { $0.text == "fifty" }?.sample)
        let gap = Array(audio.samples[exit..<fifty])
        #expect(AudioAnalysis.longestSilentRun(gap).count < rate / 20)

        // A mark, a pause, a voice or a volume change still ends the call.
        let split: [[Segment]] = [
            [text("Turn left"), .mark("m"), text("now")],
            [text("Turn left"), .pause(.seconds(0.2)), text("now")],
            [text("Turn left"), text("jetzt", language: "de")],
            [text("Turn left"), text("now", prosody: Prosody(volumeDB: -6))],
        ]
        for segments in split {
            #expect(try trace(segments).calls.count == 2)
        }
        #expect(try trace([text("Turn left"), text("now")]).calls == ["Turn left now"])
    }

    @Test func silentVolumeKeepsTheTiming() throws {
        // Against an audible volume change at the same place (a change of volume keeps the
        // segments in separate eSpeak calls; equal neighbours are joined into one phrase).
        let audio = try render([text("Turn left", prosody: Prosody(volumeDB: -.infinity)), text("now")])
        let spoken = try render([text("Turn left", prosody: Prosody(volumeDB: -6)), text("now")])
        #expect(abs(audio.samples.count - spoken.samples.count) < rate / 20)
        #expect(AudioAnalysis.longestSilentRun(audio.samples).count > rate / 3)
    }

    @Test func phonemesOfText() throws {
        #expect(
            try renderer.phonemes(for: "Hello world. Turn left.", voice: english)
                == "həlˈoʊ wˈɜːld tˈɜːn lˈɛft")
        #expect(try renderer.phonemes(for: "hello", voice: english, ipa: false) == "h@l'oU")
        #expect(try renderer.phonemes(for: "", voice: english) == "")
        #expect(
            try renderer.phonemes(
                for: "Hallo", voice: VoiceProfile(id: "de", locale: "de-DE", espeakVoice: "de")) == "hˈaloː")
    }

    @Test func installedVoicesIncludeGerman() throws {
        let voices = try ESpeakRenderer.installedVoices()
        #expect(voices.count > 50)
        let german = try #require(voices.first { $0.identifier == "gmw/de" })
        #expect(german.languages.first == "de")
        #expect(german.name == "German")
    }

    @Test func corpusAnnouncementsRenderCleanly() throws {
        let texts = Array(Set(try TestFixtures.announcements().map(\.text))).sorted()
        #expect(texts.count > 400)
        for text in stride(from: 0, to: texts.count, by: 10).map({ texts[$0] }) {
            let audio = try renderer.render(Utterance(text: text), voice: english)
            #expect(audio.duration > 0.3, "\(text)")
            #expect(AudioAnalysis.leadingSilence(audio.samples, sampleRate: rate) == 0, "\(text)")
            let tail = AudioAnalysis.trailingSilence(audio.samples, sampleRate: rate)
            #expect(Silence.promptTail.contains(tail), "\(text): tail \(tail) s")
            #expect(!audio.words.isEmpty && audio.words.map(\.sample) == audio.words.map(\.sample).sorted())
            #expect(audio.words.allSatisfy { $0.sample < audio.samples.count }, "\(text)")
        }
    }

    @Test func concurrentRendersAgree() async throws {
        let renderer = self.renderer
        let voice = english
        let utterance = Utterance(text: "Turn left onto Main Street.")
        let lengths = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var lengths: [Int] = []
                    for _ in 0..<25 {
                        lengths.append(try renderer.render(utterance, voice: voice).samples.count)
                    }
                    return lengths
                }
            }
            var all: [Int] = []
            for try await part in group { all += part }
            return all
        }
        #expect(lengths.count == 100)
        let spread = (lengths.max() ?? 0) - (lengths.min() ?? 0)
        #expect(spread <= rate / 100, "lengths spread over \(spread) samples")
    }
}

/// The child-process side of `matchesTheCommandLineProgram` and `missingDataIsAnErrorNotAnExit`:
/// the first use of a fresh engine. Skipped unless one of those tests set the environment.
@Suite struct FreshProcessRender {
    static let outputVariable = "VOICEGUIDANCE_FRESH_RENDER_OUTPUT"
    static let textVariable = "VOICEGUIDANCE_FRESH_RENDER_TEXT"
    static let dataVariable = "VOICEGUIDANCE_FRESH_RENDER_DATA"

    @Test(.enabled(if: ProcessInfo.processInfo.environment[outputVariable] != nil))
    func renderInFreshProcess() throws {
        let environment = ProcessInfo.processInfo.environment
        let output = URL(fileURLWithPath: try #require(environment[Self.outputVariable]))
        if let dataPath = environment[Self.dataVariable] {
            // Starting with a folder that holds no data must throw, not exit the process.
            do {
                _ = try ESpeakRenderer(dataPath: dataPath)
                try Data("started".utf8).write(to: output)
            } catch let error as RenderError {
                try Data("\(error.kind): \(error.message)".utf8).write(to: output)
            }
            return
        }
        let text = try #require(environment[Self.textVariable])
        let audio = try ESpeakRenderer().render(Utterance(text: text), voice: .fallback)
        try WAVFile.write(audio, to: output)
    }
}
