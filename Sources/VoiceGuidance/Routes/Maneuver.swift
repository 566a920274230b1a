import Foundation

/// What the driver does at the start of a step.
public struct Maneuver: Sendable, Equatable, Codable {
    /// The kind of maneuver (`turn`, `off ramp`, `roundabout`, …).
    public var type: ManeuverType
    /// The direction (`left`, `slight right`, `uturn`, …), if any.
    public var modifier: ManeuverModifier?
    /// The exit to take on a roundabout or rotary (1 is the first), if any.
    public var exit: Int?
    /// Where the maneuver is: longitude, latitude.
    public var location: [Double]
    /// The server's written instruction, if any.
    public var instruction: String?
    /// Heading after the maneuver in degrees (0 north, clockwise), if known.
    public var bearingAfter: Double?
    /// Heading before the maneuver in degrees, if known.
    public var bearingBefore: Double?

    public init(
        type: ManeuverType, modifier: ManeuverModifier? = nil, exit: Int? = nil, location: [Double] = [],
        instruction: String? = nil, bearingAfter: Double? = nil, bearingBefore: Double? = nil
    ) {
        self.type = type
        self.modifier = modifier
        self.exit = exit
        self.location = location
        self.instruction = instruction
        self.bearingAfter = bearingAfter
        self.bearingBefore = bearingBefore
    }

    enum CodingKeys: String, CodingKey {
        case type, modifier, exit, location, instruction
        case bearingAfter = "bearing_after"
        case bearingBefore = "bearing_before"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(ManeuverType.self, forKey: .type)
        modifier = try container.decodeIfPresent(ManeuverModifier.self, forKey: .modifier)
        exit = try container.decodeIfPresent(Double.self, forKey: .exit).map { value in
            guard let whole = Int(exactly: value) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .exit, in: container, debugDescription: "expected a whole number, found \(value)")
            }
            return whole
        }
        location = try container.decodeIfPresent([Double].self, forKey: .location) ?? []
        instruction = try container.decodeIfPresent(String.self, forKey: .instruction)
        bearingAfter = try container.decodeIfPresent(Double.self, forKey: .bearingAfter)
        bearingBefore = try container.decodeIfPresent(Double.self, forKey: .bearingBefore)
    }
}

/// A Directions v5 maneuver type; unknown types are kept as they are (coded as the bare
/// string, by the standard library's `RawRepresentable` coding).
public struct ManeuverType: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    public static let depart: ManeuverType = "depart"
    public static let arrive: ManeuverType = "arrive"
    public static let turn: ManeuverType = "turn"
    public static let `continue`: ManeuverType = "continue"
    public static let newName: ManeuverType = "new name"
    public static let merge: ManeuverType = "merge"
    public static let onRamp: ManeuverType = "on ramp"
    public static let offRamp: ManeuverType = "off ramp"
    public static let fork: ManeuverType = "fork"
    public static let endOfRoad: ManeuverType = "end of road"
    public static let roundabout: ManeuverType = "roundabout"
    public static let rotary: ManeuverType = "rotary"
    public static let roundaboutTurn: ManeuverType = "roundabout turn"
    public static let exitRoundabout: ManeuverType = "exit roundabout"
    public static let exitRotary: ManeuverType = "exit rotary"
    public static let notification: ManeuverType = "notification"
}

/// A Directions v5 maneuver modifier; unknown modifiers are kept as they are.
public struct ManeuverModifier: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    public static let uTurn: ManeuverModifier = "uturn"
    public static let sharpRight: ManeuverModifier = "sharp right"
    public static let right: ManeuverModifier = "right"
    public static let slightRight: ManeuverModifier = "slight right"
    public static let straight: ManeuverModifier = "straight"
    public static let slightLeft: ManeuverModifier = "slight left"
    public static let left: ManeuverModifier = "left"
    public static let sharpLeft: ManeuverModifier = "sharp left"
}
