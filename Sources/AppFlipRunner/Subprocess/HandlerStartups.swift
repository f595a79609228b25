import Foundation

/// How long a persistent target's handlers took from their start to their first answer: what the report shows next
/// to the start-up allowance, so a reviewer sees whether the allowance was needed. Shared by copies of the target.
package final class HandlerStartups: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var slowest = 0.0

    init() {}

    func record(_ seconds: Double) {
        lock.withLock {
            count += 1
            slowest = max(slowest, seconds)
        }
    }

    /// The starts measured so far and the slowest of them, in seconds.
    package var measured: (count: Int, slowest: Double) { lock.withLock { (count, slowest) } }
}
