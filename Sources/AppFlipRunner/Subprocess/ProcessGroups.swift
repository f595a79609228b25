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

    /// Reaps the leader if it has exited, returning its wait status, and forgets its group in the same step: once
    /// reaped, its number may be given to another process, so it must never be signalled again.
    static func reap(_ pid: pid_t) -> Int32? {
        lock.withLock {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            // ECHILD: something else in this process reaped it (Foundation's Process reaps on SIGCHLD); its number
            // is no longer ours, so it counts as ended and is never signalled again.
            guard result == pid || (result < 0 && errno == ECHILD) else { return nil }
            live.remove(pid)
            return result == pid ? status : 0
        }
    }

    /// Sends SIGKILL to every live group and its leader, then to every process carrying this run's mark (safe to
    /// call from a signal-handling queue). Under the lock reaping takes, so no number already given back is signalled.
    public static func killAll() {
        lock.withLock {
            for group in live {
                _ = kill(-group, SIGKILL)
                _ = kill(group, SIGKILL)
            }
        }
        ProcessSweep.kill(mark: nil)
    }
}
