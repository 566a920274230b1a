import Foundation
public import VoiceGuidance

/// The spoken route, signal and speed alerts, with which are switched on.
public struct GuidanceAlerts: Sendable, Equatable {
    /// The words (from the phrase book's `alerts`).
    public var words: PhraseBook.Alerts
    /// Alerts switched on.
    public var enabled: Set<RouteMatcher.Event>
    /// The units a speed limit is said in.
    public var units: UnitSystem
    /// Off route: said again after these many seconds, then after each doubling, while still off.
    public var offRouteRepeat = 30.0

    /// The words of a speed alert when the phrase book has none.
    public static let englishSpeedLimit = "Speed limit {limit}"
    /// The words of a reached waypoint when the phrase book has none.
    public static let englishWaypointReached = "You have reached waypoint {n}"

    public init(
        words: PhraseBook.Alerts, enabled: Set<RouteMatcher.Event> = Set(RouteMatcher.Event.allCases),
        units: UnitSystem = .metric
    ) {
        self.words = words
        self.enabled = enabled
        self.units = units
    }

    /// The alerts a user can switch off by name (`--no-alert`), and the events each covers.
    public static let switchNames: [(name: String, events: Set<RouteMatcher.Event>)] = [
        ("off-route", [.offRoute, .backOnRoute]), ("gps", [.signalLost, .signalRecovered]),
        ("speed", [.speedAlert]), ("waypoint", [.waypointReached]),
    ]

    /// The events of a list of alert names (`off-route,speed`); nil names the first unknown one.
    public static func events(named list: String) -> Result<Set<RouteMatcher.Event>, UnknownName> {
        var events: Set<RouteMatcher.Event> = []
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let entry = switchNames.first(where: { $0.name == name }) else {
                return .failure(UnknownName(name: String(name.prefix(40))))
            }
            events.formUnion(entry.events)
        }
        return .success(events)
    }

    /// An alert name that is not one of `switchNames`.
    public struct UnknownName: Error, Sendable, Equatable, CustomStringConvertible {
        public var name: String
        public var description: String {
            "unknown alert '\(name)' (alerts: \(GuidanceAlerts.switchNames.map(\.name).joined(separator: ", ")))"
        }
    }

    /// The text of an event's alert (a speed alert needs its limit, a waypoint its number: see
    /// `text(for:)` of an alert and `text(forWaypoint:)`).
    public func text(for event: RouteMatcher.Event) -> String {
        switch event {
        case .offRoute: words.offRoute
        case .backOnRoute: words.backOnRoute
        case .signalLost: words.gpsLost
        case .signalRecovered: words.gpsRecovered
        case .speedAlert:
            (words.speedLimit ?? Self.englishSpeedLimit).replacingOccurrences(of: " {limit}", with: "")
        case .waypointReached:
            (words.waypointReached ?? Self.englishWaypointReached).replacingOccurrences(of: " {n}", with: "")
        }
    }

    /// The text of a reached waypoint, its number counted from 1 ("You have reached waypoint 2").
    public func text(forWaypoint number: Int) -> String {
        (words.waypointReached ?? Self.englishWaypointReached).replacingOccurrences(
            of: "{n}", with: String(number))
    }

    /// The text of a speed alert: the limit in the voice's units ("Speed limit 50").
    public func text(for alert: SpeedWatch.Alert) -> String {
        (words.speedLimit ?? Self.englishSpeedLimit).replacingOccurrences(
            of: "{limit}", with: String(spokenLimit(alert.limit)))
    }

    /// The number of a limit in the voice's units: as posted when the units agree, else
    /// converted and rounded to a whole number.
    public func spokenLimit(_ limit: SpeedLimit) -> Int {
        guard case .posted(let speed, let unit) = limit else { return 0 }
        let value: Double =
            switch (unit, units) {
            case (.kilometersPerHour, .metric), (.milesPerHour, .imperial): speed
            case (.milesPerHour, .metric): speed * SpeedLimit.kilometersPerMile
            case (.kilometersPerHour, .imperial): speed / SpeedLimit.kilometersPerMile
            }
        let rounded = value.rounded()
        return rounded.isFinite && abs(rounded) < 100_000 ? Int(rounded) : 0
    }
}

/// Decides which alert to say now: each event once when it happens, off route again with a
/// growing interval while the car stays off.
///
/// A reached waypoint is said only when turn prompts are not (`VoiceController.Mode.alertsOnly`):
/// otherwise the leg's arrival prompt has just said it ("You have arrived at your first
/// destination"), and a second sentence would only talk over the driver's stop.
struct AlertScheduler {
    let alerts: GuidanceAlerts
    let mode: VoiceController.Mode
    private var offSince: Double?
    private var nextRepeat = 0.0
    private var interval = 0.0

    init(alerts: GuidanceAlerts, mode: VoiceController.Mode = .all) {
        self.alerts = alerts
        self.mode = mode
    }

    mutating func take(
        _ events: [RouteMatcher.Event], speedAlert: SpeedWatch.Alert? = nil, waypoint: Int? = nil,
        state: RouteMatcher.State, at time: Double
    ) -> SpokenInstruction? {
        var said: RouteMatcher.Event?
        for event in events where alerts.enabled.contains(event) {
            switch event {
            case .speedAlert where speedAlert == nil: continue
            case .waypointReached where waypoint == nil || mode != .alertsOnly: continue
            default: said = event
            }
        }
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
        if said == .speedAlert, let speedAlert {
            return SpokenInstruction(text: alerts.text(for: speedAlert))
        }
        if said == .waypointReached, let waypoint {
            return SpokenInstruction(text: alerts.text(forWaypoint: waypoint))
        }
        return said.map { SpokenInstruction(text: alerts.text(for: $0)) }
    }
}
