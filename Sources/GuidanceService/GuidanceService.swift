public import Foundation
public import VoiceGuidance

/// The daemon's brain: takes protocol requests and runs them on a `VoiceController` and its
/// synthesizer. Socket-free: the socket server hands it lines, tests call it directly.
///
/// Progress updates are queued and applied in order by one task, so a reply never waits for a
/// prompt to be prepared; past `ProtocolLimits.maxQueuedProgress` waiting updates, the oldest
/// are skipped (and counted), so a flood of fixes never delays the newest one.
public actor GuidanceService {
    /// The settings of a service.
    public struct Configuration: Sendable {
        public var limits: ProtocolLimits
        /// The program version `hello` reports.
        public var programVersion: String
        /// Use the route's `voiceInstructions` wording where it has some.
        public var usesServerInstructions: Bool
        /// The timing model: a real car brakes before a maneuver (`expectsBraking`), as in
        /// `drive --trace`.
        public var timing: AnnouncementTiming
        /// True when the daemon reads positions itself (`serve --gpsd`, through `receive`):
        /// clients' `position` requests are then refused (`positions_from_gpsd`).
        public var readsOwnPositions: Bool
        /// Which prompts get a chime; nil: what the voice profile says (`serve --chime`). Prompts
        /// also get louder with the speed in the progress, along the voice's curve.
        public var chimes: PromptChimes?

        public init(
            limits: ProtocolLimits = ProtocolLimits(), programVersion: String,
            usesServerInstructions: Bool = true, timing: AnnouncementTiming = Configuration.realDriving,
            readsOwnPositions: Bool = false
        ) {
            self.limits = limits
            self.programVersion = programVersion
            self.usesServerInstructions = usesServerInstructions
            self.timing = timing
            self.readsOwnPositions = readsOwnPositions
        }

        /// The timing model for a real car: the scheduler expects braking before maneuvers.
        public static var realDriving: AnnouncementTiming {
            var timing = AnnouncementTiming()
            timing.expectsBraking = true
            return timing
        }
    }

    let configuration: Configuration
    let synthesizer: any SpeechSynthesizing
    let setVoice: @Sendable (VoiceProfile) -> Void
    private let decoder = RequestDecoder()
    let speech = SpeechTracker()
    /// The guidance time (follows the fixes' own times).
    public let clock: FollowingClock
    /// The connections that asked for events.
    public let subscribers = SubscriberList()
    var library: VoiceLibrary
    var voice: VoiceProfile
    var units: UnitSystem?
    var route: Route?
    var controller: VoiceController?
    var mode: VoiceController.Mode = .all
    var isMuted = false
    /// Progress on its way to the controller (taken on any thread, see `quickReply`).
    nonisolated let progressQueue: ProgressQueue
    /// GPS fixes matched to the route (any thread).
    nonisolated let matching = PositionMatching()
    /// The once-a-second check for a lost GPS signal.
    var ticker: Task<Void, Never>?

    /// Makes a service.
    ///
    /// - Parameters:
    ///   - synthesizer: speaks the prompts.
    ///   - library: the voices and phrase books.
    ///   - voice: the voice to start with.
    ///   - units: distances in these units (the voice's own when nil).
    ///   - clock: the guidance time.
    ///   - setVoice: makes the synthesizer render in a voice.
    public init(
        synthesizer: any SpeechSynthesizing, library: VoiceLibrary, voice: VoiceProfile,
        units: UnitSystem? = nil,
        configuration: Configuration, clock: FollowingClock = FollowingClock(),
        setVoice: @escaping @Sendable (VoiceProfile) -> Void
    ) {
        self.synthesizer = synthesizer
        self.library = library
        self.voice = voice
        self.units = units
        self.configuration = configuration
        self.clock = clock
        self.setVoice = setVoice
        let pump = PumpStarter()
        progressQueue = ProgressQueue(limit: configuration.limits.maxQueuedProgress) { pump.start() }
        pump.service = self
    }

    // MARK: Lines

    /// Answers a line at once, on the caller's thread, when it is a request that needs no
    /// waiting (`progress`, `position`); nil for every other line (send it to `reply(to:from:)`).
    public nonisolated func quickReply(to line: Data) -> Data? {
        let decoded = RequestDecoder().decode(line)
        do {
            switch decoded.result {
            case .success(.progress(let report)):
                return ProtocolMessage.reply(decoded.id, try progress(report))
            case .success(.position(let fix)): return ProtocolMessage.reply(decoded.id, try position(fix))
            default: return nil
            }
        } catch {
            return ProtocolMessage.errorReply(decoded.id, error)
        }
    }

    /// Runs one request line and returns its reply line (with the newline).
    public func reply(to line: Data, from client: (any EventReceiver)? = nil) async -> Data {
        let decoded = decoder.decode(line)
        switch decoded.result {
        case .failure(let error):
            return ProtocolMessage.errorReply(decoded.id, error)
        case .success(let request):
            do {
                return ProtocolMessage.reply(decoded.id, try await handle(request, from: client))
            } catch {
                return ProtocolMessage.errorReply(decoded.id, error)
            }
        }
    }

    /// Runs one request; returns the fields of its reply.
    public func handle(
        _ request: GuidanceRequest, from client: (any EventReceiver)? = nil
    ) async throws(ProtocolError) -> [(String, JSONValue)] {
        switch request {
        case .hello:
            return [
                ("protocol", .number(Double(ProtocolLimits.version))), ("program", .string("voiceguide")),
                ("version", .string(configuration.programVersion)),
            ]
        case .route(let request): return try await loadRoute(request)
        case .position(let fix): return try position(fix)
        case .progress(let report): return try progress(report)
        case .mute, .unmute, .mode, .stop, .volume: return try await control(request)
        case .repeatInstruction: return try await repeatInstruction()
        case .announce(let request): return try await announce(request)
        case .voice(let id): return try await switchVoice(id)
        case .status: return await status()
        case .subscribe:
            guard let client else { throw ProtocolError(.failed, "this connection cannot receive events") }
            subscribers.add(client)
            return [("subscribed", .bool(true))]
        }
    }

    /// Stops sending events to a connection (it closed).
    public func disconnected(_ client: any EventReceiver) { subscribers.remove(client) }

    // MARK: Controller

    /// The controller, made (on an empty route, for app prompts) when there is none yet.
    func activeController() async throws(ProtocolError) -> VoiceController {
        if let controller { return controller }
        return try await install(route: route ?? Route(legs: []))
    }

    /// Replaces the controller by a new one on `route`, keeping mute and mode.
    @discardableResult
    func install(route: Route) async throws(ProtocolError) -> VoiceController {
        let phrases = try library.phrases(for: voice, units: units)
        let controller = VoiceController(
            route: route, synthesizer: synthesizer, phrases: phrases, timing: configuration.timing,
            clock: clock,
            usesServerInstructions: configuration.usesServerInstructions,
            sound: PromptSound(voice: voice, chimes: configuration.chimes))
        let subscribers = self.subscribers
        let speech = self.speech
        await controller.setOnEvent { event in
            speech.note(event)
            subscribers.broadcast(ProtocolMessage.event(event))
        }
        await controller.setMode(mode)
        if isMuted { await controller.mute() }
        self.controller = controller
        routeChanged(route.legs.isEmpty ? nil : route)
        return controller
    }

    // MARK: Progress

    /// Tells the progress queue and the position matching about a new route (or none).
    func routeChanged(_ route: Route?) {
        progressQueue.setRoute(route)
        matching.setRoute(route)
        if route != nil { startTicking() }
    }

    /// Applies the queued progress updates in order until none waits.
    func pump() async {
        while let next = progressQueue.next() {
            await controller?.update(next)
            progressQueue.didApply(next)
        }
    }

    /// Returns when every progress update queued before the call has been applied (or skipped);
    /// later ones, even a steady flood, are not waited for.
    public func settle() async { await progressQueue.settle() }

    /// Returns when every queued update has been applied and everything decided has been said.
    public func waitUntilIdle() async {
        await settle()
        await controller?.waitUntilIdle()
    }

    /// Ends what is being said with a short fade and waits (at most `timeout` seconds) for it.
    public func shutDown(timeout: Double = 1) async {
        progressQueue.clear()
        synthesizer.interruptSpeaking()
        guard let controller else { return }
        await Deadline.wait(seconds: timeout) { await controller.waitUntilIdle() }
    }
}

/// Starts the service's pump task; set up before the service can hand it out.
private final class PumpStarter: @unchecked Sendable {
    /// Written once in the service's initializer, before any update can be queued.
    weak var service: GuidanceService?

    func start() {
        guard let service else { return }
        Task { await service.pump() }
    }
}
