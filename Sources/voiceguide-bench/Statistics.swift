import Foundation

/// Percentiles and formatting for benchmark figures.
enum Statistics {
    /// The `p`-th percentile (0…100) of `values`, nearest rank.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    static func median(_ values: [Double]) -> Double { percentile(values, 50) }

    /// Seconds elapsed while running `body`.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// Wall seconds `body` takes (async).
    static func timeAsync(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// Seconds of CPU (user and system) that the child processes finished so far have used.
    static func childCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Peak resident memory of this process so far, in MiB.
    static func peakMemoryMiB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }
    static func us(_ seconds: Double) -> String { String(format: "%.2f µs", seconds * 1e6) }
}

/// Prints one result line: name, value, goal and whether it is met.
func report(_ name: String, _ value: String, goal: String = "", met: Bool? = nil) {
    let verdict = met.map { $0 ? "  [goal met]" : "  [goal NOT met]" } ?? ""
    let goalText = goal.isEmpty ? "" : "  (goal \(goal))"
    print("  " + name.padding(toLength: 66, withPad: " ", startingAt: 0) + value + goalText + verdict)
}
