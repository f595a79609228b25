import AppFlipRunner
import AppFlipSystem
import AppFlipTestSupport
import Foundation
import Testing

/// No process a run starts outlives it, however it leaves: a daemon that cleared its environment (and so the
/// suite's mark), or a suite killed outright. And one run never ends another's handlers.
@Suite("Containment", .serialized)
struct ContainmentTests {
    @Test("Ending one target's processes leaves another target's handlers running (two runs in one process)")
    func scopes() {
        let marker = "scope-\(UUID().uuidString)"
        let kept = SubprocessTarget(executable: BuiltProducts.path("appflip-reference"), arguments: ["--client-id", marker], mode: .persistent)
        let ended = SubprocessTarget(executable: BuiltProducts.path("appflip-reference"), arguments: ["--client-id", "other"], mode: .persistent)
        let session = kept.makeSession()
        defer { session.close() }
        let request = HandlerRequest(id: "scope/1", link: "https://app.example/flip?state=s", scenario: .consent)
        _ = session.exchange(request, timeout: 10)
        #expect(InterruptionTests.processes(containing: marker) == 1, "the persistent handler should be running")
        ended.endProcesses()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(InterruptionTests.processes(containing: marker) == 1, "another target's end killed this target's handler")
        kept.endProcesses()
        #expect(Waiting.until(ceiling: 20) { InterruptionTests.processes(containing: marker) == 0 }, "the target's own end left its handler running")
    }

    @Test(
        "A daemon that clears its environment and leaves its session still ends with the run (Linux: child subreaper)",
        .enabled(if: ProcessSweep.isAvailable))
    func environmentClearingDaemon() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("orphan-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pidFile = directory + "/daemon.pid"
        // Double-forked, a new session, an empty environment: neither the group nor the mark can find it. It starts
        // a child of its own (orphaned again when the daemon is killed) and records both pids.
        let script =
            SubprocessFaultTests.readID
            + #" (setsid env -i /bin/sh -c 'sleep 60 & echo "$$ $!" > "$0"; wait' "$1" < /dev/null > /dev/null 2>&1 &) ; "#
            + #"while [ ! -s "$1" ]; do sleep 0.05; done; printf '{"id":"%s","action":"decline"}\n' "$id""#
        let (_, text) = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link",
                "--filter", "app-link/client-id/repeated-same", "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog,
                "--reports", directory, "--", "/bin/sh", "-c", script, "sh", pidFile,
            ])
        let pids = try String(contentsOfFile: pidFile, encoding: .utf8).split(separator: " ").compactMap {
            pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(pids.count == 2, "the daemon never started: \(text)")
        let deadline = Date().addingTimeInterval(3)
        while pids.contains(where: Self.alive), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        for pid in pids {
            #expect(!Self.alive(pid), "pid \(pid) of the daemon outlived the run")
            if Self.alive(pid) { kill(pid, SIGKILL) }
        }
    }

    @Test(
        "A daemon left by one case (its own session, its mark kept) is ended before the next case starts",
        .enabled(if: ProcessSweep.isAvailable))
    func daemonEndedPerCase() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("per-case-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pidFile = directory + "/daemon.pid"
        let seen = directory + "/seen"
        // Each case's handler first notes whether the previous case's daemon still runs (a zombie waiting for the
        // suite to reap it has ended), then starts its own.
        let script =
            SubprocessFaultTests.readID
            + #" if [ -s "$1" ]; then state=$(cut -d' ' -f3 "/proc/$(cat "$1")/stat" 2>/dev/null); "#
            + #"if [ -n "$state" ] && [ "$state" != Z ]; then echo alive >> "$2"; else echo gone >> "$2"; fi; fi; "#
            + #"rm -f "$1"; (setsid /bin/sh -c 'echo $$ > "$0"; exec sleep 60' "$1" < /dev/null > /dev/null 2>&1 &) ; "#
            + #"while [ ! -s "$1" ]; do sleep 0.02; done; printf '{"id":"%s","action":"decline"}\n' "$id""#
        let (_, text) = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link", "--jobs", "1",
                "--filter", "app-link/client-id/*", "--reports", directory, "--", "/bin/sh", "-c", script, "sh", pidFile, seen,
            ])
        let lines = try String(contentsOfFile: seen, encoding: .utf8).split(separator: "\n")
        #expect(lines.count >= 2, "\(text)")
        #expect(lines.allSatisfy { $0 == "gone" }, "a daemon outlived its case: \(lines)")
        if let pid = pid_t((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") {
            #expect(!Self.alive(pid), "the last case's daemon outlived the run")
        }
    }

    @Test("Skipping the per-case sweep is only for a subreaper: a process that is not one (this test process) always sweeps")
    func noSkipWithoutSubreaper() {
        // Orphans of a process that is not a subreaper go to init, so having no child proves nothing there.
        #expect(!ProcessSweep.hasNoDescendants())
    }

    @Test("A suite killed outright (SIGKILL) takes its handlers with it (Linux: parent-death signal)", .enabled(if: ProcessSweep.isAvailable))
    func suiteKilled() throws {
        let marker = "killed-\(UUID().uuidString)"
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent(marker).path
        defer { try? FileManager.default.removeItem(atPath: reports) }
        let process = try InterruptionTests.hangingRun(marker: marker, reports: reports, errors: FileHandle.nullDevice)
        #expect(Waiting.until { InterruptionTests.handlerRunning(marker) }, "the hanging handlers should be running before the kill")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // The handlers hang for 60 s: gone well before that, they went with the suite.
        #expect(Waiting.until(ceiling: 20) { InterruptionTests.processes(containing: marker) == 0 }, "a handler outlived the killed suite")
    }

    /// Whether `pid` is a running process (a zombie waiting for its parent counts as ended).
    static func alive(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat"),
            let close = stat.lastIndex(of: UInt8(ascii: ")"))
        else { return true }
        return stat[stat.index(after: close)...].split(separator: UInt8(ascii: " ")).first != [UInt8(ascii: "Z")][...]
    }
}
