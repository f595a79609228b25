import Foundation

/// A value guarded by a lock: the suite's one lock. The value is reached only inside `withLock`, so no path reads
/// or writes it unguarded, and the box is `Sendable` only when its value is (as swift-nio's `NIOLockedValueBox`):
/// a lock makes access exclusive, it does not make a non-Sendable value safe to hand to another thread.
///
/// The value lives in memory of its own, not in a stored property: the lock already makes access exclusive, and a
/// class's stored property would be checked for exclusive access again at run time at every call (the runtime's
/// access set, a thread-local lookup). Inlinable, so a caller in another module gets it specialized for its value.
package final class Locked<Value> {
    @usableFromInline let lock = NSLock()
    @usableFromInline let storage: UnsafeMutablePointer<Value>

    @inlinable
    package init(_ value: Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Runs `body` with the value, exclusively; what it returns comes back.
    @inlinable
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage.pointee)
    }
}

/// Unchecked Sendable: the value is reached only inside `withLock`, under the lock.
extension Locked: @unchecked Sendable where Value: Sendable {}
