// Foundation re-exports the C library (Glibc on Linux, Darwin on macOS); the calls used here exist on both.
// Where the two differ, the difference lives in Platform.swift.
import AppFlipBase
import AppFlipSystem
import Foundation

/// A handler process in its own process group, with non-blocking pipes and bounded buffers.
///
/// Every wait has a deadline; nothing here can block forever. `kill()` ends the whole process group.
final class ChildProcess {
    /// How a read for a line ended.
    enum LineResult {
        case line([UInt8])
        /// stdout closed before a full line arrived; carries any partial line.
        case endOfOutput(partial: [UInt8])
        case timedOut(partial: [UInt8])
        case tooLong(limit: Int)
        /// The process wrote more than its output bound without a line end the reader could use: reading stopped.
        case flooded(limit: Int)
    }

    enum Exit: Equatable {
        case exited(Int32)
        case signaled(Int32)

        var description: String {
            switch self {
            case .exited(let code): "exited with status \(code)"
            case .signaled(let signal): "was killed by \(Platform.signalName(signal))"
            }
        }
    }

    let pid: pid_t
    private var stdinFD: Int32
    private let stdoutFD: Int32
    private let stderrFD: Int32
    private var stdoutOpen = true
    /// Set once the suite closed stdout itself (a flood), so deinit does not close it again.
    private var stdoutClosed = false
    private var stderrOpen = true
    private var pending: [UInt8] = []
    /// Where reads land before they are copied out: allocated once per child, not once per read.
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)
    private(set) var exit: Exit?
    /// Set once a sweep ran after the child was reaped.
    private var sweptAfterExit = false

    /// The most stdout bytes held unread at once. Past it the suite stops reading (the pipe is closed, so a writer
    /// that goes on gets EPIPE or SIGPIPE) and `flooded` is set: the caller ends the process group and reports it.
    let stdoutLimit: Int
    private(set) var flooded = false

    /// stderr kept as evidence: the first `stderrLimit` bytes, then a count of what was dropped.
    private(set) var stderr: [UInt8] = []
    private(set) var stderrDropped = 0
    let stderrLimit: Int

    /// The environment mark this child and everything it starts carry (ProcessSweep).
    let mark: String

    private init(pid: pid_t, mark: String, stdin: Int32, stdout: Int32, stderr: Int32, stdoutLimit: Int, stderrLimit: Int) {
        self.pid = pid
        self.stdoutLimit = stdoutLimit
        self.mark = mark
        self.stdinFD = stdin
        self.stdoutFD = stdout
        self.stderrFD = stderr
        self.stderrLimit = stderrLimit
    }

    deinit {
        kill()
        for fd in [stdinFD, stdoutClosed ? -1 : stdoutFD, stderrFD] where fd >= 0 { close(fd) }
        scratch.deallocate()
    }

    struct LaunchError: Error {
        var message: String
        /// The suite's own resources ran out (descriptors, memory, processes): not the handler's fault.
        var suiteFault = false
    }

    /// Held across pipe creation, spawn and registration, so that no child inherits another child's pipe ends and
    /// no child is seen unregistered (`ProcessGroups.killAll` would take it for an orphan).
    static let spawnLock = Locked(())

    /// `stdoutLimit`: the most output held unread (give room for the longest line the caller accepts, twice over).
    static func launch(
        path: String, arguments: [String], environment: [String], scope: ContainmentScope,
        stdoutLimit: Int, stderrLimit: Int = 64 * 1024
    ) throws(LaunchError) -> ChildProcess {
        try spawnLock.withLock { _ throws(LaunchError) in
            try spawn(path: path, arguments: arguments, environment: environment, scope: scope, stdoutLimit: stdoutLimit, stderrLimit: stderrLimit)
        }
    }

    /// `launch` under the spawn lock.
    private static func spawn(
        path: String, arguments: [String], environment: [String], scope: ContainmentScope, stdoutLimit: Int, stderrLimit: Int
    ) throws(LaunchError) -> ChildProcess {
        var pipes: [(read: Int32, write: Int32)] = []
        for _ in 0..<3 {
            guard let pipe = Platform.makePipe() else {
                let reason = String(cString: strerror(errno))
                for open in pipes {
                    close(open.read)
                    close(open.write)
                }
                throw LaunchError(message: "the suite cannot create pipes for the handler: \(reason)", suiteFault: true)
            }
            pipes.append(pipe)
        }
        let (input, output, errors) = (pipes[0], pipes[1], pipes[2])
        let mark = ProcessSweep.newMark(scope: scope.id)
        let result = Platform.spawn(
            path: path, argv: [path] + arguments,
            environment: environment.filter { !$0.hasPrefix(ProcessSweep.variable + "=") } + ["\(ProcessSweep.variable)=\(mark)"],
            stdin: input.read, stdout: output.write, stderr: errors.write)
        close(input.read)
        close(output.write)
        close(errors.write)
        switch result {
        case .failure(let failure):
            close(input.write)
            close(output.read)
            close(errors.read)
            let suiteFault = [EAGAIN, ENOMEM, EMFILE, ENFILE].contains(failure.errno)
            throw LaunchError(
                message: (suiteFault ? "the suite cannot start " : "cannot start ") + "\(path): \(failure.message)",
                suiteFault: suiteFault)
        case .success(let pid):
            for fd in [input.write, output.read, errors.read] {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
            ProcessGroups.register(pid, scope: scope)
            return ChildProcess(
                pid: pid, mark: mark, stdin: input.write, stdout: output.read, stderr: errors.read,
                stdoutLimit: stdoutLimit, stderrLimit: stderrLimit)
        }
    }

    /// Writes all of `bytes` to the handler's stdin before `deadline`. False when it could not (closed, or too slow).
    func write(_ bytes: [UInt8], deadline: Double) -> Bool {
        guard stdinFD >= 0 else { return false }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { buffer in
                cWrite(stdinFD, buffer.baseAddress, buffer.count)
            }
            if written > 0 {
                offset += written
                continue
            }
            if written < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR { return false }
            // Keep draining output while the handler's stdin is full, or both sides could stall.
            guard pollOnce(wantWrite: true, deadline: deadline) else { return false }
        }
        return true
    }

    /// Output the handler wrote that no request asked for: what is buffered plus what is readable right now.
    func takeUnrequestedOutput() -> [UInt8] {
        if stdoutOpen { drain(stdoutFD, isStdout: true) }
        let bytes = pending
        pending.removeAll()
        return bytes
    }

    /// Starts a fresh stderr excerpt (a persistent handler's log is kept per request, not per process).
    func resetStderr() {
        stderr.removeAll(keepingCapacity: true)
        stderrDropped = 0
    }

    func closeStdin() {
        if stdinFD >= 0 {
            close(stdinFD)
            stdinFD = -1
        }
    }

    /// Reads one line from stdout (up to `limit` bytes), collecting stderr meanwhile.
    func readLine(deadline: Double, limit: Int) -> LineResult {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                return .line(line.last == 0x0D ? Array(line.dropLast()) : line)
            }
            if pending.count > limit { return .tooLong(limit: limit) }
            if flooded { return .flooded(limit: stdoutLimit) }
            if !stdoutOpen { return .endOfOutput(partial: pending) }
            if !pollOnce(wantWrite: false, deadline: deadline) { return .timedOut(partial: pending) }
        }
    }

    /// Waits for stderr to close and the process to exit, up to `deadline`. True when it exited.
    func waitForExit(deadline: Double) -> Bool {
        // Once both pipes are closed there is nothing to poll: a child that closed them usually exits within
        // microseconds, so the pause between reap attempts starts small and doubles (to 10 ms), never a fixed sleep.
        var pause: UInt32 = 20
        while true {
            if reap() {
                // Collect what is left in stderr without waiting for grandchildren that hold it open.
                drain(stderrFD, isStdout: false)
                return true
            }
            if !stdoutOpen, !stderrOpen {
                guard Platform.monotonicSeconds() < deadline else { return reap() }
                usleep(pause)
                pause = min(pause * 2, 10_000)
            } else if !pollOnce(wantWrite: false, deadline: deadline, maxWait: 0.02) {
                if Platform.monotonicSeconds() >= deadline { return reap() }
                usleep(10_000)  // poll itself failed: do not spin
            }
        }
    }

    /// Ends the handler and everything it started: SIGTERM to the group, a short grace, then SIGKILL to the group
    /// and to the pid itself (a handler that moved into another group is not in its own), and to every process
    /// carrying this child's mark (descendants that left the group or daemonised). Every wait is bounded.
    func kill() {
        defer {
            // Once the child is reaped, one sweep ends what it left (the scope's sweep at the end of the run is the
            // backstop): a second kill (the one in deinit) does not read /proc again, and none is needed when, as
            // subreaper, this process has no child left (nothing it started survives anywhere).
            if !sweptAfterExit {
                if !(exit != nil && ProcessSweep.hasNoDescendants()) { ProcessSweep.kill(markPrefix: mark) }
                sweptAfterExit = exit != nil
            }
            ProcessGroups.unregister(pid)
        }
        guard exit == nil else {
            // Already reaped: its number may now lead another process's group (pids are reused), so the group is
            // signalled only where nothing better exists; where the mark can be swept, the sweep below ends
            // whatever it left behind.
            if !ProcessSweep.isAvailable { _ = cKill(-pid, SIGKILL) }
            return
        }
        _ = cKill(-pid, SIGTERM)
        _ = cKill(pid, SIGTERM)
        let graceEnd = Platform.monotonicSeconds() + 0.2
        while Platform.monotonicSeconds() < graceEnd {
            if reap() { break }
            usleep(5_000)
        }
        // The group and the pid only while the leader is unreaped (its number is then still ours); once reaped
        // during the grace, the number may already lead another process's group, and the sweep ends what is left.
        if exit == nil || !ProcessSweep.isAvailable { _ = cKill(-pid, SIGKILL) }
        if exit == nil { _ = cKill(pid, SIGKILL) }
        let reapEnd = Platform.monotonicSeconds() + 2
        while !reap(), Platform.monotonicSeconds() < reapEnd { usleep(5_000) }
        drain(stderrFD, isStdout: false)
    }

    /// True once the process has exited (and records how).
    @discardableResult
    func reap() -> Bool {
        if exit != nil { return true }
        guard let status = ProcessGroups.reap(pid) else { return false }
        exit = Self.decode(status)
        return true
    }

    private static func decode(_ status: Int32) -> Exit {
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    /// Waits until a stream is readable (or stdin writable), reads what is there. False on deadline.
    private func pollOnce(wantWrite: Bool, deadline: Double, maxWait: Double? = nil) -> Bool {
        var fds: [pollfd] = []
        if stdoutOpen { fds.append(pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)) }
        if stderrOpen { fds.append(pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)) }
        if wantWrite, stdinFD >= 0 { fds.append(pollfd(fd: stdinFD, events: Int16(POLLOUT), revents: 0)) }
        let remaining = deadline - Platform.monotonicSeconds()
        guard remaining > 0 else { return false }
        let wait = min(remaining, maxWait ?? remaining)
        if fds.isEmpty {
            usleep(UInt32(min(wait, 0.01) * 1_000_000))
            return Platform.monotonicSeconds() < deadline
        }
        let ready = poll(&fds, nfds_t(fds.count), Int32(max(1, min(wait * 1000, 60_000))))
        if ready < 0, errno != EINTR { return false }
        for entry in fds where entry.revents != 0 {
            if entry.fd == stdoutFD { drain(stdoutFD, isStdout: true) }
            if entry.fd == stderrFD { drain(stderrFD, isStdout: false) }
            if entry.fd == stdinFD, entry.revents & Int16(POLLERR | POLLHUP) != 0 { return false }
        }
        return true
    }

    /// Reads everything currently available from one stream.
    private func drain(_ fd: Int32, isStdout: Bool) {
        guard isStdout ? stdoutOpen : stderrOpen else { return }
        while true {
            let count = cRead(fd, scratch.baseAddress, scratch.count)
            if count > 0 {
                let read = UnsafeRawBufferPointer(rebasing: scratch[..<count])
                if isStdout {
                    pending.append(contentsOf: read)
                    if pending.count > stdoutLimit {
                        // Enough: what is held is kept for the reader, nothing more is read.
                        flooded = true
                        stdoutOpen = false
                        close(stdoutFD)
                        stdoutClosed = true
                        return
                    }
                } else {
                    let room = max(0, stderrLimit - stderr.count)
                    stderr.append(contentsOf: read[..<min(count, room)])
                    stderrDropped += count - min(count, room)
                }
                // A short read emptied the pipe: the next poll says when there is more (no read to hear EAGAIN).
                if count < scratch.count { return }
                continue
            }
            if count == 0 {
                if isStdout { stdoutOpen = false } else { stderrOpen = false }
            } else if errno == EINTR {
                continue
            }
            return
        }
    }
}

// Unqualified `read`, `write` and `kill` collide with methods of this class; these name the C functions.
@inline(__always) private func cRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

@inline(__always) private func cWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}

@inline(__always) private func cKill(_ pid: pid_t, _ signal: Int32) -> Int32 {
    kill(pid, signal)
}
