import Foundation

/// A simulated GPS receiver riding along a `RealisticMotion`: one fix a second with drifting
/// noise, occasional outliers, and one outage. Deterministic for a seed.
public struct SimulatedReceiver: Sendable {
    /// The fixes, in time order (none during the outage).
    public private(set) var fixes: [Position] = []
    /// The outage: seconds from the start, or nil when there is none.
    public private(set) var outage: Range<Double>?
    /// Times (seconds from the start) of the outliers.
    public private(set) var outlierTimes: [Double] = []

    public init(
        motion: RealisticMotion, seed: UInt64, configuration: MotionConfiguration = MotionConfiguration()
    ) {
        var random = SplitMix64(seed: seed ^ 0x6E55_0123)
        let duration = motion.duration
        if configuration.outageDuration > 0,
            duration > configuration.outageEarliest + 2 * configuration.outageDuration
        {
            let start = Double.random(
                in: configuration.outageEarliest...(duration - 2 * configuration.outageDuration),
                using: &random
            ).rounded()
            outage = start..<(start + configuration.outageDuration)
        }
        var east = 0.0
        var north = 0.0
        let rho = configuration.noiseCorrelation
        let innovation = configuration.gpsNoise * (1 - rho * rho).squareRoot()
        var second = 0.0
        while second <= duration {
            defer { second += 1 }
            east = rho * east + innovation * random.nextGaussian()
            north = rho * north + innovation * random.nextGaussian()
            if let outage, outage.contains(second) { continue }
            let along = motion.place(at: second)
            let truth = motion.line.coordinate(at: along)
            var point = truth.offset(
                by: (east * east + north * north).squareRoot(), bearing: atan2(east, north) * 180 / .pi)
            if Double.random(in: 0..<1, using: &random) < configuration.outlierProbability {
                let distance = Double.random(in: configuration.outlierDistance, using: &random)
                point = truth.offset(by: distance, bearing: Double.random(in: 0..<360, using: &random))
                outlierTimes.append(second)
            }
            let speed = motion.speed(at: second)
            var fix = Position(
                coordinate: point, time: configuration.startTime + second,
                horizontalAccuracy: configuration.gpsNoise)
            if configuration.reportsMotion {
                fix.speed = max(0, speed + configuration.speedNoise * random.nextGaussian())
                if speed > 1 {
                    let course =
                        motion.line.bearing(at: along) + configuration.courseNoise * random.nextGaussian()
                    fix.course = (course + 360).truncatingRemainder(dividingBy: 360)
                }
            }
            fixes.append(fix)
        }
    }
}
