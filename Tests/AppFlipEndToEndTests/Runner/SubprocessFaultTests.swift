import AppFlipModel
import AppFlipRunner
import AppFlipSystem
import AppFlipTestSupport
import Foundation
import Testing

/// Handlers that misbehave in every way a handler under development does. Each must yield an `error` for that
/// request only, within the time limit plus a small margin, in bounded memory, with no process left behind.
@Suite("Subprocess faults", .serialized)
struct SubprocessFaultTests {
    /// A handler written as a shell script; `$id` is the request's id, so scripts can answer well-formed lines.
    static let readID = #"read -r line; id=$(printf '%s' "$line" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p');"#

    struct Fault: Sendable, CustomTestStringConvertible {
        var name: String
        var script: String
        var message: String
        var testDescription: String { name }
    }

    static let faults: [Fault] = [
        Fault(
            name: "partial line then silence", script: readID + #" printf '{"id":"%s","act' "$id"; sleep 30"#,
            message: "only a partial answer line"),
        Fault(
            name: "one byte per second", script: readID + #" for c in a b c d e f g h i j; do printf %s "$c"; sleep 1; done"#,
            message: "timed out"),
        Fault(name: "exits before answering", script: readID + " exit 3", message: "exited with status 3"),
        Fault(name: "killed by a signal", script: readID + " kill -SEGV $$", message: "SIGSEGV"),
        Fault(name: "closes stdin and stdout at once", script: "exec 0<&- 1>&-; sleep 30", message: "closed its"),
        Fault(
            name: "invalid UTF-8", script: readID + #" printf '{"id":"%s","action":"decline","x":"\377"}\n' "$id""#,
            message: "not valid UTF-8"),
        Fault(name: "wrong id", script: readID + #" printf '{"id":"someone-else","action":"decline"}\n'"#, message: "not for the request sent"),
        Fault(name: "missing id", script: readID + #" printf '{"action":"decline"}\n'"#, message: "no string \"id\""),
        Fault(name: "ignores SIGTERM and hangs", script: "trap '' TERM; " + readID + " sleep 30", message: "timed out"),
        Fault(name: "a line of 100 MB", script: readID + " head -c 104857600 /dev/zero | tr '\\\\0' x", message: "exceeded"),
    ]

    private func request(_ id: String = "fault/case") -> HandlerRequest {
        HandlerRequest(id: id, link: "https://app.example/flip?state=s", scenario: .consent)
    }

    @Test("Each fault is an error with a precise message, within the time limit plus a margin", arguments: faults)
    func fault(_ fault: Fault) {
        let marker = "fault-\(UUID().uuidString)"  // $0 of the script, so its processes can be found
        let target = SubprocessTarget(executable: "/bin/sh", arguments: ["-c", fault.script, marker], mode: .oneShot)
        let session = target.makeSession()
        defer { session.close() }
        let started = Date()
        let exchange = session.exchange(request(), timeout: 2)
        let elapsed = Date().timeIntervalSince(started)
        #expect(exchange.answer == nil)
        #expect(exchange.failure?.contains(fault.message) == true, "\(exchange.failure ?? "no failure")")
        #expect(elapsed < 20, "took \(elapsed) s")  // the faults sleep 30 s: a run that waited for them would reach it
        #expect(exchange.rawAnswer.utf8.count <= 8192, "evidence is bounded")
        #expect(InterruptionTests.processes(containing: marker) == 0, "a process outlived the request")
    }

    @Test("100 MB on stderr next to a good answer: the answer counts, the log is cut with a marker")
    func floodedStderr() {
        let script = Self.readID + #" head -c 104857600 /dev/zero >&2; printf '{"id":"%s","action":"decline"}\n' "$id""#
        let target = SubprocessTarget(executable: "/bin/sh", arguments: ["-c", script], mode: .oneShot)
        let session = target.makeSession()
        defer { session.close() }
        let exchange = session.exchange(request(), timeout: 10)
        #expect(exchange.answer?.action == .decline, "\(exchange.failure ?? "")")
        #expect(exchange.log.contains("[stderr truncated"))
        #expect(exchange.log.utf8.count < 128 * 1024)
    }

    @Test("A grandchild that keeps the pipes open is ended with its group")
    func grandchild() {
        let marker = "grandchild-\(UUID().uuidString)"
        let script = Self.readID + " sh -c 'sleep 60 # \(marker)' & printf '{\"id\":\"%s\",\"action\":\"decline\"}\\n' \"$id\"; sleep 60"
        let target = SubprocessTarget(executable: "/bin/sh", arguments: ["-c", script], mode: .oneShot)
        let session = target.makeSession()
        let started = Date()
        let exchange = session.exchange(request(), timeout: 5)
        session.close()
        #expect(exchange.answer?.action == .decline, "\(exchange.failure ?? "")")
        #expect(Date().timeIntervalSince(started) < 30)  // the grandchild sleeps 60 s
        #expect(InterruptionTests.processes(containing: marker) == 0, "the grandchild outlived the case")
    }

    @Test(
        "A handler that tries to move into its child's process group, and the child, are both ended: no wait without a deadline",
        .enabled(if: TLSFixture.python3 != nil))
    func groupEscape() throws {
        let marker = "escape-\(UUID().uuidString)"
        // The child takes a group of its own; the parent then tries to join it, so that its own group would be empty
        // (kill(-pid) fails). A handler leads a session of its own, where the system refuses that move: the attempt
        // is made, and whatever it gives, the child's group must end with the case.
        let program = """
            import os, sys, time
            child = os.fork()
            if child == 0:
                os.setpgid(0, 0)
                os.execvp("sleep", ["sleep", "60", "\(marker)"])
            time.sleep(0.3)
            try:
                os.setpgid(0, child)
            except OSError:
                pass
            line = sys.stdin.readline()
            request_id = line.split('"id":"')[1].split('"')[0]
            print('{"id":"%s","action":"decline"}' % request_id, flush=True)
            time.sleep(60)
            """
        let target = SubprocessTarget(
            executable: try #require(TLSFixture.python3), arguments: ["-c", program, marker], mode: .oneShot,
            environment: ["PATH=/usr/bin:/bin"])
        let session = target.makeSession()
        let started = Date()
        let exchange = session.exchange(request(), timeout: 5)
        session.close()
        #expect(exchange.answer?.action == .decline, "\(exchange.failure ?? "")")
        #expect(Date().timeIntervalSince(started) < 30)  // the daemon sleeps 60 s
        #expect(InterruptionTests.processes(containing: marker) == 0, "a process outlived the case")
    }

    @Test("A handler that starts a daemon (a new session, double-forked) leaves nothing behind")
    func daemon() {
        let marker = "daemon-\(UUID().uuidString)"
        let script =
            Self.readID + " (setsid sh -c 'sleep 60 # \(marker)' < /dev/null > /dev/null 2>&1 &) ; "
            + "printf '{\"id\":\"%s\",\"action\":\"decline\"}\\n' \"$id\""
        let target = SubprocessTarget(executable: "/bin/sh", arguments: ["-c", script], mode: .oneShot)
        let session = target.makeSession()
        let exchange = session.exchange(request(), timeout: 5)
        session.close()
        // What the run does at its end: every process carrying the target's mark is swept. On a loaded machine the
        // daemon can be forked after the case's own sweep, and even after a sweep made at once (the subshell that
        // forks it may not have run yet): the run's end comes long after its last case, so the sweep here waits until
        // the daemon is there (or 5 s). It sleeps 60 s, so one that escaped is still there at the ceiling.
        _ = Waiting.until(ceiling: 5) { InterruptionTests.processes(containing: marker) > 0 }
        target.endProcesses()
        #expect(exchange.answer?.action == .decline, "\(exchange.failure ?? "")")
        #expect(Waiting.until(ceiling: 20) { InterruptionTests.processes(containing: marker) == 0 }, "the daemon outlived the run")
    }

    @Test(
        "A handler whose descendants keep forking while they are swept leaves nothing behind",
        .enabled(if: ProcessSweep.isAvailable))
    func forkingWhileSwept() {
        // The handler answers and exits while a background loop is still starting sleepers: children are forked
        // while the sweep reads /proc, after the directory was listed. A single pass kills the loop and orphans them.
        let marker = "61.\(UInt32.random(in: 100_000...999_999))"
        let script =
            Self.readID + " (i=0; while [ $i -lt 300 ]; do sleep \(marker) & i=$((i+1)); done) & "
            + "printf '{\"id\":\"%s\",\"action\":\"decline\"}\\n' \"$id\""
        let target = SubprocessTarget(executable: "/bin/sh", arguments: ["-c", script], mode: .oneShot)
        let session = target.makeSession()
        let exchange = session.exchange(request(), timeout: 5)
        session.close()
        #expect(exchange.answer?.action == .decline, "\(exchange.failure ?? "")")
        #expect(InterruptionTests.processes(containing: "sleep \(marker)") == 0, "a sleeper outlived the case")
    }

    @Test("A persistent handler's start-up is not charged to its first case: a slow start within the allowance answers")
    func startupAllowance() {
        // Takes 2 s to start, then answers at once; the case's own timeout is 1 s.
        let script =
            "sleep 2; while " + Self.readID.replacingOccurrences(of: "read -r line;", with: "read -r line; do")
            + #" printf '{"id":"%s","action":"decline"}\n' "$id"; done"#
        let target = SubprocessTarget(executable: "/bin/sh", arguments: ["-c", script], mode: .persistent)
        let session = target.makeSession()
        defer { session.close() }
        let first = session.exchange(request("a"), timeout: 1)
        #expect(first.answer?.action == .decline, "\(first.failure ?? "")")
        let second = session.exchange(request("b"), timeout: 1)
        #expect(second.answer?.action == .decline, "\(second.failure ?? "")")
        // The report shows the allowance and that this start needed it.
        let report = target.startupReport(timeout: 1)
        #expect(report?.policy.contains("10 s to start on top of its first case's 1 s") == true, "\(String(describing: report))")
        #expect(report?.measured?.contains("1 first start, the slowest answered after 2") == true, "\(String(describing: report))")
        #expect(report?.measured?.contains("the allowance was used") == true, "\(String(describing: report))")
        var strict = target
        strict.startupAllowance = 0
        let impatient = strict.makeSession()
        defer { impatient.close() }
        #expect(impatient.exchange(request("c"), timeout: 1).failure != nil, "without the allowance the start-up is a timeout")
    }

    @Test("A persistent handler that crashes is restarted for the next request")
    func persistentRestart() {
        // Answers the first request, crashes on the second; a fresh process answers the third.
        let script =
            #"n=0; while read -r line; do n=$((n+1)); id=$(printf '%s' "$line" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p'); "#
            + #"if [ -f "$TMPDIR/crashed-$PPID" ] || [ $n -ne 2 ]; then printf '{"id":"%s","action":"decline"}\n' "$id"; "#
            + #"else : > "$TMPDIR/crashed-$PPID"; kill -KILL $$; fi; done"#
        let target = SubprocessTarget(
            executable: "/bin/sh", arguments: ["-c", script], mode: .persistent,
            environment: ["PATH=/usr/bin:/bin", "TMPDIR=" + FileManager.default.temporaryDirectory.path])
        let session = target.makeSession()
        defer { session.close() }
        #expect(session.exchange(request("a"), timeout: 3).answer != nil)
        #expect(session.exchange(request("b"), timeout: 3).failure?.contains("SIGKILL") == true)
        #expect(session.exchange(request("c"), timeout: 3).answer?.action == .decline)
    }

    @Test("Two answer lines for one request in one-shot mode are an error for that request")
    func extraAnswerOneShot() {
        let script = Self.readID + #" printf '{"id":"%s","action":"decline"}\n{"id":"%s","action":"decline"}\n' "$id" "$id""#
        let session = SubprocessTarget(executable: "/bin/sh", arguments: ["-c", script], mode: .oneShot).makeSession()
        defer { session.close() }
        let exchange = session.exchange(request(), timeout: 3)
        #expect(exchange.answer == nil)
        #expect(exchange.failure?.contains("more than one answer line") == true, "\(exchange.failure ?? "")")
    }

    @Test("In persistent mode an extra answer is charged to the request it followed, not to the next one")
    func extraAnswerPersistent() throws {
        // Answers the first request twice, every later request once.
        let script =
            #"n=0; while read -r line; do n=$((n+1)); id=$(printf '%s' "$line" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p'); "#
            + #"printf '{"id":"%s","action":"decline"}\n' "$id"; if [ $n -eq 1 ]; then printf '{"id":"%s","action":"decline"}\n' "$id"; fi; done"#
        let target = SubprocessTarget(executable: "/bin/sh", arguments: ["-c", script], mode: .persistent)
        let cases = try SuiteRun.load().1.cases.filter { $0.id.hasPrefix("app-link/redirect-uri/rejected/") }.prefix(3)
        let runner = Runner(configuration: SuiteRun.configuration, timeout: 3, jobs: 1)
        let results = runner.run(Array(cases), on: target)
        #expect(results.map(\.verdict) == [.error, .pass, .pass], "\(results.map { "\($0.verdict): \($0.message ?? "")" })")
        let message = results.first?.message ?? ""
        #expect(message.contains("wrote more after its answer") || message.contains("a second time"), "\(message)")
    }
}
