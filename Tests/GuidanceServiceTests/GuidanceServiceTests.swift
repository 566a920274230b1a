import Foundation
import GuidanceService
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

@Suite struct GuidanceServiceTests {
    static let fixture = "navigation-ios_routeWithInstructions.json"

    /// Progress lines for driving the fixture at `speed` m/s, one a second from time 0.
    static func driveLines(speed: Double = 15, seconds: Int? = nil) throws -> [String] {
        let route = try Route.decode(from: Data(contentsOf: TestFixtures.directions(fixture)))
        let steps = route.legs[0].steps
        var ends: [Double] = []
        for step in steps { ends.append((ends.last ?? 0) + step.distance) }
        var lines: [String] = []
        var position = 0.0
        var time = 0
        while position < ends[ends.count - 2], seconds.map({ time < $0 }) ?? true {
            let step = ends.firstIndex { $0 > position } ?? steps.count - 1
            lines.append(
                #"{"id":\#(time),"cmd":"progress","leg":0,"step":\#(step),"distance_remaining":\#(ends[step] - position),"speed":\#(speed),"time":\#(time)}"#
            )
            position += speed
            time += 1
        }
        return lines
    }

    @Test func malformedRequestsGetTheirErrorAndTheServiceGoesOn() async throws {
        let harness = try ServiceHarness()
        #expect(MalformedRequests.cases.count >= 50)
        for malformed in MalformedRequests.cases {
            let reply = try await harness.send(malformed.line)
            #expect(reply["ok"] == .bool(false), "\(malformed)")
            #expect(reply.errorCode == malformed.code, "\(malformed): \(reply.serialized)")
            #expect(
                reply.errorMessage?.contains(malformed.message) == true, "\(malformed): \(reply.serialized)")
            #expect(reply["id"] == (malformed.id.map { .number($0) } ?? .null), "\(malformed)")
        }
        let hello = try await harness.send(#"{"id":"after","cmd":"hello"}"#)
        #expect(hello["ok"] == .bool(true))
        #expect(hello["id"] == .string("after"))
        #expect(hello.number("protocol") == 1)
    }

    @Test func drivesARouteAndTellsSubscribers() async throws {
        let harness = try ServiceHarness()
        let events = EventCollector()
        #expect(try await harness.send(#"{"id":1,"cmd":"subscribe"}"#, from: events)["ok"] == .bool(true))
        let route = try await harness.send(ServiceHarness.routeLine(Self.fixture))
        #expect(route.number("legs") == 1)
        #expect(route.number("steps") == 6)
        for line in try Self.driveLines() {
            let reply = try await harness.send(line)
            #expect(reply["ok"] == .bool(true), "\(reply.serialized)")
        }
        await harness.service.waitUntilIdle()
        let spoken = harness.synthesizer.spokenTexts
        #expect(spoken.count >= 5)
        #expect(spoken.contains { $0.contains("California Street") })
        let spokeEvents = events.events.filter { $0.string("event") == "spoke" }
        #expect(spokeEvents.map { $0.string("text") ?? "" } == spoken)
        #expect(events.names.contains("decided"))
        let status = try await harness.send(#"{"id":2,"cmd":"status"}"#)
        #expect(status["route"] == .bool(true))
        #expect(status.number("leg") == 0)
        #expect((status.number("step") ?? 0) >= 4)
    }

    @Test func quickReplyAnswersProgressOnlyAndInPlace() async throws {
        let harness = try ServiceHarness()
        let service = harness.service
        #expect(service.quickReply(to: Data(#"{"cmd":"status"}"#.utf8)) == nil)
        #expect(service.quickReply(to: Data("garbage".utf8)) == nil)
        let early = try #require(
            service.quickReply(
                to: Data(#"{"id":1,"cmd":"progress","leg":0,"step":0,"distance_remaining":5}"#.utf8)))
        #expect(try JSONValue.parse(early.dropLast()).errorCode == "no_route")
        _ = try await harness.send(ServiceHarness.routeLine(Self.fixture))
        let line = #"{"id":2,"cmd":"progress","leg":0,"step":1,"distance_remaining":250,"time":7}"#
        let reply = try JSONValue.parse(try #require(service.quickReply(to: Data(line.utf8))).dropLast())
        #expect(reply["ok"] == .bool(true))
        #expect(reply.number("time") == 7)
        let status = try await harness.send(#"{"cmd":"status"}"#)
        #expect(status.number("distance_to_maneuver") == 250)
    }

    @Test func progressPastTheRouteIsRefused() async throws {
        let harness = try ServiceHarness()
        _ = try await harness.send(ServiceHarness.routeLine(Self.fixture))
        let leg = try await harness.send(
            #"{"id":1,"cmd":"progress","leg":1,"step":0,"distance_remaining":5}"#)
        #expect(leg.errorCode == "invalid_value")
        #expect(leg.errorMessage?.contains("1 legs") == true)
        let step = try await harness.send(
            #"{"id":2,"cmd":"progress","leg":0,"step":6,"distance_remaining":5}"#)
        #expect(step.errorMessage?.contains("6 steps") == true)
    }

    @Test func mutedGuidanceIsSuppressedAndUnmuteResumes() async throws {
        let harness = try ServiceHarness()
        let events = EventCollector()
        _ = try await harness.send(#"{"cmd":"subscribe"}"#, from: events)
        _ = try await harness.send(ServiceHarness.routeLine(Self.fixture))
        #expect(try await harness.send(#"{"id":1,"cmd":"mute"}"#)["muted"] == .bool(true))
        let lines = try Self.driveLines()
        for line in lines.prefix(lines.count / 2) { _ = try await harness.send(line) }
        await harness.service.settle()
        #expect(harness.synthesizer.spokenTexts.isEmpty)
        #expect(
            events.events.contains { $0.string("event") == "suppressed" && $0.string("reason") == "muted" })
        #expect(events.events.contains { $0.string("event") == "muted" && $0["muted"] == .bool(true) })
        #expect(try await harness.send(#"{"id":2,"cmd":"status"}"#)["muted"] == .bool(true))
        _ = try await harness.send(#"{"id":3,"cmd":"unmute"}"#)
        for line in lines.suffix(lines.count - lines.count / 2) { _ = try await harness.send(line) }
        await harness.service.waitUntilIdle()
        #expect(!harness.synthesizer.spokenTexts.isEmpty)
    }

    @Test func alertsOnlyModeSpeaksAppPromptsOnly() async throws {
        let harness = try ServiceHarness()
        let events = EventCollector()
        _ = try await harness.send(#"{"cmd":"subscribe"}"#, from: events)
        #expect(
            try await harness.send(#"{"cmd":"mode","mode":"alerts_only"}"#).string("mode") == "alerts_only")
        let reply = try await harness.send(
            #"{"cmd":"announce","text":"Speed camera ahead","priority":"important"}"#)
        #expect(reply.string("outcome") == "spoken")
        _ = try await harness.send(ServiceHarness.routeLine(Self.fixture))
        for line in try Self.driveLines() { _ = try await harness.send(line) }
        await harness.service.waitUntilIdle()
        #expect(harness.synthesizer.spokenTexts == ["Speed camera ahead"])
        #expect(events.events.contains { $0.string("reason") == "alerts_only" })
        #expect(try await harness.send(#"{"cmd":"repeat"}"#)["said"] == .bool(true))
    }

    @Test func notificationIsDroppedWhileSomethingIsSaid() async throws {
        let harness = try ServiceHarness()
        let first = try await harness.send(
            #"{"cmd":"announce","text":"Speed camera ahead in five hundred meters"}"#)
        #expect(first.string("outcome") == "spoken")
        let second = try await harness.send(
            #"{"cmd":"announce","text":"Traffic ahead","priority":"notification"}"#)
        #expect(second.string("outcome") == "dropped_busy")
        harness.clock.advance(by: 30)
        let third = try await harness.send(
            #"{"cmd":"announce","text":"Traffic ahead","priority":"notification"}"#)
        #expect(third.string("outcome") == "spoken")
        await harness.service.waitUntilIdle()
        #expect(
            harness.synthesizer.spokenTexts == ["Speed camera ahead in five hundred meters", "Traffic ahead"])
    }

    @Test func repeatSaysTheCurrentInstructionAgain() async throws {
        let harness = try ServiceHarness()
        _ = try await harness.send(ServiceHarness.routeLine(Self.fixture))
        for line in try Self.driveLines(seconds: 12) { _ = try await harness.send(line) }
        harness.clock.advance(by: 20)
        await harness.service.waitUntilIdle()
        let before = harness.synthesizer.spokenTexts.count
        let reply = try await harness.send(#"{"id":9,"cmd":"repeat"}"#)
        await harness.service.waitUntilIdle()
        #expect(reply["said"] == .bool(true), "\(reply.serialized)")
        #expect(harness.synthesizer.spokenTexts.count == before + 1)
        #expect(reply.string("text") == harness.synthesizer.spokenTexts.last)
    }

    @Test func voiceVolumeStopAndReload() async throws {
        let harness = try ServiceHarness()
        let events = EventCollector()
        _ = try await harness.send(#"{"cmd":"subscribe"}"#, from: events)
        _ = try await harness.send(ServiceHarness.routeLine(Self.fixture))
        let voice = try await harness.send(#"{"cmd":"voice","voice":"de-DE"}"#)
        #expect(voice.string("locale") == "de-DE")
        #expect(harness.voices.all == ["de-DE"])
        for line in try Self.driveLines(seconds: 5) { _ = try await harness.send(line) }
        await harness.service.waitUntilIdle()
        harness.clock.advance(by: 30)
        let repeated = try await harness.send(#"{"cmd":"repeat"}"#)
        let german = ["abbiegen", "Metern", "fahren", "Fuß", "Meile"]
        #expect(german.contains { repeated.string("text")?.contains($0) == true }, "\(repeated.serialized)")
        #expect(try await harness.send(#"{"cmd":"volume","db":-6}"#).number("db") == -6)
        #expect(harness.synthesizer.volumeDB == -6)
        #expect(try await harness.send(#"{"cmd":"stop"}"#)["ok"] == .bool(true))
        #expect(harness.synthesizer.calls.contains(.stop))
        try await harness.service.reload()
        #expect(events.names.contains("reloaded"))
        #expect(try await harness.send(#"{"cmd":"status"}"#).string("voice") == "de-DE")
    }

    @Test func aFloodOfProgressSkipsStaleUpdatesAndKeepsTheNewest() async throws {
        let harness = try ServiceHarness(limits: ProtocolLimits(maxQueuedProgress: 8))
        _ = try await harness.send(ServiceHarness.routeLine(Self.fixture))
        let service = harness.service
        let lines = try Self.driveLines(speed: 15)
        await withTaskGroup(of: Void.self) { group in
            for line in lines.prefix(200) {
                group.addTask { _ = await service.reply(to: Data(line.utf8)) }
            }
        }
        await service.settle()
        let status = try await harness.send(#"{"cmd":"status"}"#)
        #expect(status.number("skipped_progress").map { $0 >= 0 } == true)
        #expect(status.number("distance_to_maneuver") != nil)
    }
}

@Suite struct GuidanceServiceFloodTests {
    @Test(.timeLimit(.minutes(1))) func statusDuringAnEndlessFloodStillAnswers() async throws {
        let harness = try ServiceHarness(limits: ProtocolLimits(maxQueuedProgress: 16))
        _ = try await harness.send(ServiceHarness.routeLine(GuidanceServiceTests.fixture))
        let service = harness.service
        let stop = Locked(false)
        let flood = Task {
            var time = 0.0
            while !stop.withLock({ $0 }) {
                time += 0.001
                let line =
                    #"{"cmd":"progress","leg":0,"step":1,"distance_remaining":900,"speed":15,"time":\#(time)}"#
                _ = await service.reply(to: Data(line.utf8))
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        let status = try await harness.send(#"{"id":1,"cmd":"status"}"#)
        stop.withLock { $0 = true }
        await flood.value
        #expect(status["ok"] == .bool(true))
        #expect(status.number("distance_to_maneuver") == 900)
    }
}

@Suite struct GuidanceServiceShutdownTests {
    @Test func shutDownFadesOutThePromptBeingPlayed() async throws {
        let library = try VoiceLibrary(directory: TestFixtures.packageRoot().appendingPathComponent("Voices"))
        let sink = MemorySink(pacesToRealTime: true)
        let renderer = RecordingRenderer(secondsPerCharacter: 0.06)
        let synthesizer = SpeechSynthesizer(renderer: renderer, sink: sink, parseSSML: nil)
        let service = GuidanceService(
            synthesizer: synthesizer, library: library, voice: try library.profile(id: "en-US"),
            configuration: .init(programVersion: "test"), setVoice: { synthesizer.voice = $0 })
        let text = String(repeating: "Speed camera ahead. ", count: 5)
        let reply = await service.reply(to: Data(#"{"cmd":"announce","text":"\#(text)"}"#.utf8))
        #expect(String(decoding: reply, as: UTF8.self).contains(#""outcome":"spoken""#))
        try await Task.sleep(for: .milliseconds(700))
        await service.shutDown()
        let prompt = try #require(sink.prompts.last)
        #expect(prompt.wasInterrupted)
        let heard = Double(prompt.samples.count) / 22_050
        #expect(heard > 0.3 && heard < 3, "\(heard) s of \(renderer.duration(of: Utterance(text: text))) s")
        let fadeLength = 220
        let end = prompt.samples.count
        let before = prompt.samples[max(0, end - 3 * fadeLength)..<(end - fadeLength)]
        let tail = prompt.samples[(end - 20)..<end]
        #expect(AudioLevel.peak(before) > 7_000)
        #expect(AudioLevel.peak(tail) < 1_000)
    }
}

/// `route` with `path`: a regular file only, at most `RouteLimits.maximumFileBytes`.
@Suite struct RouteFileRequestTests {
    @Test func aFIFOOrAnOversizedFileIsRefusedAtOnce() async throws {
        let harness = try ServiceHarness()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "route-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A FIFO nobody writes to: opening it would block the daemon for good.
        let fifo = folder.appendingPathComponent("route.pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let piped = try await harness.send(#"{"id":1,"cmd":"route","path":"\#(fifo)"}"#)
        #expect(piped.errorCode == "invalid_value", "\(piped.serialized)")
        #expect(piped.errorMessage?.contains("not a regular file") == true, "\(piped.serialized)")
        // A device that never ends: it was read until memory ran out.
        let device = try await harness.send(#"{"id":4,"cmd":"route","path":"/dev/zero"}"#)
        #expect(device.errorCode == "invalid_value", "\(device.serialized)")
        #expect(
            device.errorMessage?.contains(
                "cannot read /dev/zero: it is a device, pipe or socket, not a regular file")
                == true, "\(device.serialized)")
        // A sparse file one byte over the limit: refused after reading one byte more than it.
        let big = folder.appendingPathComponent("big.json")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(RouteLimits().maximumFileBytes + 1))
        try handle.close()
        let oversized = try await harness.send(#"{"id":2,"cmd":"route","path":"\#(big.path)"}"#)
        #expect(oversized.errorCode == "invalid_value", "\(oversized.serialized)")
        #expect(
            oversized.errorMessage?.contains("is over the limit of 16 MiB") == true, "\(oversized.serialized)"
        )
        // The service goes on: a real route file loads.
        let loaded = try await harness.send(ServiceHarness.routeLine(id: 3))
        #expect(loaded["ok"] == .bool(true), "\(loaded.serialized)")
    }
}
