// Every difference between Linux (Glibc) and macOS (Darwin) that the runner relies on lives in this file.
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

/// The operating-system calls whose spelling differs between Linux (Glibc) and macOS (Darwin).
package enum Platform {
    /// A pipe whose two ends are close-on-exec, so no other child inherits them.
    ///
    /// `pipe2` is not visible from Swift's Glibc module, so the flag is set right after `pipe`; callers hold
    /// `ChildProcess.spawnLock` (AppFlipRunner) across pipe creation and spawn, so no concurrent spawn can inherit the ends.
    package static func makePipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// Spawns `argv` in a new session (so a new process group, and no controlling terminal: a handler cannot reach
    /// the suite's terminal through /dev/tty) with the given standard streams, every signal at its default and none
    /// blocked. Returns the pid or an errno.
    ///
    /// Linux: vfork and exec in C (CAppFlipSystem), with SIGKILL as the child's parent-death signal, so a handler
    /// dies with the suite even when the suite is killed outright. The signal follows the *thread* that spawned the
    /// child: a handler must not outlive its spawning thread (the runner's workers end their sessions before their
    /// threads end; a session is not shared between threads). Spawning from one dedicated thread instead cost about
    /// 2 ms per one-shot case in thread hand-offs, measured.
    /// macOS has no parent-death signal: `posix_spawn`, every other descriptor closed (`POSIX_SPAWN_CLOEXEC_DEFAULT`).
    package static func spawn(path: String, argv: [String], environment: [String], stdin: Int32, stdout: Int32, stderr: Int32)
        -> Result<pid_t, SpawnFailure>
    {
        #if os(Linux)
            let cArgs = argv.map { strdup($0) } + [nil]
            let cEnv = environment.map { strdup($0) } + [nil]
            defer {
                for argument in cArgs { free(argument) }
                for variable in cEnv { free(variable) }
            }
            let result = appflip_spawn(path, cArgs, cEnv, stdin, stdout, stderr, SIGKILL)
            return result > 0 ? .success(result) : .failure(SpawnFailure(errno: -result))
        #else
            return posixSpawn(path: path, argv: argv, environment: environment, stdin: stdin, stdout: stdout, stderr: stderr)
        #endif
    }

    private static func posixSpawn(path: String, argv: [String], environment: [String], stdin: Int32, stdout: Int32, stderr: Int32)
        -> Result<pid_t, SpawnFailure>
    {
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
        var flags = Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
        #if canImport(Darwin)
            // A new session makes the child the leader of a new group too.
            flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT) | Int32(POSIX_SPAWN_SETSID)
        #else
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
        posix_spawnattr_setpgroup(&attributes, 0)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        for number in terminationSignals { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        var pid: pid_t = 0
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup($0) } + [nil]
        defer {
            for argument in cArgs { free(argument) }
            for variable in cEnv { free(variable) }
        }
        let status = posix_spawn(&pid, path, &actions, &attributes, cArgs, cEnv)
        return status == 0 ? .success(pid) : .failure(SpawnFailure(errno: status))
    }

    package struct SpawnFailure: Error {
        package var errno: Int32
        package var message: String { String(cString: strerror(errno)) }
    }

    /// The operating system's and the processor's names, as a report's provenance shows them.
    package static let names: (system: String, processor: String) = {
        #if arch(x86_64)
            let processor = "x86_64"
        #elseif arch(arm64)
            let processor = "arm64"
        #else
            let processor = "another processor"
        #endif
        #if os(Linux)
            let system = "Linux"
        #elseif os(macOS)
            let system = "macOS"
        #else
            let system = "another system"
        #endif
        return (system, processor)
    }()

    /// Ends the process now with `status`, running no exit handler and no static destructor: for a signal handler's
    /// thread while other threads still run (`exit` there tears down what they use, and the process may crash
    /// with SIGSEGV instead of exiting with `status`). Whatever was written with `write(2)` (the console) is out.
    package static func exitImmediately(_ status: Int32) -> Never {
        _exit(status)
    }

    /// `recv`'s flag that reads without consuming.
    package static var peekFlag: Int32 {
        #if canImport(Glibc)
            Int32(MSG_PEEK)
        #else
            MSG_PEEK
        #endif
    }

    /// Ends process `pid` with SIGKILL (a program that outlived its bound; it cannot ignore this signal).
    package static func forceKill(_ pid: Int32) {
        _ = kill(pid, SIGKILL)
    }

    /// Writing to a handler that has exited must be an error result, not a signal that kills the suite.
    package static func ignoreSIGPIPE() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// This machine's host name, as `gethostname(2)` gives it: no name service asked (Foundation's `hostName` may
    /// wait on a reverse lookup on macOS).
    package static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    package static func signalName(_ number: Int32) -> String {
        let names: [Int32: String] = [
            SIGABRT: "SIGABRT", SIGSEGV: "SIGSEGV", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM",
            SIGILL: "SIGILL", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGTRAP: "SIGTRAP",
            SIGINT: "SIGINT", SIGPIPE: "SIGPIPE", SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT",
        ]
        return names[number] ?? "signal \(number)"
    }

    // MARK: Sockets

    /// `SOCK_STREAM` as `socket(2)` and `getaddrinfo(3)` take it.
    package static var streamSocketType: Int32 {
        #if canImport(Darwin)
            SOCK_STREAM
        #else
            Int32(SOCK_STREAM.rawValue)
        #endif
    }

    /// Flags for `send(2)` so a peer that closed its end gives EPIPE, not SIGPIPE.
    package static var sendFlags: Int32 {
        #if canImport(Darwin)
            0
        #else
            Int32(MSG_NOSIGNAL)
        #endif
    }

    /// Per-socket SIGPIPE suppression where `send` has no flag for it.
    package static func suppressSIGPIPE(on fd: Int32) {
        #if canImport(Darwin)
            var on: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    // MARK: Signals

    /// The signals that end a run in order: SIGINT, SIGTERM, SIGHUP (the terminal went away), SIGQUIT.
    package static let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Unblocks the termination signals for this thread and the threads it starts (a parent may have blocked them).
    package static func unblockTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in terminationSignals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The signal's conventional exit status when a command is ended by it (128 + number).
    package static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }
}
