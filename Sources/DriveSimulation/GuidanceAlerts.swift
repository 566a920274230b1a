public import VoiceGuidance

/// The spoken route and signal alerts, with which are switched on.
public struct GuidanceAlerts: Sendable, Equatable {
    /// The words (from the phrase book's `alerts`).
    public var words: PhraseBook.Alerts
    /// Alerts switched on.
    public var enabled: Set<RouteMatcher.Event>
    /// Off route: said again after these many seconds, then after each doubling, while still off.
    public var offRouteRepeat = 30.0

    public init(words: PhraseBook.Alerts, enabled: Set<RouteMatcher.Event> = Set(RouteMatcher.Event.allCases))
    {
        self.words = words
        self.enabled = enabled
    }

    /// The text of an event's alert.
    public func text(for event: RouteMatcher.Event) -> String {
        switch event {
        case .offRoute: words.offRoute
        case .backOnRoute: words.backOnRoute
        case .signalLost: words.gpsLost
        case .signalRecovered: words.gpsRecovered
        }
    }
}

/// Decides which alert to say now: each event once when it happens, off route again with a
/// growing interval while the car stays off.
struct AlertScheduler {
    let alerts: GuidanceAlerts
    private var offSince: Double?
    private var nextRepeat = 0.0
    private var interval = 0.0

    init(alerts: GuidanceAlerts) { self.alerts = alerts }

    mutating func take(_ events: [RouteMatcher.Event], state: RouteMatcher.State, at time: Double)
        -> SpokenInstruction?
    {
        var said: RouteMatcher.Event?
        for event in events where alerts.enabled.contains(event) { said = event }
        if events.contains(.offRoute) {
            offSince = time
            interval = alerts.offRouteRepeat
            nextRepeat = time + interval
        }
        if state != .offRoute { offSince = nil }
        if said == nil, offSince != nil, time >= nextRepeat, alerts.enabled.contains(.offRoute) {
            said = .offRoute
            interval *= 2
            nextRepeat = time + interval
        }
        return said.map { SpokenInstruction(text: alerts.text(for: $0)) }
    }
}
