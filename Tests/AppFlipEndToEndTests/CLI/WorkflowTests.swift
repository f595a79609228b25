import AppFlipCLI
import AppFlipEvidence
import AppFlipModel
import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

/// The CI workflow around results.json: re-running only what failed, and comparing two runs.
@Suite("Re-runs and diffs", .serialized)
struct WorkflowTests {
    private func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let captured = Captured()
        let status = Command.main(arguments, console: captured.console)
        return (status, captured.out, captured.err)
    }

    private let paths = ["--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog]

    private func handlerRun(_ defect: String?, reports: String, extra: [String] = []) -> (status: Int32, out: String, err: String) {
        let handler = defect.map { ["--", BuiltProducts.path("broken-handler"), "--defect", $0] } ?? ["--", BuiltProducts.path("appflip-reference")]
        return run(
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link",
                "--reports", reports,
            ] + paths + extra + handler)
    }

    @Test("--rerun-failed runs exactly the cases that failed there; nothing to re-run, or no results, is exit 2")
    func rerunFailed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rerun-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = handlerRun("reencodes-state", reports: directory + "/first")
        #expect(first.status == 1)
        let failed = try ResultsDocument.parse(Data(contentsOf: URL(fileURLWithPath: directory + "/first/results.json")))
            .cases.filter { $0.verdict == "fail" || $0.verdict == "error" }.map(\.id)
        #expect(!failed.isEmpty)
        let again = handlerRun(nil, reports: directory + "/again", extra: ["--rerun-failed", directory + "/first"])
        #expect(again.status == 0, "\(again.err.suffix(1000))")
        let rerun = try ResultsDocument.parse(Data(contentsOf: URL(fileURLWithPath: directory + "/again/results.json")))
        #expect(Set(rerun.cases.map(\.id)) == Set(failed))
        // The fixed handler passed them all: nothing is left to re-run.
        let nothing = handlerRun(nil, reports: directory + "/third", extra: ["--rerun-failed", directory + "/again/results.json"])
        #expect(nothing.status == 2 && nothing.err.contains("nothing to re-run"), "\(nothing.err)")
        let missing = handlerRun(nil, reports: directory + "/fourth", extra: ["--rerun-failed", directory + "/no-such-run"])
        #expect(missing.status == 2 && missing.err.contains("cannot read"))

        // A failed case renamed since (formerly: its old ID) is re-run under its new ID.
        let cases = directory + "/cases"
        try FileManager.default.copyItem(atPath: PackageRoot.cases, toPath: cases)
        let entries = try ResultsDocument.parse(Data(contentsOf: URL(fileURLWithPath: directory + "/first/results.json"))).cases
        // The first failing case's file, a table: every row's ID gains "-renamed" before its key, and lists the old one.
        let entry = try #require(entries.first { $0.verdict == "fail" })
        let file = cases + "/" + (entry.file.components(separatedBy: "Conformance/cases/").last ?? entry.file)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let idLine = try #require(text.split(separator: "\n").first { $0.hasPrefix("id: ") && $0.hasSuffix("/${row.key}") })
        let template = String(idLine.dropFirst(4))
        try text.replacingOccurrences(
            of: String(idLine) + "\n",
            with: "id: \(template.dropLast("/${row.key}".count))-renamed/${row.key}\nformerly:\n  - \(template)\n"
        )
        .write(toFile: file, atomically: true, encoding: .utf8)
        let renamed = entry.id.replacingOccurrences(
            of: String(template.dropLast("/${row.key}".count)) + "/",
            with: String(template.dropLast("/${row.key}".count)) + "-renamed/")
        let afterRename = run([
            "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link",
            "--reports", directory + "/renamed", "--cases", cases, "--catalog", PackageRoot.catalog,
            "--rerun-failed", directory + "/first", "--", BuiltProducts.path("appflip-reference"),
        ])
        #expect(afterRename.status == 0, "\(afterRename.err.suffix(800))")
        let rerunRenamed = try ResultsDocument.parse(Data(contentsOf: URL(fileURLWithPath: directory + "/renamed/results.json")))
        #expect(rerunRenamed.cases.contains { $0.id == renamed && $0.formerly == [entry.id] }, "\(rerunRenamed.cases.map(\.id).prefix(5))")
        #expect(rerunRenamed.cases.count == failed.count, "\(rerunRenamed.cases.count) of \(failed.count)")
    }

    @Test("diff names what regressed (exit 1) and what was fixed (exit 0), case by case and per requirement")
    func diff() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(handlerRun(nil, reports: directory + "/good").status == 0)
        #expect(handlerRun("drops-state", reports: directory + "/bad").status == 1)
        let worse = run(["diff", directory + "/good", directory + "/bad"])
        #expect(worse.status == 1)
        #expect(worse.out.contains("REGRESSED: newly failing or in error"))
        #expect(worse.out.contains("app-link/baseline/valid-link: pass → fail"))
        #expect(worse.out.contains("AF-LINK-010 MUST: expected state echoed byte for byte after one decoding; observed no state parameter"))
        #expect(worse.out.contains("AF-LINK-010: pass → fail"))
        let better = run(["diff", directory + "/bad/results.json", directory + "/good"])
        #expect(better.status == 0, "\(better.out)")
        #expect(better.out.contains("0 regressed, ") && better.out.contains("app-link/baseline/valid-link: fail → pass"))
        let same = run(["diff", directory + "/good", directory + "/good"])
        #expect(same.status == 0 && same.out.contains("0 regressed, 0 fixed, 0 changed"))
        #expect(run(["diff", directory + "/good"]).status == 2)
        #expect(run(["diff", directory + "/good", directory + "/none"]).status == 2)
    }

    @Test("A failure observed differently, a known failure, and added or removed cases are told apart")
    func diffKinds() throws {
        var old = ResultsDocument(run: Fixtures.mixedRun(), profiles: ["app-link"], reproducible: true)
        var new = old
        // The failing case observes something else; the error case is now known; a case is added, one removed.
        new.cases[1].checks[0].observed = "opened https://other.example/"
        new.cases[3].knownFailure = ["case app-link/other/error (b:1, until 2099-01-01: later)"]
        var added = new.cases[0]
        added.id = "app-link/demo/new"
        new.cases.append(added)
        new.cases.remove(at: 4)
        old.cases[0].verdict = "warn"
        let diff = ResultsDiff(old: old, new: new)
        #expect(diff.evidenceChanged.map(\.id) == ["app-link/demo/fail"])
        #expect(diff.changed.map(\.id).sorted() == ["app-link/demo/pass", "app-link/other/error"], "\(diff.changed)")
        #expect(diff.added.map(\.id) == ["app-link/demo/new"])
        #expect(diff.removed.map(\.id) == ["app-link/other/skip"])
        #expect(!diff.hasRegression)
    }

    @Test("Shards are stable by ID hash (never by position), partition the cases, and merge into the unsharded verdict")
    func shardsAndMerge() throws {
        // The assignment is part of the contract: a CI matrix must not reshuffle when a release adds cases.
        #expect(Shard(parsing: "2/4")?.contains("app-link/baseline/valid-link") == true)
        #expect(Shard(parsing: "6/7")?.contains("app-link/baseline/valid-link") == true)
        #expect(Shard(parsing: "4/4")?.contains("native-client/pkce/fresh-per-request") == true)
        for text in ["0/3", "4/3", "3", "a/b", "1/0"] { #expect(Shard(parsing: text) == nil, "\(text)") }

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shards-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let whole = handlerRun("reencodes-state", reports: directory + "/whole", extra: ["--seed", "5", "--mode", "persistent"])
        var ids: [[String]] = []
        for index in 1...3 {
            _ = handlerRun(
                "reencodes-state", reports: directory + "/\(index)", extra: ["--seed", "5", "--mode", "persistent", "--shard", "\(index)/3"])
            ids.append(try ResultsDocument.load(run: directory + "/\(index)").document.cases.map(\.id))
        }
        let all = try ResultsDocument.load(run: directory + "/whole").document
        #expect(Set(ids.flatMap { $0 }) == Set(all.cases.map(\.id)))
        #expect(ids.flatMap { $0 }.count == all.cases.count, "the shards overlap")

        let merged = run(["merge", "--reports", directory + "/merged"] + paths + (1...3).map { directory + "/\($0)" })
        #expect(merged.status == whole.status && merged.status == 1, "\(merged.err)")
        let document = try ResultsDocument.load(run: directory + "/merged").document
        #expect(document.outcome.counts == all.outcome.counts)
        #expect(document.cases.map(\.id) == all.cases.map(\.id), "merged cases keep the suite's order")
        #expect(document.requirements.map(\.verdict) == all.requirements.map(\.verdict))
        #expect(document.run.arguments?.contains("--shard") == false)

        // Merged into one of its own shards (under another spelling of its path), or --reports given twice: refused, the
        // shard untouched.
        let before = try Data(contentsOf: URL(fileURLWithPath: directory + "/2/results.json"))
        let intoShard = run(["merge", "--reports", directory + "/./2/"] + paths + (1...3).map { directory + "/\($0)" })
        #expect(
            intoShard.status == 2 && intoShard.err.contains("holds the shard") && intoShard.err.contains("write them elsewhere"), "\(intoShard.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/2/results.json")) == before)
        let twice = run(["merge", "--reports", directory + "/a", "--reports", directory + "/b"] + paths + (1...3).map { directory + "/\($0)" })
        #expect(twice.status == 2 && twice.err.contains("--reports is given twice"), "\(twice.err)")

        let missing = run(["merge", "--reports", directory + "/partial"] + paths + [directory + "/1", directory + "/3"])
        #expect(missing.status == 2 && missing.err.contains("shard 2/3 missing"))
        _ = handlerRun("reencodes-state", reports: directory + "/other-seed", extra: ["--seed", "6", "--shard", "2/3"])
        let mixed = run(["merge", "--reports", directory + "/mixed"] + paths + [directory + "/1", directory + "/other-seed", directory + "/3"])
        #expect(mixed.status == 2 && mixed.err.contains("has another seed"), "\(mixed.err)")

        // A shard with its failing cases taken out: merge refuses it rather than give a clean verdict of part of the run.
        let tampered = directory + "/2-tampered"
        try FileManager.default.createDirectory(atPath: tampered, withIntermediateDirectories: true)
        var json = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/2/results.json"))) as? [String: Any])
        let cases = try #require(json["cases"] as? [[String: Any]])
        let kept = cases.filter { ($0["verdict"] as? String) != "fail" }
        #expect(kept.count < cases.count, "shard 2/3 has a failing case to take out")
        json["cases"] = kept
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: tampered + "/results.json"))
        // As taken out, the shard's own outcome contradicts its cases.
        let contradicted = run(["merge", "--reports", directory + "/removed"] + paths + [directory + "/1", tampered, directory + "/3"])
        #expect(contradicted.status == 2 && contradicted.err.contains("contradicts itself: results.json records the"), "\(contradicted.err)")
        // With the outcome brought in line too, the shard still lacks cases its run selects.
        var outcome = try #require(json["outcome"] as? [String: Any])
        var counts = try #require(outcome["counts"] as? [String: Int])
        counts["fail"] = 0
        outcome["counts"] = counts
        outcome["verdict"] = (counts["error"] ?? 0) > 0 ? "error" : (counts["warn"] ?? 0) > 0 ? "warn" : "pass"
        outcome["exit_code"] = (counts["error"] ?? 0) > 0 ? 3 : 0
        json["outcome"] = outcome
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: tampered + "/results.json"))
        let removed = run(["merge", "--reports", directory + "/removed"] + paths + [directory + "/1", tampered, directory + "/3"])
        #expect(removed.status == 2 && removed.err.contains("lacks") && removed.err.contains("cases were removed"), "\(removed.err)")

        // A shard run for another client (same seed, same split): not a shard of this run.
        _ = run(
            [
                "run", "--link", "https://app.example/flip", "--client-id", "another-client", "--profile", "app-link",
                "--reports", directory + "/other-client",
            ] + paths + [
                "--seed", "5", "--mode", "persistent", "--shard", "2/3", "--",
                BuiltProducts.path("broken-handler"), "--defect", "reencodes-state",
            ])
        let client = run(["merge", "--reports", directory + "/client"] + paths + [directory + "/1", directory + "/other-client", directory + "/3"])
        #expect(client.status == 2 && client.err.contains("has another command line"), "\(client.err)")
    }
}
