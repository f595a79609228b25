import AppFlipDigest
import AppFlipEvidence
import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

/// What was tested is named by digest, whatever a run is labelled: the suite's own reference adapters say so, an
/// adapter that changed during a certification leaves it unverified, and shards of one run tested one build with
/// one set of adapters.
@Suite("Adapter identity", .serialized)
struct AdapterIdentityTests {
    private func scratch(_ name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("The suite's reference app under a partner's label is named as the suite's own in the reports and by verify")
    func referenceUnderALabel() throws {
        let directory = try scratch("reference-label")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--filter", "app-link/baseline", "--quiet",
                "--target-label", "Partner iOS app 4.2", "--reports", directory + "/reports", "--bundle", directory + "/b.tar", "--",
                BuiltProducts.path("appflip-reference"),
            ])
        #expect(run.status == 0, "\(run.output)")
        let marker = "(the suite's own reference adapter, not a partner's app)"
        let markdown = try String(contentsOfFile: directory + "/reports/report.md", encoding: .utf8)
        let row = markdown.split(separator: "\n").first { $0.hasPrefix("| Adapter | link handler: ") }
        #expect(row?.contains("appflip-reference sha256 ") == true && row?.contains(marker) == true, "\(row ?? "no adapter row")")
        let document = try ResultsDocument.load(run: directory + "/reports").document
        #expect(document.run.adapters?.first?.suiteReference == true)
        let verify = try ProgramRun.run(BuiltProducts.path("appflip-conformance"), ["verify", directory + "/b.tar"])
        #expect(verify.status == 0 && verify.output.contains("target label: Partner iOS app 4.2\n"), "\(verify.output)")
        #expect(verify.output.contains("adapter: link handler: \(BuiltProducts.path("appflip-reference")) sha256 "), "\(verify.output)")
        #expect(verify.output.contains(marker), "\(verify.output)")
        // A partner's own adapter is not so named.
        let script = directory + "/adapter.sh"
        try "#!/bin/sh\nexec \"\(BuiltProducts.path("appflip-reference"))\"\n".write(toFile: script, atomically: true, encoding: .utf8)
        let own = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--filter", "app-link/baseline", "--quiet",
                "--reports", directory + "/own", "--", "/bin/sh", script,
            ])
        #expect(own.status == 0, "\(own.output)")
        #expect(!(try String(contentsOfFile: directory + "/own/report.md", encoding: .utf8)).contains(marker))
    }

    @Test("A certification whose native client changed while its cases ran: inconclusive (exit 3), and verify shows both digests, NOT verified")
    func changedDuringACertification() throws {
        let directory = try scratch("changed-certification")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = directory + "/client.sh"
        try
            "#!/bin/sh\necho '# rewritten while the cases ran' >> \"$0\"\nexec \"\(BuiltProducts.path("appflip-conformance"))\" reference-native-client --redirect scheme \"$@\"\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        let run = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--target", "reference", "--certification", "native-client", "--quiet", "--reports", directory + "/reports",
                "--bundle", directory + "/b.tar",
            ])
        #expect(run.status == 0, "\(run.output)")
        // The same certification with the self-rewriting client in place of the reference's.
        let changed = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--certification", "native-client", "--client-id", "google-client", "--quiet", "--reports", directory + "/changed",
                "--bundle", directory + "/changed.tar", "--native-client", "/bin/sh", "--native-client-arg", script,
            ])
        #expect(changed.status == 3, "\(changed.output)")
        #expect(changed.output.contains("ADAPTER CHANGED: native client \(script)"), "\(changed.output)")
        let verify = try ProgramRun.run(BuiltProducts.path("appflip-conformance"), ["verify", directory + "/changed.tar"])
        #expect(verify.status == 1, "\(verify.output)")
        #expect(
            verify.output.contains("PROBLEM the certification's native client \(script) changed while its cases ran (sha256 "),
            "\(verify.output)")
        #expect(verify.output.contains("CHANGED DURING THE RUN: sha256 "), "\(verify.output)")
        #expect(verify.output.hasSuffix("NOT verified\n"), "\(verify.output)")
    }

    @Test("merge refuses shards judged by different suite executables, or that tested adapters with other digests")
    func shardsOfOneBuild() throws {
        let directory = try scratch("shard-build")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for shard in 1...2 {
            let result = try ProgramRun.run(
                BuiltProducts.path("appflip-conformance"),
                [
                    "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link", "--seed", "4",
                    "--shard", "\(shard)/2", "--quiet", "--reports", directory + "/shard-\(shard)", "--", BuiltProducts.path("appflip-reference"),
                ])
            #expect(result.status == 0, "\(result.output)")
        }
        let shards = [directory + "/shard-1", directory + "/shard-2"]
        let merged = try ProgramRun.run(BuiltProducts.path("appflip-conformance"), ["merge", "--reports", directory + "/merged"] + shards)
        #expect(merged.status == 0, "\(merged.output)")
        let original = try String(contentsOfFile: directory + "/shard-2/results.json", encoding: .utf8)
        let document = try ResultsDocument.load(run: directory + "/shard-2").document
        let executable = try #require(document.run.executableSha256)
        let adapter = try #require(document.run.adapters?.first?.sha256)
        for (digest, what) in [(executable, "suite executable"), (adapter, "adapters")] {
            let other = String(repeating: "0", count: 64)
            try original.replacingOccurrences(of: "\"\(digest)\"", with: "\"\(other)\"")
                .write(toFile: directory + "/shard-2/results.json", atomically: true, encoding: .utf8)
            let refused = try ProgramRun.run(BuiltProducts.path("appflip-conformance"), ["merge", "--reports", directory + "/refused"] + shards)
            #expect(refused.status == 2, "\(what): \(refused.output)")
            #expect(refused.output.contains("has another \(what) than"), "\(what): \(refused.output)")
        }
    }

    @Test("Files an adapter depends on are pinned (--adapter-file, adapter_files) with the build (--target-version); a re-run must name them")
    func pinnedFiles() throws {
        let directory = try scratch("pinned")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The adapter's behaviour comes from a module its command line does not name.
        let module = directory + "/staging_client.txt"
        try "reference\n".write(toFile: module, atomically: true, encoding: .utf8)
        let script = directory + "/adapter.sh"
        try "#!/bin/sh\nread -r mode < \"$(dirname \"$0\")/staging_client.txt\"\nexec \"\(BuiltProducts.path("appflip-reference"))\"\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        try "client_id: google-client\nlink: https://app.example/flip\ntarget_version: 4.2.0 (build 77)\nadapter_files: [\"\(module)\"]\n"
            .write(toFile: directory + "/target.conf", atomically: true, encoding: .utf8)
        let run = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--config", directory + "/target.conf", "--filter", "app-link/baseline", "--quiet", "--reports", directory + "/reports",
                "--bundle", directory + "/b.tar", "--", "/bin/sh", script,
            ])
        #expect(run.status == 0, "\(run.output)")
        let document = try ResultsDocument.load(run: directory + "/reports").document
        #expect(document.run.targetVersion == "4.2.0 (build 77)")
        let pinned = try #require(document.run.adapters?.first { $0.role == "adapter file" }, "\(document.run.adapters ?? [])")
        #expect(pinned.path == module && pinned.sha256 == SHA256.hexDigest(Array("reference\n".utf8)))
        let markdown = try String(contentsOfFile: directory + "/reports/report.md", encoding: .utf8)
        #expect(markdown.contains("| Target version | 4.2.0 (build 77) |"), "\(markdown.suffix(2500))")
        let verify = try ProgramRun.run(BuiltProducts.path("appflip-conformance"), ["verify", directory + "/b.tar"])
        #expect(verify.status == 0 && verify.output.contains("target version: 4.2.0 (build 77)\n"), "\(verify.output)")
        #expect(verify.output.contains("adapter: adapter file: \(module) sha256 "), "\(verify.output)")
        // The reviewer's re-run must name the same module, at any path, by the same bytes.
        let target = ["--link", "https://app.example/flip", "--client-id", "google-client"]
        let unnamed = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"), ["verify", directory + "/b.tar", "--rerun"] + target + ["--", "/bin/sh", script])
        #expect(unnamed.status == 1 && unnamed.output.contains("the bundle records the adapter file \(module)"), "\(unnamed.output)")
        let copy = directory + "/elsewhere.txt"
        try "reference\n".write(toFile: copy, atomically: true, encoding: .utf8)
        let named = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            ["verify", directory + "/b.tar", "--rerun", "--adapter-file", copy] + target + ["--", "/bin/sh", script])
        #expect(named.status == 0 && named.output.contains("re-run result: reproduced "), "\(named.output)")
        try "declining\n".write(toFile: copy, atomically: true, encoding: .utf8)
        let other = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            ["verify", directory + "/b.tar", "--rerun", "--adapter-file", copy] + target + ["--", "/bin/sh", script])
        #expect(other.status == 1 && other.output.contains("your adapter file \(copy) hashes sha256 "), "\(other.output)")
        // A pinned file that is not there is a usage error before anything runs.
        let missing = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"), ["run", "--adapter-file", directory + "/none.py"] + target + ["--", "/bin/sh", script])
        #expect(missing.status == 2 && missing.output.contains("is not a regular file"), "\(missing.output)")
    }
}
