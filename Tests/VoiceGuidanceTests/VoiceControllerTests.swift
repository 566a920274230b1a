import DriveSimulation
import Foundation
import Testing
import VoiceGuidance
import VoiceGuidanceTesting

/// Events collected from a callback.
final class EventLog: Sendable {
    private let store = Locked<[VoiceController.Event]>([])
    func append(_ event: VoiceController.Event) { store.withLock { $0.append(event) } }
    var events: [VoiceController.Event] { store.withLock { $0 } }
}

/// Drives a VoiceController along a one-leg test route with a manual clock.
struct ControllerDrive {
    let controller: VoiceController
    let synthesizer = RecordingSynthesizer()
    let clock = ManualClock()
    let route: Route
    let log = EventLog()
    var position = 0.0

    init(_ route: Route, sound: PromptSound = .plain) throws {
        self.route = route
        controller = VoiceController(
            route: route, synthesizer: synthesizer, phrases: try RoutingSupport.builder(), clock: clock,
            usesServerInstructions: false, sound: sound)
    }

    func startLogging() async {
        let log = self.log
        await controller.setOnEvent { event in log.append(event) }
    }

    var events: [VoiceController.Event] { log.events }

    /// Reroutes to a left turn 180 m ahead (at the old route's second maneuver) then an arrival
    /// 800 m on, and drives the new route at 13.9 m/s for `seconds` one-second updates.
    func rerouteToLeftTurn(thenDriveFor seconds: Int) async {
        var newRoute = RoutingSupport.route([(.turn, .left, 180), (.arrive, nil, 800)])
        newRoute.legs[0].steps[1].maneuver.location = route.legs[0].steps[1].maneuver.location
        await controller.reroute(to: newRoute)
        let starts = [0.0, 180, 980]
        var position = 0.0
        for _ in 0..<seconds {
            clock.advance(by: 1)
            position += 13.9
            let index = position >= starts[1] ? 1 : 0
            await controller.update(
                RouteProgress(
                    time: clock.now, legIndex: 0, stepIndex: index,
                    distanceRemaining: starts[index + 1] - position, speed: 13.9))
        }
    }

    mutating func drive(speed: Double, until: Double) async {
        var starts: [Double] = [0]
        for step in route.legs[0].steps { starts.append(starts.last! + step.distance) }
        while position + speed <= until {
            clock.advance(by: 1)
            position += speed
            var index = 0
            while index + 2 < starts.count && position >= starts[index + 1] { index += 1 }
            await controller.update(
                RouteProgress(
                    time: clock.now, legIndex: 0, stepIndex: index,
                    distanceRemaining: starts[index + 1] - position,
                    speed: speed))
        }
        await controller.waitUntilIdle()
    }
}

@Suite struct VoiceControllerTests {
    static let route = RoutingSupport.route([
        (.turn, .left, 1500), (.turn, .right, 1500), (.arrive, .left, 800),
    ])

    @Test func speaksTheDriveInOrderAndPreparesAhead() async throws {
        var drive = try ControllerDrive(Self.route)
        await drive.drive(speed: 13.9, until: 3790)
        #expect(
            drive.synthesizer.spokenTexts == [
                "Head east on Road 0", "In 250 meters, turn left onto Road 1", "Turn left onto Road 1",
                "Continue on Road 1 for 1.5 kilometers", "In 250 meters, turn right onto Road 2",
                "Turn right onto Road 2", "Continue on Road 2 for 800 meters",
                "In 250 meters, you will arrive at your destination",
                "Your destination is ahead on your left",
            ])
        let calls = drive.synthesizer.calls
        let firstPrepare = try #require(calls.firstIndex { if case .prepare = $0 { true } else { false } })
        let firstSpeak = try #require(calls.firstIndex { if case .speak = $0 { true } else { false } })
        #expect(firstPrepare < firstSpeak)
        #expect(calls.contains(.duration("Turn left onto Road 1")))
    }

    @Test func muteMidStepAdvancesWithoutBacklog() async throws {
        var drive = try ControllerDrive(Self.route)
        await drive.startLogging()
        await drive.drive(speed: 13.9, until: 1100)
        await drive.controller.mute()
        #expect(drive.synthesizer.calls.last == .interrupt, "mute cuts at once")
        await drive.drive(speed: 13.9, until: 1700)  // approach and final of step 1 fall while muted
        let spokenWhileMuted = drive.synthesizer.spokenTexts
        await drive.controller.unmute()
        await drive.drive(speed: 13.9, until: 3100)
        let after = Array(drive.synthesizer.spokenTexts.dropFirst(spokenWhileMuted.count))
        #expect(!after.contains("Turn left onto Road 1"), "no backlog on unmute")
        #expect(after.contains("Turn right onto Road 2"))
        let suppressed = drive.events.filter { if case .suppressed(_, .muted) = $0 { true } else { false } }
        #expect(suppressed.count >= 2)
    }

    @Test func overrideReplacesAndSuppresses() async throws {
        var drive = try ControllerDrive(Self.route)
        await drive.startLogging()
        await drive.controller.setWillSpeak { prompt in
            if prompt.tier == .approach { return .suppress }
            if prompt.tier == .final {
                return .replace(SpokenInstruction(text: "Now: " + prompt.instruction.text))
            }
            return .keep
        }
        await drive.drive(speed: 13.9, until: 2000)
        let texts = drive.synthesizer.spokenTexts
        #expect(
            texts == [
                "Head east on Road 0", "Now: Turn left onto Road 1", "Continue on Road 1 for 1.5 kilometers",
            ])
        #expect(
            drive.events.contains {
                if case .suppressed(let p, .override) = $0 { p.tier == .approach } else { false }
            })
        #expect(
            drive.events.contains { if case .replaced(let p, _) = $0 { p.tier == .final } else { false } })
    }

    @Test func alertsOnlySpeaksOnlyAppPrompts() async throws {
        var drive = try ControllerDrive(Self.route)
        await drive.controller.setMode(.alertsOnly)
        await drive.drive(speed: 13.9, until: 500)
        await drive.controller.announce(SpokenInstruction(text: "Speed camera ahead"))
        await drive.drive(speed: 13.9, until: 2000)
        #expect(drive.synthesizer.spokenTexts == ["Speed camera ahead"])
    }

    @Test func injectedAlertDuringAFinalWaitsAndIsSpokenAfter() async throws {
        var drive = try ControllerDrive(Self.route)
        await drive.startLogging()
        while !drive.synthesizer.spokenTexts.contains("Turn left onto Road 1") {
            await drive.drive(speed: 13.9, until: drive.position + 13.9)
        }
        await drive.controller.announce(SpokenInstruction(text: "Speed camera ahead"), priority: .high)
        #expect(drive.synthesizer.spokenTexts.last == "Turn left onto Road 1")
        await drive.drive(speed: 13.9, until: drive.position + 100)
        let texts = drive.synthesizer.spokenTexts
        #expect(
            texts.firstIndex(of: "Speed camera ahead")! == texts.firstIndex(of: "Turn left onto Road 1")! + 1)
        #expect(!drive.synthesizer.calls.contains(.interrupt))
    }

    /// A synthesizer whose speech lasts (simulated speech): the final cuts the approach still
    /// being said, through the synthesizer, and the approach is heard only until then.
    @Test func finalInterruptsTheApproachThroughTheSynthesizer() async throws {
        let route = RoutingSupport.route([(.turn, .left, 1200), (.arrive, nil, 800)])
        let clock = SimulatedClock()
        let heard = Locked<[SimulatedSpeech.HeardPrompt]>([])
        let speech = SimulatedSpeech(
            clock: clock, outputLatency: AnnouncementTiming().outputLatency,
            lengthOf: RoutingSupport.estimate,
            onHeard: { prompt in heard.withLock { $0.append(prompt) } })
        let controller = VoiceController(
            route: route, synthesizer: speech, phrases: try RoutingSupport.builder(), clock: clock,
            usesServerInstructions: false)
        let log = EventLog()
        await controller.setOnEvent { log.append($0) }
        var position = 0.0
        var time = 0.0
        func spokeApproach() -> Bool {
            log.events.contains { if case .spoke(let p) = $0 { p.tier == .approach } else { false } }
        }
        while position < 1400 {
            let speed = spokeApproach() ? 45.0 : 8.0
            time += 1
            position += speed
            clock.set(time)
            speech.advance(to: time)
            let step = position < 1200 ? 0 : 1
            let remaining = (step == 0 ? 1200 : 2000) - position
            await controller.update(
                RouteProgress(
                    time: time, legIndex: 0, stepIndex: step, distanceRemaining: remaining, speed: speed))
            await speech.waitUntilHandedOver(
                log.events.filter { if case .spoke = $0 { true } else { false } }.count)
        }
        let events = log.events
        let interrupted = try #require(
            events.firstIndex { if case .interrupted(let p) = $0 { p.tier == .approach } else { false } })
        guard
            case .spoke(let final)? = events[interrupted...].first(where: {
                if case .spoke = $0 { true } else { false }
            })
        else {
            Issue.record("nothing spoken after the interruption")
            return
        }
        #expect(final.instruction.text == "Turn left", "short wording: little time left")
        let approach = try #require(heard.withLock { $0 }.first { $0.instruction.text.hasPrefix("In ") })
        #expect(approach.wasCut)
        #expect(approach.length < RoutingSupport.estimate(approach.instruction))
    }

    /// The sound runs 10 s behind `speak` (a slow sink), so the scheduler believes the depart
    /// prompt over when an app prompt comes, and the app prompt waits behind it; muting then cuts
    /// the depart prompt, and the app prompt is never said (before, it was said once the cut one
    /// ended, muted or not). A turn prompt cutting an alert queued like this drops it the same way.
    @Test(.timeLimit(.minutes(1))) func mutingDropsAPromptWaitingBehindTheOneBeingSaid() async throws {
        let route = RoutingSupport.route([(.turn, .left, 3000), (.arrive, nil, 800)])
        let clock = SimulatedClock()
        let heard = Locked<[SimulatedSpeech.HeardPrompt]>([])
        let speech = SimulatedSpeech(
            clock: clock, outputLatency: 10, lengthOf: RoutingSupport.estimate,
            onHeard: { prompt in heard.withLock { $0.append(prompt) } })
        let controller = VoiceController(
            route: route, synthesizer: speech, phrases: try RoutingSupport.builder(), clock: clock,
            usesServerInstructions: false, estimate: RoutingSupport.estimate)
        let log = EventLog()
        await controller.setOnEvent { log.append($0) }
        clock.set(1)
        await controller.update(
            RouteProgress(time: 1, legIndex: 0, stepIndex: 0, distanceRemaining: 2986, speed: 13.9))
        await speech.waitUntilHandedOver(1)
        clock.set(6)
        let camera = SpokenInstruction(text: "Speed camera ahead")
        await controller.announce(camera)
        let handedOver = log.events.compactMap {
            if case .spoke(let p) = $0 { p.instruction.text } else { nil }
        }
        #expect(handedOver == ["Head east on Road 0", "Speed camera ahead"])
        #expect(speech.isSpeaking)

        await controller.mute()
        await controller.waitUntilIdle()
        let said = heard.withLock { $0 }
        #expect(said.map(\.instruction.text) == ["Head east on Road 0"])
        #expect(said.first?.wasCut == true)
        #expect(!speech.isSpeaking)
        #expect(
            log.events.contains {
                if case .suppressed(let p, .interrupted) = $0 { p.instruction.id == camera.id } else { false }
            })
    }

    /// Every prompt is estimated at 30 s, but this synthesizer is done with each at once: the
    /// scheduler learns it (speak returns after didSpeak), so an app prompt queued 3 s after the
    /// depart prompt is said then, not after the predicted 30 s.
    @Test func theSchedulerLearnsWhenSpeechReallyEnded() async throws {
        let route = RoutingSupport.route([(.turn, .left, 3000), (.arrive, nil, 800)])
        let clock = ManualClock()
        let synthesizer = RecordingSynthesizer()
        let controller = VoiceController(
            route: route, synthesizer: synthesizer, phrases: try RoutingSupport.builder(), clock: clock,
            usesServerInstructions: false, estimate: { _ in 30 })
        for second in 1...4 {
            clock.set(Double(second))
            await controller.update(
                RouteProgress(
                    time: Double(second), legIndex: 0, stepIndex: 0,
                    distanceRemaining: 3000 - 13.9 * Double(second), speed: 13.9))
            await controller.waitUntilIdle()
        }
        #expect(synthesizer.spokenTexts == ["Head east on Road 0"])
        await controller.announce(SpokenInstruction(text: "Speed camera ahead"))
        await controller.waitUntilIdle()
        #expect(synthesizer.spokenTexts == ["Head east on Road 0", "Speed camera ahead"])
    }

    /// Prompts built during an update (an approach with its distance in it) are timed on the
    /// length the synthesizer measures, not on the estimate: the controller decides every prompt
    /// at the same update as a scheduler that knows every length (as `drive --trace` does).
    @Test func decidesOnTheRealLengthsOfPromptsBuiltDuringAnUpdate() async throws {
        let renderer = RecordingRenderer(secondsPerCharacter: 0.1)  // longer than the estimate
        let real: @Sendable (SpokenInstruction) -> Double = {
            renderer.duration(of: Utterance(text: $0.text))
        }
        let clock = ManualClock()
        let controller = VoiceController(
            route: Self.route, synthesizer: RecordingSynthesizer(renderer: renderer),
            phrases: try RoutingSupport.builder(), clock: clock, usesServerInstructions: false)
        let log = EventLog()
        await controller.setOnEvent { log.append($0) }
        var knowing = AnnouncementScheduler(
            route: Self.route, phrases: try RoutingSupport.builder(), usesServerInstructions: false,
            durationOf: real)
        var estimating = AnnouncementScheduler(
            route: Self.route, phrases: try RoutingSupport.builder(), usesServerInstructions: false,
            durationOf: RoutingSupport.estimate)
        var expected: [String] = []
        var estimated: [String] = []
        for second in 1...272 {
            let time = Double(second)
            let position = 13.9 * time
            let ends = [1500.0, 3000, 3800]
            let step = ends.firstIndex { position < $0 } ?? 2
            let progress = RouteProgress(
                time: time, legIndex: 0, stepIndex: step, distanceRemaining: ends[step] - position,
                speed: 13.9)
            clock.set(time)
            await controller.update(progress)
            await controller.waitUntilIdle()
            expected += Self.spoken(knowing.update(progress), at: time, by: &knowing)
            estimated += Self.spoken(estimating.update(progress), at: time, by: &estimating)
        }
        let heard = log.events.compactMap { event -> String? in
            if case .spoke(let prompt) = event { "\(prompt.time) \(prompt.instruction.text)" } else { nil }
        }
        #expect(expected.count >= 6)
        #expect(estimated != expected, "the estimate would time some prompt differently")
        #expect(heard == expected)
    }

    /// "TIME TEXT" of the prompts a scheduler decided to speak; their speech ends at once (as the
    /// recording synthesizer's does, which the controller reports to its scheduler).
    private static func spoken(
        _ decisions: [AnnouncementDecision], at time: Double, by scheduler: inout AnnouncementScheduler
    ) -> [String] {
        let texts = decisions.compactMap { decision -> String? in
            if case .speak(let prompt, _) = decision {
                "\(prompt.time) \(prompt.instruction.text)"
            } else {
                nil
            }
        }
        if !texts.isEmpty { scheduler.speechDidFinish(at: time) }
        return texts
    }

    @Test func repeatGivesAFreshDistance() async throws {
        var drive = try ControllerDrive(Self.route)
        await drive.drive(speed: 13.9, until: 700)
        await drive.controller.repeatInstruction()
        await drive.controller.waitUntilIdle()
        #expect(drive.synthesizer.spokenTexts.last == "In 800 meters, turn left onto Road 1")
    }

    @Test func rerouteMidPromptDoesNotRepeatOrSayDepart() async throws {
        var drive = try ControllerDrive(Self.route)
        await drive.startLogging()
        await drive.drive(speed: 13.9, until: 1320)  // approach of step 1 just said
        #expect(drive.synthesizer.spokenTexts.last == "In 250 meters, turn left onto Road 1")
        await drive.rerouteToLeftTurn(thenDriveFor: 30)
        await drive.controller.waitUntilIdle()
        let texts = drive.synthesizer.spokenTexts
        #expect(
            texts.filter { $0.hasPrefix("In ") && $0.hasSuffix("turn left onto Road 1") }.count == 1,
            "\(texts)")
        #expect(texts.filter { $0 == "Turn left onto Road 1" }.count == 1)
        #expect(texts.filter { $0.hasPrefix("Head") }.count == 1, "only the first route's depart")
        #expect(drive.events.contains(.rerouted))
    }

    @Test func eventsStreamCarriesEveryDecision() async throws {
        var drive = try ControllerDrive(Self.route)
        let stream = await drive.controller.events()
        await drive.drive(speed: 13.9, until: 1600)
        var spoke = 0
        var decided = 0
        for await event in stream {
            switch event {
            case .spoke: spoke += 1
            case .decided: decided += 1
            default: break
            }
            if spoke == drive.synthesizer.spokenTexts.count { break }
        }
        #expect(spoke == 4)
        #expect(decided >= 3)
    }

    /// Each prompt is delivered with the gain for the speed of the update that started it, a
    /// chime when its tier has one, and the reroute sound on the first prompt after a reroute.
    @Test func promptsCarryTheSpeedGainTheirTiersChimeAndTheRerouteSound() async throws {
        let curve = SpeedLoudness(points: [.init(kmh: 0, gainDB: 0), .init(kmh: 100, gainDB: 10)])
        let sound = PromptSound(
            speedLoudness: curve, chimes: PromptChimes(tiers: [.final, .arrival], reroute: true))
        var drive = try ControllerDrive(Self.route, sound: sound)
        await drive.startLogging()
        await drive.drive(speed: 13.9, until: 1320)
        await drive.rerouteToLeftTurn(thenDriveFor: 70)
        await drive.controller.waitUntilIdle()
        let spoken = drive.events.compactMap { event -> ScheduledPrompt? in
            if case .spoke(let prompt) = event { return prompt }
            return nil
        }
        let rerouteIndex = try #require(drive.events.firstIndex(of: .rerouted))
        let spokenBefore = drive.events[..<rerouteIndex].filter {
            if case .spoke = $0 { return true } else { return false }
        }.count
        #expect(spoken.count > spokenBefore + 1, "prompts after the reroute: \(spoken.map(\.tier))")
        for (index, prompt) in spoken.enumerated() {
            let delivery = prompt.instruction.delivery
            #expect(abs(delivery.speedGainDB - 13.9 * 3.6 / 10) < 1e-9, "the gain at 50 km/h")
            let expected: Chime.Kind? =
                index == spokenBefore ? .reroute : prompt.tier.isFinal ? .prompt : nil
            #expect(delivery.chime == expected, "\(index) \(prompt.tier) \(prompt.instruction.text)")
        }
        #expect(spoken.contains { $0.tier == .approach && $0.instruction.delivery.chime == nil })
        #expect(spoken.contains { $0.tier == .arrival && $0.instruction.delivery.chime == .prompt })
    }

    /// A final's length counts its chime: the scheduler plans it longer by the chime's length.
    @Test func aChimedFinalIsPlannedLongerByItsChime() async throws {
        var plain = try ControllerDrive(Self.route)
        var chimed = try ControllerDrive(
            Self.route, sound: PromptSound(chimes: PromptChimes(tiers: [.final])))
        await plain.startLogging()
        await chimed.startLogging()
        await plain.drive(speed: 13.9, until: 1600)
        await chimed.drive(speed: 13.9, until: 1600)
        func final(_ events: [VoiceController.Event]) -> ScheduledPrompt? {
            for case .spoke(let prompt) in events where prompt.tier == .final { return prompt }
            return nil
        }
        let plainFinal = try #require(final(plain.events))
        let chimedFinal = try #require(final(chimed.events))
        #expect(abs(chimedFinal.duration - plainFinal.duration - Chime.duration(.prompt)) < 1e-9)
        #expect(chimedFinal.predictedEndBeforeManeuver >= 2.5, "still ends in its window")
    }
}
