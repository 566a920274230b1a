import Foundation
public import VoiceGuidance

/// The ground truth of a simulated drive: where the vehicle is when, from the route alone.
public struct DriveMotion: Sendable {
    struct StepSpan: Sendable {
        var leg: Int
        var step: Int
        var start: Double
        var length: Double
        var startTime: Double
        var speed: Double
    }

    var steps: [StepSpan] = []
    /// Route length in meters.
    public private(set) var length = 0.0
    /// Seconds from the origin to the destination.
    public private(set) var totalTime = 0.0
    private var legStepOffset: [Int] = []

    /// Lays the route out in time at the given speed profile.
    public init(route: Route, speed: DriveSimulator.SpeedProfile) {
        let fallback = route.duration > 0 && route.distance > 0 ? route.distance / route.duration : 13.9
        var position = 0.0
        var time = 0.0
        for (legIndex, leg) in route.legs.enumerated() {
            legStepOffset.append(steps.count)
            for (stepIndex, step) in leg.steps.enumerated() {
                let length = step.distance.isFinite ? max(0, step.distance) : 0
                let stepSpeed: Double
                switch speed {
                case .constant(let value): stepSpeed = max(value, 0.1)
                case .route: stepSpeed = max(step.routedSpeed ?? fallback, 0.1)
                }
                steps.append(
                    StepSpan(
                        leg: legIndex, step: stepIndex, start: position, length: length, startTime: time,
                        speed: stepSpeed))
                position += length
                time += length / stepSpeed
            }
        }
        length = position
        totalTime = time
    }

    /// Index of the step holding `position` (a step of positive length), searching from `near`.
    func step(containing position: Double, near: Int) -> Int {
        var index = min(max(near, 0), steps.count - 1)
        while index > 0 && (position < steps[index].start || steps[index].length == 0) {
            index -= 1
            if steps[index].length > 0 && position >= steps[index].start { break }
        }
        while index + 1 < steps.count
            && (position >= steps[index].start + steps[index].length || steps[index].length == 0)
        {
            index += 1
        }
        return index
    }

    private func span(atTime time: Double) -> StepSpan? {
        guard !steps.isEmpty else { return nil }
        var low = 0
        var high = steps.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if steps[middle].startTime <= time { low = middle } else { high = middle - 1 }
        }
        return steps[low]
    }

    /// Meters from the origin at `time` seconds.
    public func position(at time: Double) -> Double {
        guard let span = span(atTime: time) else { return 0 }
        return min(span.start + (time - span.startTime) * span.speed, length)
    }

    /// Speed in m/s at `time`.
    public func speed(at time: Double) -> Double {
        var index = steps.count - 1
        var low = 0
        var high = steps.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if steps[middle].startTime <= time { low = middle } else { high = middle - 1 }
        }
        index = low
        while index < steps.count - 1 && steps[index].length == 0 { index += 1 }
        return steps.isEmpty ? 0 : steps[index].speed
    }

    /// Seconds from the origin until the vehicle is at `position`.
    public func time(at position: Double) -> Double {
        for span in steps where span.length > 0 && position < span.start + span.length {
            return span.startTime + max(0, position - span.start) / span.speed
        }
        return totalTime
    }

    /// Meters from the origin to the maneuver at the start of a step.
    public func maneuverPosition(leg: Int, step: Int) -> Double {
        guard leg >= 0, leg < legStepOffset.count else { return length }
        let index = legStepOffset[leg] + step
        return index < steps.count ? steps[index].start : length
    }

    /// One exact progress update a second from departure to arrival (no GPS noise).
    public func progressUpdates() -> [RouteProgress] {
        var updates: [RouteProgress] = []
        var cursor = 0
        var time = 0.0
        while time < totalTime {
            let position = min(self.position(at: time), max(length - 0.001, 0))
            cursor = step(containing: position, near: cursor)
            let span = steps[cursor]
            updates.append(
                RouteProgress(
                    time: time, legIndex: span.leg, stepIndex: span.step,
                    distanceRemaining: span.start + span.length - position, speed: speed(at: time)))
            time = Double(updates.count)
        }
        return updates
    }
}
