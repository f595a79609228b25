import AppFlipBase

/// How long a persistent target's handlers took from their start to their first answer: what the report shows next
/// to the start-up allowance, so a reviewer sees whether the allowance was needed. Shared by copies of the target.
package final class HandlerStartups: Sendable {
    private let starts = Locked((count: 0, slowest: 0.0))

    init() {}

    func record(_ seconds: Double) {
        starts.withLock { starts in
            starts.count += 1
            starts.slowest = max(starts.slowest, seconds)
        }
    }

    /// The starts measured so far and the slowest of them, in seconds.
    package var measured: (count: Int, slowest: Double) { starts.withLock { $0 } }
}
