import Foundation

/// The posted speed limit of one segment of a leg's geometry, from `annotation.maxspeed`:
/// `{"speed": 50, "unit": "km/h"}`, `{"unknown": true}` or `{"none": true}`.
public enum SpeedLimit: Sendable, Equatable, Codable {
    /// A posted limit, in the unit the sign shows.
    case posted(speed: Double, unit: Unit)
    /// The road's limit is not known.
    case unknown
    /// The road has no limit (a German Autobahn).
    case none

    /// The unit of a posted limit.
    public enum Unit: String, Sendable, Equatable, Codable {
        case kilometersPerHour = "km/h"
        case milesPerHour = "mph"
    }

    /// Kilometres per hour in one mile per hour.
    public static let kilometersPerMile = 1.609_344

    /// The limit in km/h; nil when there is none or it is not known.
    public var kilometersPerHour: Double? {
        guard case .posted(let speed, let unit) = self else { return nil }
        return unit == .kilometersPerHour ? speed : speed * Self.kilometersPerMile
    }

    private enum CodingKeys: String, CodingKey {
        case speed, unit, unknown, none
    }

    /// Decodes one entry; anything but the three shapes above is an error at its path.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decodeIfPresent(Bool.self, forKey: .unknown) == true {
            self = .unknown
        } else if try container.decodeIfPresent(Bool.self, forKey: .none) == true {
            self = .none
        } else if container.contains(.speed) {
            let speed = try container.decode(Double.self, forKey: .speed)
            let word = try container.decodeIfPresent(String.self, forKey: .unit) ?? "km/h"
            guard let unit = Unit(rawValue: word) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .unit, in: container,
                    debugDescription: "unit \"\(word.prefix(32))\" is neither km/h nor mph")
            }
            self = .posted(speed: speed, unit: unit)
        } else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: container.codingPath,
                    debugDescription:
                        "expected {\"speed\": N, \"unit\": \"km/h\"|\"mph\"}, {\"unknown\": true} or {\"none\": true}"
                ))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .posted(let speed, let unit):
            try container.encode(speed, forKey: .speed)
            try container.encode(unit, forKey: .unit)
        case .unknown: try container.encode(true, forKey: .unknown)
        case .none: try container.encode(true, forKey: .none)
        }
    }
}
