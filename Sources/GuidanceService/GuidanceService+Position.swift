import VoiceGuidance

/// `position`: GPS fixes matched to the route (`PositionMatching`), then queued as progress.
extension GuidanceService {
    /// A client's `position`: matched and queued, unless the daemon reads positions itself.
    nonisolated func position(_ fix: PositionFix) throws(ProtocolError) -> [(String, JSONValue)] {
        if configuration.readsOwnPositions {
            throw ProtocolError(
                .positionsFromGPSD,
                "this daemon reads positions from gpsd (serve --gpsd); send a route, or progress, not positions"
            )
        }
        return try match(fix)
    }

    /// A fix from the daemon's own GPS source (`serve --gpsd`, any thread): matched and queued as
    /// a client's `position` would be; dropped while there is no route to match it on.
    public nonisolated func receive(_ fix: PositionFix) {
        _ = try? match(fix)
    }

    /// Matches a fix and queues the progress it gives (any thread: the poll thread answers it).
    nonisolated func match(_ fix: PositionFix) throws(ProtocolError) -> [(String, JSONValue)] {
        try matching.checkReady()
        let time = clock.stamp(fix.time)
        let outcome = try matching.match(
            Position(
                latitude: fix.latitude, longitude: fix.longitude, time: time, speed: fix.speed,
                course: fix.course,
                horizontalAccuracy: fix.accuracy))
        announce(outcome.events, speedAlert: outcome.speedAlert, waypoint: outcome.waypoint)
        for carried in outcome.gap { try progressQueue.submit(carried) }
        var fields: [(String, JSONValue)] = [
            ("time", .number(ProtocolMessage.rounded(time))), ("state", .string(outcome.state.rawValue)),
        ]
        if let progress = outcome.progress {
            try progressQueue.submit(progress)
            fields += [
                ("leg", .number(Double(progress.legIndex))), ("step", .number(Double(progress.stepIndex))),
                ("distance_remaining", .number(ProtocolMessage.rounded(progress.distanceRemaining))),
            ]
        }
        if outcome.isOutlier { fields.append(("outlier", .bool(true))) }
        if let rejection = outcome.rejection { fields.append(("rejected", .string(rejection.rawValue))) }
        return fields
    }

    /// Without fixes: tells subscribers the signal is lost and carries the progress forward.
    public func tick() {
        let result = matching.tick(at: clock.now)
        announce(result.events)
        if let progress = result.progress { try? progressQueue.submit(progress) }
    }

    /// Sends route-matching events to the subscribers; `speed_alert` with `limit_kmh`,
    /// `speed_kmh`, `posted_limit` and `posted_unit`, `waypoint_reached` with `waypoint` and
    /// `next_leg` (as `drive --json` writes them).
    nonisolated func announce(
        _ events: [RouteMatcher.Event], speedAlert: SpeedWatch.Alert? = nil, waypoint: Int? = nil
    ) {
        for event in events {
            var fields: [(String, JSONValue)] = []
            if event == .waypointReached, let waypoint {
                fields = [("waypoint", .number(Double(waypoint))), ("next_leg", .number(Double(waypoint)))]
            }
            if event == .speedAlert, let speedAlert {
                fields = [
                    ("limit_kmh", .number(ProtocolMessage.rounded(speedAlert.limitKmh))),
                    ("speed_kmh", .number(ProtocolMessage.rounded(speedAlert.speedKmh))),
                ]
                if case .posted(let speed, let unit) = speedAlert.limit {
                    fields += [("posted_limit", .number(speed)), ("posted_unit", .string(unit.rawValue))]
                }
            }
            subscribers.broadcast(ProtocolMessage.event(event.rawValue, fields))
        }
    }

    /// Starts the once-a-second check for a lost signal (once).
    func startTicking() {
        guard ticker == nil else { return }
        ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard let service = self else { return }
                await service.tick()
            }
        }
    }
}
