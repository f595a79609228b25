// Every difference between Linux (Glibc) and macOS (Darwin) that the runner relies on lives in this file.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum Platform {
    /// A pipe whose two ends are close-on-exec, so no other child inherits them.
    ///
    /// `pipe2` is not visible from Swift's Glibc module, so the flag is set right after `pipe`; callers hold
    /// `ChildProcess.spawnLock` across pipe creation and spawn, so no concurrent spawn can inherit the ends.
    static func makePipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// Spawns `argv` in a new process group with the given standard streams. Returns the pid or an errno.
    static func spawn(path: String, argv: [String], environment: [String], stdin: Int32, stdout: Int32, stderr: Int32)
        -> Result<pid_t, SpawnFailure> {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        var flags = Int32(POSIX_SPAWN_SETPGROUP) | Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
        posix_spawnattr_setpgroup(&attributes, 0)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGINT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        var pid: pid_t = 0
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup($0) } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        let status = posix_spawn(&pid, path, &actions, &attributes, cArgs, cEnv)
        return status == 0 ? .success(pid) : .failure(SpawnFailure(errno: status))
    }

    struct SpawnFailure: Error {
        var errno: Int32
        var message: String { String(cString: strerror(errno)) }
    }

    /// Writing to a handler that has exited must be an error result, not a signal that kills the suite.
    static func ignoreSIGPIPE() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    static func signalName(_ number: Int32) -> String {
        let names: [Int32: String] = [SIGABRT: "SIGABRT", SIGSEGV: "SIGSEGV", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
                                      SIGILL: "SIGILL", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGTRAP: "SIGTRAP",
                                      SIGINT: "SIGINT", SIGPIPE: "SIGPIPE", SIGHUP: "SIGHUP"]
        return names[number] ?? "signal \(number)"
    }
}
