import Foundation
public import VoiceGuidance

/// A drive guided from GPS fixes, on a simulated clock: each fix goes through a `FixFilter` and a
/// `RouteMatcher`, the progress to a `VoiceController` (the object an app uses) speaking through a
/// `SimulatedSpeech`; route and signal alerts are announced from the phrase book.
///
/// The clock ticks once a second from the first fix. A second without a fix carries progress
/// forward (dead reckoning, up to the matcher's limit); while off the route the controller gets
/// no progress, so no turn prompt is spoken for a maneuver of the route.
public struct GuidedDrive: Sendable {
    /// Where the car really was (a simulated drive), to judge prompts against; nil for a
    /// recorded trace, judged against the matched track.
    public var truth: RealisticMotion?
    public var route: Route
    public var phrases: PhraseBuilder
    public var fixes: [Position]
    public var timing: AnnouncementTiming
    public var alerts: GuidanceAlerts
    public var usesServerInstructions: Bool
    /// Which prompts the controller speaks (alerts are app prompts: spoken in both modes).
    public var mode: VoiceController.Mode = .all
    public var durationOf: @Sendable (SpokenInstruction) -> Double
    /// The controller's speed gain and chimes (none by default).
    public var sound = PromptSound.plain

    public init(
        route: Route, phrases: PhraseBuilder, fixes: [Position], truth: RealisticMotion? = nil,
        timing: AnnouncementTiming = AnnouncementTiming(), alerts: GuidanceAlerts,
        usesServerInstructions: Bool = true, durationOf: @escaping @Sendable (SpokenInstruction) -> Double
    ) {
        self.route = route
        self.phrases = phrases
        self.fixes = fixes
        self.truth = truth
        self.timing = timing
        self.alerts = alerts
        self.usesServerInstructions = usesServerInstructions
        self.durationOf = durationOf
    }

    /// One route, signal or speed event, seconds since the first fix.
    public struct EventRecord: Sendable, Equatable {
        public var timeS: Double
        public var event: RouteMatcher.Event
        /// The limit and speed of a `speedAlert`.
        public var speedAlert: SpeedWatch.Alert?
        /// The number of the waypoint of a `waypointReached`, counted from 1 (guidance goes on
        /// with leg `waypoint`, counted from 0).
        public var waypoint: Int?
    }

    /// What happened on the drive.
    public struct Result: Sendable {
        public var prompts: [PromptRecord]
        public var events: [EventRecord]
        public var summary: GuidedDriveSummary
        /// Fixes dropped by the filter, by reason.
        public var rejectedFixes: [FixFilter.Rejection: Int]
    }

    /// Called with each prompt once it has been heard (or cut), as the drive goes.
    public var onHeard: (@Sendable (SimulatedSpeech.HeardPrompt) -> Void)?
    /// Called when a prompt starts to be heard, with its start in seconds of the drive (before
    /// it is known whether something will cut it).
    public var onStart: (@Sendable (SpokenInstruction, Double) -> Void)?
    /// Called with each route or signal event as it happens.
    public var onEvent: (@Sendable (EventRecord) -> Void)?

    /// Drives from the first fix to the last.
    ///
    /// - Throws: `RouteLine.Error` when the route has no geometry to match against.
    nonisolated(nonsending) public func run() async throws -> Result {
        try await run(feed: RecordedFixes(fixes))
    }

    /// Drives with the fixes of `feed`, a second at a time, until it ends.
    ///
    /// - Throws: `RouteLine.Error` when the route has no geometry to match against.
    nonisolated(nonsending) public func run(feed: some FixFeed) async throws -> Result {
        var matcher = try RouteMatcher(route: route)
        var filter = FixFilter()
        let clock = SimulatedClock()
        let heard = Locked<[SimulatedSpeech.HeardPrompt]>([])
        let speech = SimulatedSpeech(
            clock: clock, outputLatency: timing.outputLatency, lengthOf: durationOf,
            onHeard: { [onHeard] prompt in
                heard.withLock { $0.append(prompt) }
                onHeard?(prompt)
            })
        if let onStart {
            speech.willSpeak = { [timing] instruction in
                onStart(instruction, clock.now + timing.outputLatency)
                return .keep
            }
        }
        let controller = VoiceController(
            route: route, synthesizer: speech, phrases: phrases, timing: timing, clock: clock,
            usesServerInstructions: usesServerInstructions, estimate: durationOf, sound: sound)
        await controller.setMode(mode)
        let decided = Locked<[ScheduledPrompt]>([])
        let unsaid = Locked<Set<UUID>>([])
        await controller.setOnEvent { event in
            switch event {
            case .spoke(let prompt):
                decided.withLock { $0.append(prompt) }
            case .suppressed(let prompt, .interrupted):
                unsaid.withLock { _ = $0.insert(prompt.instruction.id) }
                speech.countUnsaid()
            default:
                break
            }
        }
        var spoken: [(time: Double, prompt: ScheduledPrompt)] = []
        var events: [EventRecord] = []
        var track: [GuidedDriveSummary.TrackPoint] = []
        var alerter = AlertScheduler(alerts: alerts, mode: mode)
        var second = 0.0
        while let arrived = await feed.fixes(through: second) {
            clock.set(second)
            speech.advance(to: second)
            var progress: RouteProgress?
            var tickEvents: [RouteMatcher.Event] = []
            var speedAlert: SpeedWatch.Alert?
            var waypoint: Int?
            var hadFix = false
            for fix in arrived {
                guard let clean = filter.accept(fix) else { continue }
                hadFix = true
                let update = matcher.update(clean)
                tickEvents += update.events
                speedAlert = update.speedAlert ?? speedAlert
                waypoint = update.waypoint ?? waypoint
                progress = update.progress
            }
            if !hadFix {
                tickEvents += matcher.noFix(at: second)
                progress = matcher.progress(at: second)
            }
            for event in tickEvents {
                let record = EventRecord(
                    timeS: second, event: event, speedAlert: event == .speedAlert ? speedAlert : nil,
                    waypoint: event == .waypointReached ? waypoint : nil)
                events.append(record)
                onEvent?(record)
            }
            if let instruction = alerter.take(
                tickEvents, speedAlert: speedAlert, waypoint: waypoint, state: matcher.state, at: second)
            {
                await controller.announce(instruction, priority: .high)
            }
            if let progress, matcher.state == .onRoute { await controller.update(progress) }
            track.append(
                GuidedDriveSummary.TrackPoint(
                    time: second, along: truth.map { $0.place(at: second) } ?? matcher.distanceAlong,
                    speed: truth.map { $0.speed(at: second) } ?? matcher.smoothedSpeed))
            for prompt in decided.withLock({ list in
                defer { list = [] }
                return list
            }) {
                spoken.append((second, prompt))
            }
            // A prompt queued behind one still being said is spoken once that one ends (a later tick).
            await speech.waitUntilHandedOver(spoken.count)
            second += 1
        }
        await speech.playOut(spoken.count, cutting: feed.wasStopped)
        await controller.waitUntilIdle()
        let lengths = heard.withLock { $0 }
        let judge = GuidedDriveSummary.Judge(route: route, line: matcher.line, track: track)
        // What was heard, in order: the prompts cut before they began are not (nor is their time).
        let unsaidIDs = unsaid.withLock { $0 }
        let said = spoken.filter { !unsaidIDs.contains($0.prompt.instruction.id) }
        let prompts = said.enumerated().map { index, item in
            judge.record(
                item.prompt, at: item.time + timing.outputLatency,
                heardFor: index < lengths.count ? lengths[index].length : item.prompt.duration)
        }
        return Result(
            prompts: prompts, events: events, summary: judge.summary(prompts),
            rejectedFixes: filter.rejected)
    }
}
