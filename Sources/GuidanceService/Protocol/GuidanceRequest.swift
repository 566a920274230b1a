public import Foundation
public import VoiceGuidance

/// One request of the guidance protocol, decoded and checked (docs/protocol.md).
public enum GuidanceRequest: Sendable, Equatable {
    case hello
    case route(RouteRequest)
    case position(PositionFix)
    case progress(ProgressReport)
    case mute
    case unmute
    case mode(VoiceController.Mode)
    case repeatInstruction
    case announce(AnnouncementRequest)
    case stop
    case volume(db: Double)
    case voice(id: String)
    case status
    case subscribe

    /// The command names, as `cmd` spells them.
    public static let commandNames = [
        "hello", "route", "position", "progress", "mute", "unmute", "mode", "repeat", "announce", "stop",
        "volume", "voice", "status", "subscribe",
    ]
}

/// `route`: a Directions v5 route or response, given inline or as a file.
public struct RouteRequest: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// The JSON text of the route or response.
        case json(Data)
        /// A file the daemon reads.
        case path(String)
    }
    public var source: Source
    /// A voice profile to switch to with the route.
    public var voice: String?
    /// Units to speak distances in.
    public var units: UnitSystem?

    public init(source: Source, voice: String? = nil, units: UnitSystem? = nil) {
        self.source = source
        self.voice = voice
        self.units = units
    }
}

/// `position`: a GPS fix, matched to the route by the daemon.
public struct PositionFix: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    /// Seconds on the client's clock (monotonic); the daemon's clock when absent.
    public var time: Double?
    /// Meters per second.
    public var speed: Double?
    /// Degrees clockwise from north.
    public var course: Double?
    /// Horizontal accuracy in meters.
    public var accuracy: Double?

    public init(
        latitude: Double, longitude: Double, time: Double? = nil, speed: Double? = nil, course: Double? = nil,
        accuracy: Double? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.speed = speed
        self.course = course
        self.accuracy = accuracy
    }
}

/// `progress`: where the vehicle is on the route, for apps that match positions themselves.
public struct ProgressReport: Sendable, Equatable {
    public var leg: Int
    public var step: Int
    public var distanceRemaining: Double
    public var speed: Double?
    public var time: Double?
    public var accuracy: Double?

    public init(
        leg: Int, step: Int, distanceRemaining: Double, speed: Double? = nil, time: Double? = nil,
        accuracy: Double? = nil
    ) {
        self.leg = leg
        self.step = step
        self.distanceRemaining = distanceRemaining
        self.speed = speed
        self.time = time
        self.accuracy = accuracy
    }
}

/// speech-dispatcher's priorities, as `announce` takes them.
public enum SpeechPriority: String, Sendable, Equatable, CaseIterable {
    /// Cuts what is being said (but a final maneuver prompt), said at once.
    case important
    /// Queued: said when nothing else is.
    case message
    /// Said only if nothing is being said; otherwise dropped.
    case notification
}

/// `announce`: an app's own prompt.
public struct AnnouncementRequest: Sendable, Equatable {
    public var text: String
    public var ssml: String?
    public var priority: SpeechPriority

    public init(text: String, ssml: String? = nil, priority: SpeechPriority = .message) {
        self.text = text
        self.ssml = ssml
        self.priority = priority
    }
}

/// The `id` of a request, echoed in its reply: a string, a number or null.
public enum RequestID: Sendable, Equatable {
    case null
    case number(Double)
    case string(String)

    /// The id as a JSON value.
    public var json: JSONValue {
        switch self {
        case .null: .null
        case .number(let value): .number(value)
        case .string(let value): .string(value)
        }
    }
}
