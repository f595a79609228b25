import Foundation

/// The one thread that starts every handler, alive as long as the process. On Linux a child's parent-death signal
/// fires when the *thread* that started it ends, not the process; children started from worker threads that come
/// and go would be killed mid-run. Starting them all here ties them to the process alone.
final class SpawnThread: @unchecked Sendable {
    static let shared = SpawnThread()

    private let condition = NSCondition()
    private let callers = NSLock()
    private var work: (@Sendable () -> Int32)?
    private var result: Int32?

    private init() {
        let thread = Thread { [self] in loop() }
        thread.name = "appflip-spawn"
        thread.start()
    }

    /// Runs `spawn` on this thread and returns what it returned. One caller at a time.
    func run(_ spawn: @escaping @Sendable () -> Int32) -> Int32 {
        callers.lock()
        defer { callers.unlock() }
        condition.lock()
        defer { condition.unlock() }
        work = spawn
        condition.signal()
        while result == nil { condition.wait() }
        defer { result = nil }
        return result ?? -1
    }

    private func loop() {
        condition.lock()
        while true {
            while work == nil { condition.wait() }
            let next = work
            work = nil
            condition.unlock()
            let value = next?() ?? -1
            condition.lock()
            result = value
            condition.broadcast()
        }
    }
}
