public import VoiceGuidance

/// Where a guided drive's fixes come from, one second of the drive at a time.
///
/// A recorded trace hands them all out at once (`RecordedFixes`); a live source waits for the
/// second to pass on the wall clock and hands out what arrived meanwhile.
public protocol FixFeed: Sendable {
    /// The fixes with a time up to `second` (seconds since the drive started) not handed out
    /// yet; nil when the feed has ended.
    func fixes(through second: Double) async -> [Position]?
    /// True when the drive was stopped by the user (the prompt being said is then cut).
    var wasStopped: Bool { get }
}

/// A recorded trace's fixes, their times counted from the first fix.
public final class RecordedFixes: FixFeed {
    private let fixes: [Position]
    private let last: Double
    private let next = Locked(0)

    /// Takes the fixes, rebasing their times on the first one's (a trace longer than 48 hours
    /// is cut there).
    public init(_ fixes: [Position]) {
        let origin = fixes.first?.time ?? 0
        self.fixes = fixes.map { fix in
            var fix = fix
            fix.time -= origin
            return fix
        }
        let end = (fixes.last?.time ?? 0) - origin
        last = end.isFinite && origin.isFinite && !fixes.isEmpty ? min(end, 48 * 3_600) : -1
    }

    public var wasStopped: Bool { false }

    public func fixes(through second: Double) async -> [Position]? {
        guard second <= last else { return nil }
        return next.withLock { next in
            let start = next
            while next < fixes.count, fixes[next].time <= second { next += 1 }
            return Array(fixes[start..<next])
        }
    }
}
