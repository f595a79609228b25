import Foundation

/// A value guarded by a lock: the suite's one lock. The value is reached only inside `withLock`, so no path reads
/// or writes it unguarded, and the box is `Sendable` only when its value is (as swift-nio's `NIOLockedValueBox`):
/// a lock makes access exclusive, it does not make a non-Sendable value safe to hand to another thread.
package final class Locked<Value> {
    private var value: Value
    private let lock = NSLock()

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, exclusively; what it returns comes back.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension Locked: @unchecked Sendable where Value: Sendable {}
