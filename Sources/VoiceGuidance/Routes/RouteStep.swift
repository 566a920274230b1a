import Foundation

/// One step of a leg: a maneuver at its start, then the road driven up to the next step.
public struct RouteStep: Sendable, Equatable, Codable {
    /// The maneuver at the start of this step.
    public var maneuver: Maneuver
    /// Name of the road driven on this step (may be empty).
    public var name: String
    /// Road reference ("US 101", "A 7"), if any.
    public var ref: String?
    /// Signposted destinations ("US 101 North: Golden Gate Bridge"), if any.
    public var destinations: String?
    /// Name of the rotary entered at this step's maneuver, if any.
    public var rotaryName: String?
    /// Length of this step in meters.
    public var distance: Double
    /// Expected travel time of this step in seconds.
    public var duration: Double
    /// The server's spoken prompts for the maneuver at the END of this step (the next step's).
    public var voiceInstructions: [VoiceInstruction]
    /// `left` or `right`, if the server said.
    public var drivingSide: String?
    /// The road of this step, from its maneuver to the next one, if the server sent it.
    public var geometry: RouteGeometry?
    /// The intermediate waypoint this step arrives at, counted from 1 (the arrive step of the
    /// first leg of a route with several legs); nil for the destination and every other step.
    /// Set by `Route` from the step's place in its legs.
    public var waypoint: Int?

    public init(
        maneuver: Maneuver, name: String = "", ref: String? = nil, destinations: String? = nil,
        rotaryName: String? = nil, distance: Double, duration: Double,
        voiceInstructions: [VoiceInstruction] = [], drivingSide: String? = nil,
        geometry: RouteGeometry? = nil
    ) {
        self.maneuver = maneuver
        self.name = name
        self.ref = ref
        self.destinations = destinations
        self.rotaryName = rotaryName
        self.distance = distance
        self.duration = duration
        self.voiceInstructions = voiceInstructions
        self.drivingSide = drivingSide
        self.geometry = geometry
    }

    enum CodingKeys: String, CodingKey {
        case maneuver, name, ref, destinations, distance, duration, voiceInstructions, geometry
        case rotaryName = "rotary_name"
        case drivingSide = "driving_side"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maneuver = try container.decode(Maneuver.self, forKey: .maneuver)
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
        ref = try container.decodeIfPresent(String.self, forKey: .ref)
        destinations = try container.decodeIfPresent(String.self, forKey: .destinations)
        rotaryName = try container.decodeIfPresent(String.self, forKey: .rotaryName)
        distance = try container.decode(Double.self, forKey: .distance)
        duration = try container.decode(Double.self, forKey: .duration)
        voiceInstructions =
            try container.decodeIfPresent([VoiceInstruction].self, forKey: .voiceInstructions) ?? []
        drivingSide = try container.decodeIfPresent(String.self, forKey: .drivingSide)
        geometry = try container.decodeIfPresent(RouteGeometry.self, forKey: .geometry)
    }

    /// Average speed over this step in m/s (`distance / duration`), or nil when it has no duration.
    public var routedSpeed: Double? {
        duration > 0 && distance > 0 ? distance / duration : nil
    }
}

/// A server prompt from `voiceInstructions`.
public struct VoiceInstruction: Sendable, Equatable, Codable {
    /// Distance in meters REMAINING to the end of the step when the server meant it to be spoken.
    public var distanceAlongGeometry: Double
    /// Plain text.
    public var announcement: String
    /// SSML, if any.
    public var ssmlAnnouncement: String?

    public init(distanceAlongGeometry: Double, announcement: String, ssmlAnnouncement: String? = nil) {
        self.distanceAlongGeometry = distanceAlongGeometry
        self.announcement = announcement
        self.ssmlAnnouncement = ssmlAnnouncement
    }
}
