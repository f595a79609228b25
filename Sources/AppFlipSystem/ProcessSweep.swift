import AppFlipBase
import Foundation

// Finding the processes a run started, wherever they went: the one platform difference of process containment.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
#if os(Linux)
    import CAppFlipSystem
#endif

/// Every handler the suite starts carries `APPFLIP_CONFORMANCE_CHILD=<run>-<scope>-<n>.` in its environment, and what it
/// starts inherits it. A process that leaves its group (`setpgid`, `setsid`, a double-forked daemon) escapes a group
/// kill but not this mark: on Linux, `/proc/PID/environ` shows it, and a sweep kills every marked process.
/// On macOS another user's or a hardened process's environment cannot be read, so there the containment is the
/// process group and the pid (documented in Documentation/Troubleshooting.md); a process that clears its own environment escapes both.
package enum ProcessSweep {
    /// Whether marked processes can be found here (Linux, through /proc).
    package static var isAvailable: Bool {
        #if os(Linux)
            true
        #else
            false
        #endif
    }

    /// The variable that marks a run's processes.
    package static let variable = "APPFLIP_CONFORMANCE_CHILD"
    /// This run's prefix: random, so two runs on one machine never sweep each other's handlers.
    package static let runPrefix = "r" + String(UInt64.random(in: .min ... .max), radix: 36)

    /// How many marks were handed out, and whether `becomeSubreaper` succeeded (only then are unknown children
    /// adopted orphans).
    private static let state = Locked((counter: 0, subreaper: false))

    /// A new mark for one child of scope `scope`: `<run>-<scope>-<n>` and a final dot.
    package static func newMark(scope: Int) -> String {
        let number = state.withLock { state in
            state.counter += 1
            return state.counter
        }
        return "\(markPrefix(scope: scope))\(number)."
    }

    /// What every mark of a scope (of any scope in this process, when nil) starts with. The dashes and the final dot
    /// keep one prefix from matching another's marks (`-1-` never starts `-12-`, `-1-3.` never starts `-1-31.`).
    package static func markPrefix(scope: Int?) -> String {
        scope.map { "\(runPrefix)-\($0)-" } ?? "\(runPrefix)-"
    }

    /// Sends SIGKILL to every process whose environment carries a mark starting with `markPrefix` (one child's
    /// whole mark, a scope's prefix or this process's), and returns once no such process is left (bounded: one
    /// second). Returns how many distinct processes were signalled.
    ///
    /// One pass over /proc is not enough: a marked process may fork while the pass runs, its child's number lying
    /// behind the directory position already read, and then the parent's kill orphans the child unseen. So passes
    /// repeat until one finds no marked process: a killed process's environment stays readable until it has
    /// exited (a zombie's reads empty), so the last pass also shows that every signalled process is gone.
    @discardableResult
    package static func kill(markPrefix: String) -> Int {
        #if os(Linux)
            let wanted = Array("\(variable)=\(markPrefix)".utf8)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 1)
            defer { buffer.deallocate() }
            var signalled = Set<Int32>()
            let end = Platform.monotonicSeconds() + 1
            while true {
                let found = killPass(wanted: wanted, buffer: buffer)
                signalled.formUnion(found)
                if found.isEmpty || Platform.monotonicSeconds() >= end { break }
                usleep(1_000)
            }
            return signalled.count
        #else
            return 0
        #endif
    }

    #if os(Linux)
        /// One pass over /proc: SIGKILL to every process whose environment holds `wanted`; returns their numbers. Runs
        /// after every one-shot case whose handler left something, so it reads /proc with plain calls into one buffer:
        /// no Foundation directory listing, no Data per process.
        private static func killPass(wanted: [UInt8], buffer: UnsafeMutableRawBufferPointer) -> [Int32] {
            guard let directory = opendir("/proc") else { return [] }
            defer { closedir(directory) }
            let own = getpid()
            var found: [Int32] = []
            while let entry = readdir(directory) {
                let pid = withUnsafeBytes(of: entry.pointee.d_name) { name -> Int32? in
                    var value: Int32 = 0
                    for byte in name {
                        if byte == 0 { break }
                        guard byte >= 0x30, byte <= 0x39, value < 100_000_000 else { return nil }
                        value = value * 10 + Int32(byte - 0x30)
                    }
                    return value
                }
                guard let pid, pid != own, pid > 1 else { continue }
                if environment(of: pid, into: buffer, contains: wanted) {
                    _ = Glibc.kill(pid, SIGKILL)
                    found.append(pid)
                }
            }
            return found
        }
    #endif

    #if os(Linux)
        /// Whether one of the first 256 KiB of `/proc/PID/environ`'s NUL-separated entries starts with `wanted`.
        private static func environment(of pid: Int32, into buffer: UnsafeMutableRawBufferPointer, contains wanted: [UInt8]) -> Bool {
            let fd = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return false }  // gone, or a kernel thread
            defer { close(fd) }
            var used = 0
            while used < buffer.count {
                let count = read(fd, buffer.baseAddress.map { $0 + used }, buffer.count - used)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                used += count
            }
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[..<used])
            var start = 0
            while start < used {
                let end = bytes[start...].firstIndex(of: 0) ?? used
                if end - start >= wanted.count, bytes[start..<start + wanted.count].elementsEqual(wanted) { return true }
                start = end + 1
            }
            return false
        }
    #endif

    /// True when this process has no child at all while it is a child subreaper: then no process it started is
    /// left anywhere (an orphaned descendant would have come back to it as a child), so no sweep can find a mark.
    /// `waitid` with `WNOWAIT` looks without reaping, so another worker's exited handler keeps its status.
    package static func hasNoDescendants() -> Bool {
        #if os(Linux)
            guard state.withLock({ $0.subreaper }) else { return false }
            var info = siginfo_t()
            return waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == -1 && errno == ECHILD
        #else
            return false
        #endif
    }

    /// Makes this process a child subreaper (Linux): descendants orphaned by their parent come back to it, so a
    /// daemon that cleared its environment (and so its mark) is still found, as a child, and ended. Only for a
    /// process that starts no children but handlers (the command-line tool, not a test process using Foundation's
    /// `Process`): every child that is not a registered handler is then taken for an orphan. False where unavailable.
    @discardableResult
    package static func becomeSubreaper() -> Bool {
        #if os(Linux)
            let done = appflip_become_subreaper() == 0
            state.withLock { $0.subreaper = done }
            return done
        #else
            return false
        #endif
    }

    /// Sends SIGKILL to every child of this process not in `known` (orphans adopted as subreaper) and to all their
    /// descendants, and reaps them (bounded). A descendant orphaned by that kill comes back as a child: rounds go
    /// on until none is left. Nothing unless `becomeSubreaper` succeeded. Returns how many were signalled.
    @discardableResult
    package static func killAdopted(known: Set<pid_t>) -> Int {
        #if os(Linux)
            guard state.withLock({ $0.subreaper }) else { return 0 }
            let own = getpid()
            let end = Platform.monotonicSeconds() + 2
            var signalled = 0
            for _ in 0..<16 {
                let parents = parentTable()
                let orphans = parents.filter { $0.value == own && !known.contains($0.key) }.map(\.key)
                if orphans.isEmpty { break }
                // Each orphan's whole subtree, so its descendants are not orphaned again in between.
                var children: [pid_t: [pid_t]] = [:]
                for (pid, parent) in parents { children[parent, default: []].append(pid) }
                var subtree = orphans
                var index = 0
                while index < subtree.count {
                    subtree += children[subtree[index]] ?? []
                    index += 1
                }
                for pid in subtree { _ = Glibc.kill(pid, SIGKILL) }
                signalled += subtree.count
                var pending = Set(orphans)
                while !pending.isEmpty, Platform.monotonicSeconds() < end {
                    for pid in pending {
                        var status: Int32 = 0
                        let result = waitpid(pid, &status, WNOHANG)
                        if result == pid || (result < 0 && errno == ECHILD) { pending.remove(pid) }
                    }
                    if !pending.isEmpty { usleep(2_000) }
                }
                if Platform.monotonicSeconds() >= end { break }
            }
            return signalled
        #else
            return 0
        #endif
    }

    /// Every process's parent (Linux, from /proc/PID/stat).
    static func parentTable() -> [pid_t: pid_t] {
        #if os(Linux)
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [:] }
            var table: [pid_t: pid_t] = [:]
            for entry in entries {
                guard let pid = pid_t(entry), let stat = FileManager.default.contents(atPath: "/proc/\(entry)/stat"),
                    let close = stat.lastIndex(of: UInt8(ascii: ")"))
                else { continue }
                // After "(comm)": the state, then the ppid. comm may itself hold spaces and parentheses: the last ")".
                let fields = stat[stat.index(after: close)...].split(separator: UInt8(ascii: " "))
                if fields.count > 1, let parent = pid_t(String(decoding: fields[1], as: UTF8.self)) { table[pid] = parent }
            }
            return table
        #else
            return [:]
        #endif
    }
}
