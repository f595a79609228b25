import AppFlipBase
import AppFlipSystem
import Foundation

/// Every handler process group the runner has started and not yet ended, by the scope that started it, so a run
/// (or a signal, for every run) can end them all at once: no child outlives the run.
package enum ProcessGroups {
    private static let live = Locked<[pid_t: ContainmentScope]>([:])

    static func register(_ group: pid_t, scope: ContainmentScope) {
        live.withLock { $0[group] = scope }
    }

    static func unregister(_ group: pid_t) {
        live.withLock { _ = $0.removeValue(forKey: group) }
    }

    /// The groups still running.
    package static var count: Int { live.withLock { $0.count } }

    /// Reaps the leader if it has exited, returning its wait status, and forgets its group in the same step: once
    /// reaped, its number may be given to another process, so it must never be signalled again.
    static func reap(_ pid: pid_t) -> Int32? {
        live.withLock { live in
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            // ECHILD: something else in this process reaped it (Foundation's Process reaps on SIGCHLD); its number
            // is no longer ours, so it counts as ended and is never signalled again.
            guard result == pid || (result < 0 && errno == ECHILD) else { return nil }
            live.removeValue(forKey: pid)
            return result == pid ? status : 0
        }
    }

    /// Sends SIGKILL to every live group of `scope` (of every scope when nil) and its leader, to every orphan this
    /// process adopted as subreaper, then to every process carrying one of the scope's marks (safe to call from a
    /// signal-handling queue). Under the lock reaping takes, so no number already given back is signalled, and with
    /// spawning paused, so a child between its start and its registration is not taken for an orphan.
    package static func killAll(scope: ContainmentScope? = nil) {
        ChildProcess.spawnLock.withLock { _ in
            let known = live.withLock { live -> Set<pid_t> in
                for (group, owner) in live where scope == nil || owner == scope {
                    _ = kill(-group, SIGKILL)
                    _ = kill(group, SIGKILL)
                }
                return Set(live.keys)
            }
            ProcessSweep.killAdopted(known: known)
        }
        ProcessSweep.kill(markPrefix: ProcessSweep.markPrefix(scope: scope?.id))
    }
}
