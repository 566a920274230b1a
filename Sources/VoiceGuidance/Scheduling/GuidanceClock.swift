import Foundation

/// A source of time in seconds, injected so that tests can drive time by hand.
public protocol GuidanceClock: Sendable {
    /// Seconds since an arbitrary origin; never goes backwards.
    var now: Double { get }
}

/// The system's monotonic clock.
public struct SystemGuidanceClock: GuidanceClock {
    public init() {}
    public var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
