public import Foundation

/// A route from a Directions API v5 response: legs of steps, each with its maneuver and prompts.
public struct Route: Sendable, Equatable, Codable {
    /// The legs, one per pair of consecutive waypoints.
    public var legs: [RouteLeg]
    /// Length in meters.
    public var distance: Double
    /// Expected travel time in seconds.
    public var duration: Double
    /// Locale of the server's voice instructions (`voiceLocale`), if any.
    public var voiceLocale: String?
    /// The whole route's shape (often simplified by the server), if it was sent.
    public var geometry: RouteGeometry?
    /// The options the route was requested with, as far as they matter here.
    public var routeOptions: RouteOptions?

    public init(
        legs: [RouteLeg], distance: Double? = nil, duration: Double? = nil, voiceLocale: String? = nil,
        geometry: RouteGeometry? = nil, routeOptions: RouteOptions? = nil
    ) {
        self.legs = Self.markingWaypoints(legs)
        self.distance = distance ?? legs.reduce(0) { $0 + $1.distance }
        self.duration = duration ?? legs.reduce(0) { $0 + $1.duration }
        self.voiceLocale = voiceLocale
        self.geometry = geometry
        self.routeOptions = routeOptions
    }

    enum CodingKeys: String, CodingKey {
        case legs, distance, duration, voiceLocale, geometry, routeOptions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        legs = Self.markingWaypoints(try container.decode([RouteLeg].self, forKey: .legs))
        distance = try container.decode(Double.self, forKey: .distance)
        duration = try container.decode(Double.self, forKey: .duration)
        voiceLocale = try container.decodeIfPresent(String.self, forKey: .voiceLocale)
        geometry = try container.decodeIfPresent(RouteGeometry.self, forKey: .geometry)
        routeOptions = try container.decodeIfPresent(RouteOptions.self, forKey: .routeOptions)
    }

    /// The legs with the arrive step of each leg but the last marked as its waypoint (1, 2, …).
    private static func markingWaypoints(_ legs: [RouteLeg]) -> [RouteLeg] {
        var legs = legs
        for legIndex in legs.indices {
            for stepIndex in legs[legIndex].steps.indices {
                let isWaypoint =
                    legIndex < legs.count - 1 && stepIndex == legs[legIndex].steps.count - 1
                    && legs[legIndex].steps[stepIndex].maneuver.type == .arrive
                legs[legIndex].steps[stepIndex].waypoint = isWaypoint ? legIndex + 1 : nil
            }
        }
        return legs
    }

    /// The first route of a Directions v5 response, or the route itself when `data` is one route.
    ///
    /// - Throws: `RouteDecodingError` naming the path to the field that is wrong.
    public static func decode(from data: Data) throws -> Route {
        let all = try routes(from: data)
        guard let first = all.first else {
            throw RouteDecodingError(path: "routes", message: "the response holds no route")
        }
        return first
    }

    /// Every route of a Directions v5 response (`{"routes": […]}`), or the one route `data` is.
    ///
    /// - Throws: `RouteDecodingError` naming the line and column of a syntax error, or the path
    ///   to the field that is wrong.
    public static func routes(from data: Data) throws -> [Route] {
        if let syntax = JSONSyntax.firstError(in: data) {
            throw RouteDecodingError(
                path:
                    "line \(syntax.location.line), column \(syntax.location.column) (byte \(syntax.offset))",
                message: syntax.message)
        }
        let document: RouteDocument
        do {
            document = try JSONDecoder().decode(RouteDocument.self, from: data)
        } catch let error as DecodingError {
            throw RouteDecodingError(decoding: error)
        } catch let error as RouteDecodingError {
            throw error
        } catch {
            throw RouteDecodingError(path: "(top level)", message: error.localizedDescription)
        }
        var routes = document.routes
        for index in routes.indices {
            let path = document.isResponse ? "routes[\(index)]" : ""
            try routes[index].validate(path: path)
            try routes[index].resolveGeometry(path: path)
        }
        return routes
    }

    /// This route without any server `voiceInstructions` (prompts are then built from maneuvers).
    public func strippingVoiceInstructions() -> Route {
        var copy = self
        for legIndex in copy.legs.indices {
            for stepIndex in copy.legs[legIndex].steps.indices {
                copy.legs[legIndex].steps[stepIndex].voiceInstructions = []
            }
        }
        return copy
    }

    /// True when at least one step carries server voice instructions.
    public var hasVoiceInstructions: Bool {
        legs.contains { $0.steps.contains { !$0.voiceInstructions.isEmpty } }
    }

    /// Checks what the decoder cannot: finite numbers, none negative and none past `limits`
    /// (no road is longer than the Earth is round), non-empty legs.
    ///
    /// - Parameters:
    ///   - path: where this route sits in the document (`routes[0]`, or empty).
    ///   - limits: the largest distance, duration, speed and exit number a route may hold.
    /// - Throws: `RouteDecodingError` naming the path to the first wrong field.
    public func validate(path: String = "", limits: RouteLimits = RouteLimits()) throws {
        func join(_ field: String) -> String { path.isEmpty ? field : "\(path).\(field)" }
        let check = RouteValueCheck(limits: limits)
        try check.distance(distance, join("distance"))
        try check.duration(duration, join("duration"))
        if legs.isEmpty {
            throw RouteDecodingError(path: join("legs"), message: "a route needs at least one leg")
        }
        var routeLength = 0.0
        for (legIndex, leg) in legs.enumerated() {
            let legPath = join("legs[\(legIndex)]")
            try check.distance(leg.distance, "\(legPath).distance")
            try check.duration(leg.duration, "\(legPath).duration")
            if leg.steps.isEmpty {
                throw RouteDecodingError(path: "\(legPath).steps", message: "a leg needs at least one step")
            }
            for (stepIndex, step) in leg.steps.enumerated() {
                try check.step(step, "\(legPath).steps[\(stepIndex)]")
                routeLength += step.distance
            }
            if let maxSpeeds = leg.maxSpeeds {
                try check.speedLimits(maxSpeeds, "\(legPath).annotation.maxspeed")
            }
        }
        try check.total(routeLength, join("legs"))
        try check.driveTime(routedDriveTime, join("legs"))
    }
}

extension Route {
    /// How long the route takes at each step's own routed speed (the route's average where a step
    /// has none), each speed at least `RouteLimits.minimumSpeed`, in seconds.
    public var routedDriveTime: Double {
        let fallback = duration > 0 && distance > 0 ? distance / duration : 13.9
        return legs.flatMap(\.steps).reduce(0) { total, step in
            let length = step.distance.isFinite ? max(0, step.distance) : 0
            return total + length / max(step.routedSpeed ?? fallback, RouteLimits.minimumSpeed)
        }
    }
}

/// A top-level document: a whole response or a single route object.
private struct RouteDocument: Decodable {
    var routes: [Route]
    var isResponse: Bool

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let routesKey = Key(stringValue: "routes")
        if container.contains(routesKey) {
            isResponse = true
            routes = try container.decode([Route].self, forKey: routesKey)
            if routes.isEmpty {
                let code = try? container.decode(String.self, forKey: Key(stringValue: "code"))
                let message = try? container.decode(String.self, forKey: Key(stringValue: "message"))
                throw RouteDecodingError(
                    path: "routes",
                    message:
                        "the response holds no route (code \(code ?? "none")\(message.map { ": \($0)" } ?? ""))"
                )
            }
        } else if container.contains(Key(stringValue: "legs")) {
            isResponse = false
            routes = [try Route(from: decoder)]
        } else {
            throw RouteDecodingError(
                path: "(top level)", message: "neither a Directions response (`routes`) nor a route (`legs`)")
        }
    }
}

/// A route or response that cannot be used, with the path to the field that is wrong.
public struct RouteDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Path to the field, like `routes[0].legs[1].steps[3].distance`.
    public var path: String
    /// What is wrong with it.
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// Wraps a decoder error; the path is the one `describe(_:)` names.
    public init(decoding error: DecodingError) {
        let text = describe(error)
        if let colon = text.range(of: ": ") {
            path = String(text[..<colon.lowerBound])
            message = String(text[colon.upperBound...])
        } else {
            path = "(top level)"
            message = text
        }
    }

    public var description: String { "\(path): \(message)" }
}
