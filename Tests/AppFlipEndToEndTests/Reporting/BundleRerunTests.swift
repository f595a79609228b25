import AppFlipCLI
import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

/// `verify --rerun`: the reviewer runs the bundle's own cases again, with its seed, against the target it records,
/// and every verdict is compared with the recorded one.
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
        let verify = run(["verify", directory + "/bundle.tar", "--rerun", "--reports", directory + "/again"])
        #expect(verify.status == 0, "\(verify.out)\n\(verify.err.suffix(1500))")
        #expect(verify.out.contains("re-run result: reproduced \(count) of \(count)\nverified"), "\(verify.out)")
        // The re-run's reports are kept where asked, and it ran exactly the bundle's cases with its seed.
        let again = try ResultsDocument.load(run: directory + "/again").document
        let recorded = try ResultsDocument.load(run: directory + "/reports").document
        #expect(again.cases.map(\.id) == recorded.cases.map(\.id))
        #expect(again.run.seed == recorded.run.seed)
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
        let verify = run(["verify", directory + "/bundle.tar", "--rerun"])
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
        let verify = run(["verify", directory + "/bundle.tar", "--rerun"])
        #expect(verify.status == 1)
        #expect(verify.out.contains("re-run result: NOT RUN: the link handler \(script) hashes sha256 "), "\(verify.out)")
        #expect(verify.out.contains("another program would be judged, so nothing was re-run"), "\(verify.out)")
        #expect(!verify.err.contains("re-running"), "nothing ran: \(verify.err)")
        #expect(verify.out.hasSuffix("NOT verified\n") || verify.out.hasSuffix("NOT verified"), "\(verify.out)")
    }

    @Test("The recorded command line becomes the re-run's: the bundle's suite, its seed, no shard or earlier run's files")
    func arguments() {
        let recorded = [
            "--link", "https://app.example/flip", "-v", "--seed", "7", "--shard", "2/3", "--rerun-failed", "old",
            "--reports", "R", "--bundle", "b.tar", "--sign-key", "k.pem", "--baseline", "base.txt", "--color", "always",
            "--cases", "mine", "--", "adapter", "--quiet", "--seed", "1",
        ]
        let words = BundleRerun.arguments(recorded, seed: 42, suite: "/x", reports: "/x/reports")
        #expect(
            words == [
                "--link", "https://app.example/flip", "--cases", "/x/cases", "--catalog", "/x/catalog/requirements.catalog",
                "--seed", "42", "--reports", "/x/reports", "--quiet", "--color", "never", "--", "adapter", "--quiet", "--seed", "1",
            ])
        // A certification takes the suite built into the binary, which `verify` has matched to the bundle's.
        let certification = BundleRerun.arguments(["--target", "reference", "--certification"], seed: 3, suite: "/x", reports: "/r")
        #expect(certification == ["--target", "reference", "--certification", "--seed", "3", "--reports", "/r", "--quiet", "--color", "never"])
    }

    @Test("--reports belongs to --rerun")
    func reportsWithoutRerun() {
        let result = run(["verify", "bundle.tar", "--reports", "somewhere"])
        #expect(result.status == 2 && result.err.contains("--reports is where --rerun writes its reports: give --rerun too"), "\(result.err)")
    }
}
