import Foundation
public import VoiceGuidance

/// Simulates a drive over a route on a simulated clock, guided by a `VoiceController` — the
/// object an app uses — speaking through a `SimulatedSpeech`.
///
/// The vehicle leaves the origin at time 0 and never stops; progress updates come once a second.
/// GPS noise (`gpsNoise` meters) puts each fix off along the route by a Gaussian error with a
/// standard deviation of half that (so 95% of fixes are within `gpsNoise`), independent per fix,
/// from a seeded generator; the reported speed is the true one and the reported accuracy is
/// `gpsNoise`. The timeline is what the controller did: each prompt it spoke, heard from the
/// moment the simulated speech started for as long as it lasted (or until it was cut).
public struct DriveSimulator: Sendable {
    /// How fast the vehicle drives.
    public enum SpeedProfile: Sendable, Equatable {
        /// Always this speed, m/s.
        case constant(Double)
        /// Each step at its own routed speed (distance / duration).
        case route
    }

    public var route: Route
    public var phrases: PhraseBuilder
    public var speed: SpeedProfile
    public var gpsNoise: Double
    public var seed: UInt64
    public var timing: AnnouncementTiming
    public var usesServerInstructions: Bool
    /// The length of a prompt's speech in seconds (the real renderer's, or an estimate).
    public var durationOf: @Sendable (SpokenInstruction) -> Double
    /// The controller's speed gain and chimes (none by default).
    public var sound = PromptSound.plain

    public init(
        route: Route, phrases: PhraseBuilder, speed: SpeedProfile, gpsNoise: Double = 0, seed: UInt64 = 1,
        timing: AnnouncementTiming = AnnouncementTiming(), usesServerInstructions: Bool = true,
        durationOf: @escaping @Sendable (SpokenInstruction) -> Double
    ) {
        self.route = route
        self.phrases = phrases
        self.speed = speed
        self.gpsNoise = gpsNoise
        self.seed = seed
        self.timing = timing
        self.usesServerInstructions = usesServerInstructions
        self.durationOf = durationOf
    }

    /// Drives the whole route.
    ///
    /// - Parameters:
    ///   - track: where the drive's audio goes, each prompt at its time, as the drive goes.
    ///   - onSpeak: called with each prompt when it starts (its length not yet cut).
    /// - Throws: what `track` throws (an audio device or file that fails).
    /// - Complexity: O(drive time in seconds + prompts); memory O(route + prompts).
    /// Runs on the caller's executor, so the track and the callback need not be `Sendable`.
    nonisolated(nonsending) public func run(
        track: DriveAudioTrack? = nil, onSpeak: ((PromptRecord) -> Void)? = nil
    ) async throws -> DriveTimeline {
        let motion = DriveMotion(route: route, speed: speed)
        let clock = SimulatedClock()
        let heard = Locked<[SimulatedSpeech.HeardPrompt]>([])
        let speech = SimulatedSpeech(
            clock: clock, outputLatency: timing.outputLatency, lengthOf: durationOf,
            onHeard: { prompt in heard.withLock { $0.append(prompt) } })
        let controller = VoiceController(
            route: route, synthesizer: speech, phrases: phrases, timing: timing, clock: clock,
            usesServerInstructions: usesServerInstructions, estimate: durationOf, sound: sound)
        let events = Locked<[VoiceController.Event]>([])
        await controller.setOnEvent { event in
            events.withLock { $0.append(event) }
            if case .suppressed(_, .interrupted) = event { speech.countUnsaid() }
        }

        var recorder = DriveRecorder(motion: motion, latency: timing.outputLatency, track: track)
        var random = SplitMix64(seed: seed)
        var stepCursor = 0
        var updates = 0
        var time = 0.0
        while time < motion.totalTime {
            clock.set(time)
            speech.advance(to: time)
            try recorder.take(
                heard: heard.withLock { list in
                    defer { list = [] }
                    return list
                })
            var fix = motion.position(at: time)
            if gpsNoise > 0 { fix += random.nextGaussian() * gpsNoise / 2 }
            fix = min(max(fix, 0), max(motion.length - 0.001, 0))
            stepCursor = motion.step(containing: fix, near: stepCursor)
            let location = motion.steps[stepCursor]
            await controller.update(
                RouteProgress(
                    time: time, legIndex: location.leg, stepIndex: location.step,
                    distanceRemaining: location.start + location.length - fix, speed: motion.speed(at: time),
                    horizontalAccuracy: gpsNoise > 0 ? gpsNoise : nil))
            for event in events.withLock({ list in
                defer { list = [] }
                return list
            }) {
                if let record = recorder.take(event, at: time) { onSpeak?(record) }
            }
            await speech.waitUntilHandedOver(recorder.spokenCount)
            try recorder.take(
                heard: heard.withLock { list in
                    defer { list = [] }
                    return list
                })
            updates += 1
            time = Double(updates)
        }
        await speech.playOut(recorder.spokenCount)
        await controller.waitUntilIdle()
        try recorder.take(
            heard: heard.withLock { list in
                defer { list = [] }
                return list
            })
        try recorder.finish()
        let summary = DriveSummary(route: route, speed: speed, prompts: recorder.prompts)
        return DriveTimeline(
            prompts: recorder.prompts, summary: summary, drops: recorder.drops, updates: updates)
    }
}

/// Turns what the controller did and what was heard into the drive's timeline (and its audio).
struct DriveRecorder {
    let motion: DriveMotion
    let latency: Double
    let track: DriveAudioTrack?
    private(set) var prompts: [PromptRecord] = []
    private(set) var drops: [DroppedPrompt] = []
    /// Prompts the controller handed to the synthesizer.
    private(set) var spokenCount = 0
    private var heardCount = 0
    /// The instruction id of each of `prompts`.
    private var promptIDs: [UUID] = []

    init(motion: DriveMotion, latency: Double, track: DriveAudioTrack?) {
        self.motion = motion
        self.latency = latency
        self.track = track
    }

    /// Records a controller event made at `time`; returns the new prompt, if it is one.
    mutating func take(_ event: VoiceController.Event, at time: Double) -> PromptRecord? {
        switch event {
        case .decided(.drop(let dropped)):
            drops.append(dropped)
        case .spoke(let prompt):
            spokenCount += 1
            let record = record(of: prompt, at: time)
            prompts.append(record)
            promptIDs.append(prompt.instruction.id)
            return record
        case .suppressed(let prompt, .interrupted):
            // Cut before it began: nothing of it is heard, it is not on the timeline.
            if let index = promptIDs.lastIndex(of: prompt.instruction.id), index >= heardCount {
                prompts.remove(at: index)
                promptIDs.remove(at: index)
            }
        default:
            break
        }
        return nil
    }

    /// Sets the heard length of prompts that ended (in the order they were spoken) and writes
    /// their audio.
    mutating func take(heard: [SimulatedSpeech.HeardPrompt]) throws {
        for prompt in heard {
            defer { heardCount += 1 }
            guard heardCount < prompts.count else { continue }
            var record = prompts[heardCount]
            if prompt.wasCut {
                record.durationS = max(0, min(record.durationS, prompt.length))
                if record.tier != .custom {
                    record.endsBeforeManeuverS =
                        motion.time(at: motion.maneuverPosition(leg: record.leg, step: record.step))
                        - record.timeS - record.durationS
                }
                prompts[heardCount] = record
            }
            try track?.add(prompt.instruction, at: record.timeS, heardFor: record.durationS)
        }
    }

    /// Ends the audio track one second after the last prompt.
    func finish() throws {
        let end = prompts.map { $0.timeS + $0.durationS }.max() ?? 0
        try track?.finish(at: end + 1)
    }

    private func record(of prompt: ScheduledPrompt, at time: Double) -> PromptRecord {
        let start = time + latency
        let maneuverPosition = motion.maneuverPosition(leg: prompt.legIndex, step: prompt.stepIndex)
        let maneuverTime = motion.time(at: maneuverPosition)
        var heardDistance: Double?
        if prompt.spokenDistance != nil {
            let at = time + (prompt.distanceHeardAfter ?? latency)
            heardDistance = maneuverPosition - motion.position(at: at)
        }
        var record = PromptRecord(
            timeS: start, leg: prompt.legIndex, step: prompt.stepIndex, tier: prompt.tier,
            text: prompt.instruction.text, distanceM: maneuverPosition - motion.position(at: start),
            speedMps: motion.speed(at: start), durationS: prompt.duration,
            endsBeforeManeuverS: maneuverTime - start - prompt.duration,
            spokenDistanceM: prompt.spokenDistance, heardDistanceM: heardDistance,
            ssml: prompt.instruction.ssml)
        record.gainDB = prompt.instruction.delivery.speedGainDB
        record.chime = prompt.instruction.delivery.chime
        return record
    }
}
