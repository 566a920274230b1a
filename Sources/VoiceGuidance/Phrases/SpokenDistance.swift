import Foundation

/// A distance as it is said: a round value people use, and the words for it.
///
/// Rounding is to the NEAREST sayable value (never up to the next one, the way Organic Maps
/// does). The sayable values ("steps") are:
///
/// - metric: 10 m steps below 200 m; 50 m up to 500 m; 100 m up to 1 km; 0.1 km up to 3 km;
///   0.5 km up to 10 km; whole kilometers beyond.
/// - imperial: 50 ft steps below 500 ft; 100 ft up to 1000 ft; 1200 ft; then a quarter mile, 0.3, 0.4,
///   a half, 0.6, 0.7, three quarters, 0.8, 0.9 and 1 mile; 0.1 mi up to 3 mi; 0.5 mi up to 10 mi;
///   whole miles beyond.
///
/// Between 150 m and 10 km the worst rounding error is 14% (0.35 mi said as 0.3 or 0.4 mi);
/// the scheduler waits a moment for a rounder number when the error would exceed its tolerance.
public struct SpokenDistance: Sendable, Equatable {
    /// The value said, in meters.
    public var meters: Double
    /// The words (`300 meters`, `a quarter mile`).
    public var text: String

    public init(meters: Double, text: String) {
        self.meters = meters
        self.text = text
    }

    /// Meters per foot.
    public static let metersPerFoot = 0.3048
    /// Meters per statute mile.
    public static let metersPerMile = 1609.344

    /// The sayable value nearest to `meters`, in meters, or nil below 3/4 of the smallest one (10 m / 50 ft)
    /// or when the input is not a finite non-negative number.
    ///
    /// - Complexity: O(log n) in the number of sayable values below 10 km.
    public static func roundedMeters(_ meters: Double, units: UnitSystem) -> Double? {
        guard meters.isFinite, meters >= 0 else { return nil }
        let table = units == .metric ? metricSteps : imperialSteps
        let smallest = table[0]
        if meters < smallest * 0.75 { return nil }
        let largest = table[table.count - 1]
        if meters >= largest {
            let unit = units == .metric ? 1000.0 : metersPerMile
            return (meters / unit).rounded() * unit
        }
        var low = 0
        var high = table.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if table[middle] <= meters { low = middle } else { high = middle }
        }
        if meters < table[low] { return table[low] }
        return meters - table[low] <= table[high] - meters ? table[low] : table[high]
    }

    static let metricSteps: [Double] = {
        var steps: [Double] = []
        steps += stride(from: 10.0, to: 200, by: 10)
        steps += stride(from: 200.0, to: 500, by: 50)
        steps += stride(from: 500.0, to: 1000, by: 100)
        steps += stride(from: 1000.0, to: 3000, by: 100)
        steps += stride(from: 3000.0, through: 10_000, by: 500)
        return steps
    }()

    static let imperialSteps: [Double] = {
        var feet: [Double] = []
        feet += stride(from: 50.0, to: 500, by: 50)
        feet += stride(from: 500.0, through: 1000, by: 100)
        var miles: [Double] = [0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9]
        miles += stride(from: 1.0, to: 3, by: 0.1).map { ($0 * 10).rounded() / 10 }
        miles += stride(from: 3.0, through: 10, by: 0.5)
        feet.append(1200)
        return feet.map { $0 * metersPerFoot } + miles.map { $0 * metersPerMile }
    }()
}
