import Foundation
import VoiceGuidance

/// The commands of the protocol, one function each.
extension GuidanceService {
    func loadRoute(_ request: RouteRequest) async throws(ProtocolError) -> [(String, JSONValue)] {
        let newRoute = try Self.decodeRoute(request.source)
        var changesVoice = false
        if let id = request.voice {
            let profile = try library.profile(id: id)
            changesVoice = profile != voice
            voice = profile
            setVoice(profile)
        }
        if let requested = request.units, requested != units {
            units = requested
            changesVoice = true
        }
        let isReroute = route != nil && controller != nil && !changesVoice
        if isReroute, let controller {
            await controller.reroute(to: newRoute)
            routeChanged(newRoute)
        } else {
            clock.reset()
            speech.reset()
            try await install(route: newRoute)
        }
        route = newRoute
        return [
            ("legs", .number(Double(newRoute.legs.count))),
            ("steps", .number(Double(newRoute.legs.reduce(0) { $0 + $1.steps.count }))),
            ("distance", .number(ProtocolMessage.rounded(newRoute.distance))), ("voice", .string(voice.id)),
            ("units", .string((units ?? voice.units).rawValue)), ("rerouted", .bool(isReroute)),
        ]
    }

    static func decodeRoute(_ source: RouteRequest.Source) throws(ProtocolError) -> Route {
        let data: Data
        switch source {
        case .json(let json): data = json
        case .path(let path):
            // A regular file only, at most the route limit: a client naming /dev/zero or a FIFO
            // must not fill the daemon's memory or block it.
            do {
                data = try BoundedFile.read(
                    path, limit: RouteLimits().maximumFileBytes, regularFilesOnly: true)
            } catch {
                throw ProtocolError(error.isMissing ? .notFound : .invalidValue, "the route file: \(error)")
            }
        }
        do {
            let route = try Route.decode(from: data)
            guard !route.legs.isEmpty else {
                throw RouteDecodingError(path: "legs", message: "the route has no leg")
            }
            return route
        } catch {
            throw ProtocolError(.invalidRoute, "the route does not decode: \(error)")
        }
    }

    /// Queues a progress update (any thread: the socket's poll thread answers it at once).
    nonisolated func progress(_ report: ProgressReport) throws(ProtocolError) -> [(String, JSONValue)] {
        let probe = RouteProgress(
            time: 0, legIndex: report.leg, stepIndex: report.step, distanceRemaining: report.distanceRemaining
        )
        try progressQueue.validate(probe)
        let time = clock.stamp(report.time)
        try progressQueue.submit(
            RouteProgress(
                time: time, legIndex: report.leg, stepIndex: report.step,
                distanceRemaining: report.distanceRemaining,
                speed: report.speed, horizontalAccuracy: report.accuracy))
        return [("time", .number(ProtocolMessage.rounded(time)))]
    }

    func control(_ request: GuidanceRequest) async throws(ProtocolError) -> [(String, JSONValue)] {
        let controller = try await activeController()
        switch request {
        case .mute:
            isMuted = true
            await controller.mute()
            return [("muted", .bool(true))]
        case .unmute:
            isMuted = false
            await controller.unmute()
            return [("muted", .bool(false))]
        case .mode(let mode):
            self.mode = mode
            await controller.setMode(mode)
            return [("mode", .string(Self.word(mode)))]
        case .volume(let db):
            synthesizer.volumeDB = db
            return [("db", .number(synthesizer.volumeDB))]
        default:
            synthesizer.stopSpeaking()
            return [("stopped", .bool(true))]
        }
    }

    func repeatInstruction() async throws(ProtocolError) -> [(String, JSONValue)] {
        guard route != nil else { throw ProtocolError(.noRoute, "repeat needs a route; send route first") }
        await settle()
        let controller = try await activeController()
        let before = speech.lastSpoken
        await controller.repeatInstruction()
        let after = speech.lastSpoken
        guard let after, after != before else { return [("said", .bool(false))] }
        return [("said", .bool(true)), ("text", .string(after.instruction.text))]
    }

    func announce(_ request: AnnouncementRequest) async throws(ProtocolError) -> [(String, JSONValue)] {
        let controller = try await activeController()
        if request.priority == .notification, synthesizer.isSpeaking || speech.speaking(at: clock.now) != nil
        {
            return [("outcome", .string("dropped_busy"))]
        }
        let instruction = SpokenInstruction(text: request.text, ssml: request.ssml)
        await controller.announce(instruction, priority: request.priority == .important ? .high : .normal)
        return [("outcome", .string(speech.outcome(of: instruction.id) ?? "queued"))]
    }

    func switchVoice(_ id: String) async throws(ProtocolError) -> [(String, JSONValue)] {
        let profile = try library.profile(id: id)
        voice = profile
        setVoice(profile)
        try await rebuild()
        return [("voice", .string(profile.id)), ("locale", .string(profile.locale))]
    }

    /// Reads the voices and phrase books again (SIGHUP) and rebuilds the controller with them.
    public func reload() async throws(ProtocolError) {
        library = try library.reloaded()
        voice = try library.profile(id: voice.id)
        setVoice(voice)
        try await rebuild()
        subscribers.broadcast(
            ProtocolMessage.event("reloaded", [("voices", .number(Double(library.catalog.profiles.count)))]))
    }

    /// A new controller on the current route with the current voice (mute and mode kept).
    private func rebuild() async throws(ProtocolError) {
        guard let route else {
            controller = nil
            return
        }
        try await install(route: route)
    }

    func status() async -> [(String, JSONValue)] {
        await settle()
        var fields: [(String, JSONValue)] = [
            ("route", .bool(route != nil)), ("muted", .bool(isMuted)), ("mode", .string(Self.word(mode))),
            ("voice", .string(voice.id)), ("volume_db", .number(synthesizer.volumeDB)),
            ("subscribers", .number(Double(subscribers.count))),
            ("skipped_progress", .number(Double(progressQueue.skipped))),
        ]
        if let controller, route != nil, let next = await controller.nextManeuver {
            fields += [("leg", .number(Double(next.legIndex))), ("step", .number(Double(next.stepIndex)))]
        }
        if let applied = progressQueue.applied {
            fields.append(
                ("distance_to_maneuver", .number(ProtocolMessage.rounded(applied.distanceRemaining))))
        }
        let speaking = speech.speaking(at: clock.now)
        fields.append(("speaking", speaking.map { .string($0.instruction.text) } ?? .null))
        return fields
    }

    static func word(_ mode: VoiceController.Mode) -> String { mode == .alertsOnly ? "alerts_only" : "all" }
}
