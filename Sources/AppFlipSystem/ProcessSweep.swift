// Finding the processes a run started, wherever they went: the one platform difference of process containment.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Every handler the suite starts carries `APPFLIP_CONFORMANCE_CHILD=<run>-<n>` in its environment, and what it
/// starts inherits it. A process that leaves its group (`setpgid`, `setsid`, a double-forked daemon) escapes a group
/// kill but not this mark: on Linux, `/proc/PID/environ` shows it, and a sweep kills every marked process.
/// On macOS another user's or a hardened process's environment cannot be read, so there the containment is the
/// process group and the pid (documented in the README); a process that clears its own environment escapes both.
public enum ProcessSweep {
    /// Whether marked processes can be found here (Linux, through /proc).
    public static var isAvailable: Bool {
        #if os(Linux)
        true
        #else
        false
        #endif
    }

    /// The variable that marks a run's processes.
    public static let variable = "APPFLIP_CONFORMANCE_CHILD"
    /// This run's prefix: random, so two runs on one machine never sweep each other's handlers.
    public static let runPrefix = "r" + String(UInt64.random(in: .min ... .max), radix: 36)

    private static let lock = NSLock()
    nonisolated(unsafe) private static var counter = 0

    /// A new mark for one child: `<run>-<n>`.
    public static func newMark() -> String {
        lock.withLock {
            counter += 1
            return "\(runPrefix)-\(counter)"
        }
    }

    /// Sends SIGKILL to every process whose environment carries `mark` exactly, or any mark of this run when
    /// `mark` is nil. Returns how many were found.
    @discardableResult
    public static func kill(mark: String?) -> Int {
        #if os(Linux)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return 0 }
        let own = getpid()
        let wanted = Array("\(variable)=\(mark ?? runPrefix + "-")".utf8)
        var found = 0
        for entry in entries {
            guard let pid = Int32(entry), pid != own, pid > 1,
                  let environment = FileManager.default.contents(atPath: "/proc/\(entry)/environ") else { continue }
            let bytes = [UInt8](environment.prefix(256 * 1024))
            let matches = bytes.split(separator: 0).contains { item in
                mark == nil ? item.starts(with: wanted) : Array(item) == wanted
            }
            if matches {
                _ = Glibc.kill(pid, SIGKILL)
                found += 1
            }
        }
        return found
        #else
        return 0
        #endif
    }
}
