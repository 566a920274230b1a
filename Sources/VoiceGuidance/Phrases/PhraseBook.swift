public import Foundation

/// The words of one language for building instructions: maneuvers, templates, distance units.
///
/// Phrase books live as JSON in `Voices/phrases/<language>.json`. Every template is written in
/// lower case at its start; the builder capitalizes the first letter of each sentence. A book is
/// checked whenever it is decoded (by any `Decoder`): every required maneuver phrase, at least one
/// ordinal and the eight compass directions must be there, so `PhraseBuilder` never meets a gap.
public struct PhraseBook: Sendable, Equatable, Codable {
    /// Language code (`en`).
    public var language: String
    /// The decimal separator of the language (`.` or `,`).
    public var decimalSeparator: String
    /// How distances are said.
    public var distances: DistanceWords
    /// Ordinal words for exits, first to tenth (`first`, `second`, …).
    public var ordinals: [String]
    /// The eight compass directions, from north clockwise.
    public var directions: [String]
    /// Sentence templates.
    public var templates: Templates
    /// Maneuver phrases by `type.modifier` key (`turn.left`, `off ramp`, `roundabout`, `arrive.left`).
    public var maneuvers: [String: String]
    /// Route and signal alerts, if the book has them.
    public var alerts: Alerts?

    /// Route and signal alerts.
    public struct Alerts: Sendable, Equatable, Codable {
        /// The car left the route.
        public var offRoute: String
        /// The car is back on the route.
        public var backOnRoute: String
        /// No GPS fix for a while.
        public var gpsLost: String
        /// Fixes again.
        public var gpsRecovered: String
        /// Over the speed limit; `{limit}` stands for the limit's number in the voice's units
        /// ("speed limit {limit}"). Optional: a book without it gets the English words.
        public var speedLimit: String?
        /// An intermediate waypoint reached; `{n}` stands for its number, counted from 1
        /// ("You have reached waypoint {n}"). Optional: a book without it gets the English words.
        public var waypointReached: String?

        public init(
            offRoute: String, backOnRoute: String, gpsLost: String, gpsRecovered: String,
            speedLimit: String? = nil, waypointReached: String? = nil
        ) {
            self.offRoute = offRoute
            self.backOnRoute = backOnRoute
            self.gpsLost = gpsLost
            self.gpsRecovered = gpsRecovered
            self.speedLimit = speedLimit
            self.waypointReached = waypointReached
        }
    }

    /// How distances are said; `{n}` stands for the number.
    public struct DistanceWords: Sendable, Equatable, Codable {
        public var meters: String
        public var kilometer: String
        public var kilometers: String
        public var feet: String
        public var quarterMile: String
        public var halfMile: String
        public var threeQuarterMile: String
        public var mile: String
        public var miles: String
    }

    /// Templates for whole prompts; placeholders are in braces.
    public struct Templates: Sendable, Equatable, Codable {
        /// `{distance}`, `{instruction}`: "in 300 meters, turn left".
        public var `in`: String
        /// `{first}`, `{second}`: "turn left, then turn right".
        public var then: String
        /// `{instruction}`, `{road}`.
        public var onto: String
        /// `{instruction}`, `{destination}`.
        public var toward: String
        /// `{direction}`.
        public var depart: String
        /// `{direction}`, `{road}`.
        public var departOn: String
        /// `{distance}`.
        public var continueFor: String
        /// `{road}`, `{distance}`.
        public var continueOnFor: String
    }

    /// The keys every phrase book must define.
    public static let requiredManeuverKeys = [
        "turn.left", "turn.right", "turn.slight left", "turn.slight right", "turn.sharp left",
        "turn.sharp right", "turn.straight", "turn.uturn", "continue", "merge", "on ramp", "off ramp",
        "fork", "fork.left", "fork.right", "end of road.left", "end of road.right", "roundabout",
        "roundabout.noExit", "rotary", "rotary.named", "arrive", "arrive.left", "arrive.right",
        "arrive.approach",
    ]

    enum CodingKeys: String, CodingKey {
        case language, decimalSeparator, distances, ordinals, directions, templates, maneuvers, alerts
    }

    /// Decodes a book and checks it (see the type's description).
    ///
    /// - Throws: `DecodingError` naming the field that is wrong or missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        language = try container.decode(String.self, forKey: .language)
        decimalSeparator = try container.decode(String.self, forKey: .decimalSeparator)
        distances = try container.decode(DistanceWords.self, forKey: .distances)
        ordinals = try container.decode([String].self, forKey: .ordinals)
        directions = try container.decode([String].self, forKey: .directions)
        templates = try container.decode(Templates.self, forKey: .templates)
        maneuvers = try container.decode([String: String].self, forKey: .maneuvers)
        alerts = try container.decodeIfPresent(Alerts.self, forKey: .alerts)
        for key in Self.requiredManeuverKeys where maneuvers[key] == nil {
            throw DecodingError.keyNotFound(
                PhraseKey(stringValue: key),
                DecodingError.Context(
                    codingPath: container.codingPath + [CodingKeys.maneuvers],
                    debugDescription: "required phrase is missing"))
        }
        if ordinals.isEmpty {
            throw DecodingError.dataCorruptedError(
                forKey: .ordinals, in: container, debugDescription: "at least one ordinal is needed")
        }
        if directions.count != 8 {
            throw DecodingError.dataCorruptedError(
                forKey: .directions, in: container,
                debugDescription: "expected 8 compass directions, found \(directions.count)")
        }
    }

    /// A maneuver key, for errors that name it.
    private struct PhraseKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads `<directory>/<language>.json`.
    ///
    /// - Parameters:
    ///   - directory: the `Voices/phrases` folder.
    ///   - language: a language code (`en`); a locale (`en-US`) is cut to its language.
    /// - Throws: `PhraseBookError` naming the file and the field that is wrong or missing.
    public static func load(directory: URL, language: String) throws -> PhraseBook {
        let code = String(language.prefix { $0 != "-" && $0 != "_" }).lowercased()
        guard !code.isEmpty, code.allSatisfy({ $0.isLetter }) else {
            throw PhraseBookError(message: "'\(language)' is not a language code")
        }
        let url = directory.appendingPathComponent("\(code).json")
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw PhraseBookError(message: "no phrase book for '\(code)' at \(url.path)")
        }
        return try decode(data, name: url.path)
    }

    /// Decodes and checks a phrase book.
    ///
    /// - Throws: `PhraseBookError` naming the field that is wrong or missing.
    public static func decode(_ data: Data, name: String = "phrase book") throws -> PhraseBook {
        let book: PhraseBook
        do {
            book = try JSONDecoder().decode(PhraseBook.self, from: data)
        } catch let error as DecodingError {
            throw PhraseBookError(message: "\(name): \(describe(error))")
        } catch {
            throw PhraseBookError(message: "\(name): \(error.localizedDescription)")
        }
        return book
    }
}

/// A phrase book that cannot be used.
public struct PhraseBookError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
