/// Whole numbers from floating-point values that may come from a user: never a trap.
extension Int {
    /// `value` rounded toward zero and clamped to `Int`'s range; NaN is 0.
    ///
    /// `Int(_:)` traps on NaN, on infinities and on values beyond ±2⁶³; user data (a route's
    /// distances, an SSML break, a clock) goes through this instead.
    public init<Source: BinaryFloatingPoint>(saturating value: Source) {
        if value.isNaN {
            self = 0
        } else if value >= Source(Int.max) {
            self = .max
        } else if value <= Source(Int.min) {
            self = .min
        } else {
            self = Int(value)
        }
    }
}
