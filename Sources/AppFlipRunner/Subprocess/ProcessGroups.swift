import AppFlipSystem
import Foundation

/// Every handler process group the runner has started and not yet ended, so an interrupted run can end them all
/// at once: no child outlives the run.
public enum ProcessGroups {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var live: Set<pid_t> = []

    static func register(_ group: pid_t) {
        lock.withLock { _ = live.insert(group) }
    }

    static func unregister(_ group: pid_t) {
        lock.withLock { _ = live.remove(group) }
    }

    /// The groups still running.
    public static var count: Int { lock.withLock { live.count } }

    /// Sends SIGKILL to every live group and its leader, then to every process carrying this run's mark (safe to
    /// call from a signal-handling queue).
    public static func killAll() {
        let groups = lock.withLock { live }
        for group in groups {
            _ = kill(-group, SIGKILL)
            _ = kill(group, SIGKILL)
        }
        ProcessSweep.kill(mark: nil)
    }
}
