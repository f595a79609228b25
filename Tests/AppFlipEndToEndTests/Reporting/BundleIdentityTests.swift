import AppFlipCLI
import AppFlipDigest
import AppFlipEvidence
import AppFlipModel
import AppFlipReporting
import AppFlipSession
import AppFlipSystem
import AppFlipTestSupport
import Foundation
import Testing

/// What the reviewer can check of what was tested: the adapters' digests, who ran the suite and where, whether it
/// was a certification; and a re-run command that says what it needs and uses the bundle's own attestations.
@Suite("Bundle identity", .serialized)
struct BundleIdentityTests {
    private func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let captured = Captured()
        let status = Command.main(arguments, console: captured.console)
        return (status, captured.out, captured.err)
    }

    @Test("The adapter program and its script are hashed, the operator and host recorded, and verify shows them with what a re-run needs")
    func recorded() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = directory + "/adapter.py"
        let source =
            "import json, sys\nfor line in sys.stdin:\n    r = json.loads(line)\n    print(json.dumps({'id': r['id'], 'action': 'decline'}), flush=True)\n"
        try source.write(toFile: script, atomically: true, encoding: .utf8)
        try
            "attestations:\n  - requirement: AF-LINK-021\n    verdict: pass\n    by: Jane Reviewer\n    date: 2026-11-25\n    note: The consent screen names Google.\n"
            .write(toFile: directory + "/attest.txt", atomically: true, encoding: .utf8)
        let result = run([
            "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--filter", "app-link/baseline",
            "--operator", "Jane Partner, Example Ltd", "--target-label", "staging 4.2", "--attest", directory + "/attest.txt",
            "--bundle", directory + "/bundle.tar", "--reports", directory + "/reports",
            "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--", "python3", script,
        ])
        #expect(result.status == 1, "\(result.err.suffix(1500))")
        let document = try ResultsDocument.load(run: directory + "/reports").document
        let adapters = try #require(document.run.adapters)
        #expect(adapters.count == 2 && adapters.allSatisfy { $0.role == "link handler" }, "\(adapters)")
        #expect(adapters.last?.path == script && adapters.last?.sha256 == SHA256.hexDigest(Array(source.utf8)), "\(adapters)")
        #expect(adapters.first?.sha256?.count == 64, "the interpreter itself is hashed: \(adapters)")
        // Files of several MiB (read a MiB a call): the digests are those of their whole contents.
        let interpreter = try #require(adapters.first?.path)
        #expect(adapters.first?.sha256 == SHA256.hexDigest(try Data(contentsOf: URL(fileURLWithPath: interpreter))), "\(adapters)")
        let executable = try #require(Bundle.main.executablePath)
        #expect(document.run.executableSha256 == SHA256.hexDigest(try Data(contentsOf: URL(fileURLWithPath: executable))))
        #expect(document.run.runBy == "Jane Partner, Example Ltd" && document.run.host == Platform.hostName && !Platform.hostName.isEmpty)
        let markdown = try String(contentsOfFile: directory + "/reports/report.md", encoding: .utf8)
        #expect(markdown.contains("| Adapter | link handler: \(script) sha256 \(SHA256.hexDigest(Array(source.utf8))) |"), "\(markdown.suffix(2500))")
        #expect(markdown.contains("| Run by | Jane Partner, Example Ltd |"))
        let verify = run(["verify", directory + "/bundle.tar"])
        #expect(verify.status == 0, "\(verify.out)")
        #expect(verify.out.contains("certification run: no (an ordinary run; it certifies nothing)\ntarget label: staging 4.2\n"), "\(verify.out)")
        #expect(verify.out.contains("adapter: link handler: \(script) sha256 \(SHA256.hexDigest(Array(source.utf8)))"), "\(verify.out)")
        #expect(verify.out.contains("run by: Jane Partner, Example Ltd\nhost: "), "\(verify.out)")
        // The re-run is the reviewer's command with the reviewer's target; the bundle's command line is not offered to run.
        #expect(verify.out.contains(" verify \(directory)/bundle.tar --rerun TARGET-OPTIONS (name your target as for `run`"), "\(verify.out)")
        #expect(!verify.out.contains(directory + "/attest.txt"), "\(verify.out)")
        #expect(verify.out.contains("re-run needs: the adapters with the SHA-256 above, at any path"), "\(verify.out)")
    }

    @Test("Who ran it: --operator wins; else the CI job's URL from its own variables; else the user")
    func runBy() {
        #expect(AdapterDigests.runBy(given: "Jane", environment: ["USER": "root"]) == "Jane")
        let github = [
            "GITHUB_ACTIONS": "true", "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "acme/app",
            "GITHUB_RUN_ID": "42", "GITHUB_ACTOR": "dev", "USER": "runner",
        ]
        #expect(
            AdapterDigests.runBy(given: nil, environment: github) == "GitHub Actions job https://github.com/acme/app/actions/runs/42 (started by dev)"
        )
        #expect(
            AdapterDigests.runBy(given: nil, environment: ["CI_JOB_URL": "https://gitlab.example/acme/app/-/jobs/7"])
                == "GitLab CI job https://gitlab.example/acme/app/-/jobs/7")
        #expect(
            AdapterDigests.runBy(given: nil, environment: ["JENKINS_URL": "https://ci/", "BUILD_URL": "https://ci/job/x/3/"])
                == "Jenkins build https://ci/job/x/3/")
        #expect(AdapterDigests.runBy(given: nil, environment: ["USER": "alice"]) == "alice")
        #expect(AdapterDigests.runBy(given: nil, environment: [:]) == nil)
    }

    @Test("An adapter hashed before the first case and after the last: one that changes in between is said in every report, and certifies nothing")
    func adapterChangedDuringTheRun() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changing-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A correct app whose script rewrites itself once it has run: what was hashed at the end is not what ran.
        let script = directory + "/adapter.sh"
        try "#!/bin/sh\necho '# rewritten while the cases ran' >> \"$0\"\nexec \"\(BuiltProducts.path("appflip-reference"))\"\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        let run = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--filter", "app-link/baseline", "--quiet",
                "--reports", directory + "/reports", "--bundle", directory + "/b.tar", "--", "/bin/sh", script,
            ])
        #expect(run.output.contains("ADAPTER CHANGED: link handler \(script) hashed sha256 "), "\(run.output)")
        // No single program was tested: the run is inconclusive, whatever its cases say, and results.json says so.
        #expect(run.status == 3, "\(run.output)")
        let document = try ResultsDocument.load(run: directory + "/reports").document
        let adapter = try #require(document.run.adapters?.first { $0.path == script })
        #expect(adapter.sha256Before != nil && adapter.sha256Before != adapter.sha256, "\(adapter)")
        let markdown = try String(contentsOfFile: directory + "/reports/report.md", encoding: .utf8)
        #expect(markdown.contains("CHANGED DURING THE RUN: sha256 \(adapter.sha256Before ?? "-") before the first case"))
        #expect(document.outcome.exitCode == 3)
        // The bundle is honest about it and verifies, showing both digests; a certification of such a run would not be one.
        let verify = try ProgramRun.run(BuiltProducts.path("appflip-conformance"), ["verify", directory + "/b.tar"])
        #expect(verify.status == 0, "\(verify.output)")
        #expect(
            verify.output.contains("adapter: link handler: /bin/sh sha256 ")
                && verify.output.contains(
                    "\(script) sha256 \(adapter.sha256 ?? "-") CHANGED DURING THE RUN: sha256 \(adapter.sha256Before ?? "-") before"),
            "\(verify.output)")
        let program = CertificationProgram(key: "p", title: "P", profiles: [.appLink], covers: "c")
        let facts = [ProgramOutcome.CaseFacts(id: "app-link/x", profile: "app-link", verdict: .pass, untested: false, requirements: ["AF-LINK-002"])]
        let outcome = ProgramOutcome.judge(program, cases: facts, incomplete: false, shard: nil, changedAdapters: [script])
        #expect(outcome.status == .notCertified && outcome.failedBySuite && outcome.reason == "an adapter changed while the cases ran (\(script))")
    }
}
