import AppFlipCLI
import AppFlipDigest
import AppFlipEvidence
import AppFlipModel
import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

/// Whoever reads a results.json derives again what it can derive: every derived field of results.json, every fact the
/// three reports share and every attestation, each edited alone (the manifest's hashes brought in line, as a forger
/// would), is named by `verify`; the edited results.json alone is refused by `merge` and `diff`.
@Suite("Derived fields", .serialized)
struct DerivedFieldsTests {
    /// A real run with failures and an attestation with an attachment, its reports and its bundle, made once.
    final class Fixture: Sendable {
        let directory: String
        let bundle: [UInt8]

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("derived-\(UUID().uuidString)").path
            try AttestationFixture.write(in: directory)
            let status = Command.main(
                [
                    "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link",
                    "--filter", "app-link/client-id", "--reports", directory + "/R", "--bundle", directory + "/evidence.tar",
                    "--attest", directory + "/attest.txt", "--reproducible",
                ] + DerivedFieldsTests.paths
                    + ["--", BuiltProducts.path("broken-handler"), "--defect", "no-client-check"], console: Captured().console)
            guard status == 1 else { throw CocoaError(.featureUnsupported) }
            bundle = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/evidence.tar")))
        }
    }

    static let paths = ["--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog]
    static let fixture = Result { try Fixture() }

    /// results.json as JSON to edit.
    typealias JSON = [String: Any]

    /// One forgery: which file, how it is edited, and what the problem named must say.
    struct Forgery: Sendable, CustomTestStringConvertible {
        var name: String
        var path: String
        var edit: @Sendable ([UInt8]) throws -> [UInt8]
        var expected: String
        var testDescription: String { name }
    }

    /// An edit of results.json through its JSON.
    static func json(_ change: @escaping @Sendable (inout JSON) -> Void) -> @Sendable ([UInt8]) throws -> [UInt8] {
        { bytes in
            var object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? JSON)
            change(&object)
            return try [UInt8](JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]))
        }
    }

    /// An edit of a text file.
    static func text(_ change: @escaping @Sendable (String) -> String) -> @Sendable ([UInt8]) throws -> [UInt8] {
        { Array(change(String(decoding: $0, as: UTF8.self)).utf8) }
    }

    /// The cases of results.json, edited by `change` (index, case).
    static func cases(_ change: @escaping @Sendable (Int, inout JSON) -> Void) -> @Sendable (inout JSON) -> Void {
        { object in
            var cases = object["cases"] as? [JSON] ?? []
            for index in cases.indices { change(index, &cases[index]) }
            object["cases"] = cases
        }
    }

    /// The requirements of results.json, each edited by `change`.
    static func requirements(_ change: @escaping @Sendable (inout JSON) -> Void) -> @Sendable (inout JSON) -> Void {
        { object in
            var requirements = object["requirements"] as? [JSON] ?? []
            for index in requirements.indices { change(&requirements[index]) }
            object["requirements"] = requirements
        }
    }

    /// Every failing case made a pass, with the outcome, counts and requirements brought in line with that.
    static let passEverything: @Sendable (inout JSON) -> Void = { object in
        cases { _, entry in if entry["verdict"] as? String == "fail" { entry["verdict"] = "pass" } }(&object)
        let total = (object["cases"] as? [JSON])?.count ?? 0
        object["outcome"] = [
            "verdict": "pass", "exit_code": 0, "configuration_problems": [String](),
            "counts": ["pass": total, "info": 0, "warn": 0, "skip": 0, "fail": 0, "error": 0],
        ]
        requirements { if $0["verdict"] as? String == "fail" { $0["verdict"] = "pass" } }(&object)
    }

    static let resultsForgeries: [Forgery] = [
        Forgery(
            name: "every failing case set to pass, the outcome and requirements in line", path: "reports/results.json",
            edit: json(passEverything), expected: "records the verdict pass, but its checks make it fail"),
        Forgery(
            name: "a failing MUST check made a SHOULD warning, its case a warning", path: "reports/results.json",
            edit: json(
                cases { _, entry in
                    guard entry["verdict"] as? String == "fail" else { return }
                    entry["verdict"] = "warn"
                    entry["checks"] = (entry["checks"] as? [JSON] ?? []).map { check in
                        var check = check
                        if check["verdict"] as? String == "fail" {
                            check["verdict"] = "warn"
                            check["level"] = "SHOULD"
                        }
                        return check
                    }
                }), expected: "but the requirement is MUST"),
        Forgery(
            name: "a MUST check's failure worse than its level allows", path: "reports/results.json",
            edit: json(
                cases { _, entry in
                    entry["checks"] = (entry["checks"] as? [JSON] ?? []).map { check in
                        var check = check
                        if check["verdict"] as? String == "pass" { check["verdict"] = "error" }
                        return check
                    }
                }), expected: "which a check cannot have"),
        Forgery(
            name: "a passing case set to fail", path: "reports/results.json",
            edit: json { object in
                var cases = object["cases"] as? [JSON] ?? []
                if let first = cases.firstIndex(where: { $0["verdict"] as? String == "pass" }) { cases[first]["verdict"] = "fail" }
                object["cases"] = cases
            }, expected: "no MUST check failed"),
        Forgery(
            name: "the outcome's exit code", path: "reports/results.json",
            edit: json { object in
                var outcome = object["outcome"] as? JSON ?? [:]
                outcome["exit_code"] = 0
                object["outcome"] = outcome
            },
            expected: "records exit 0, but its cases make it exit 1"),
        Forgery(
            name: "the outcome's counts", path: "reports/results.json",
            edit: json { object in
                var outcome = object["outcome"] as? JSON ?? [:]
                var counts = outcome["counts"] as? [String: Int] ?? [:]
                counts["fail"] = 0
                outcome["counts"] = counts
                object["outcome"] = outcome
            }, expected: "records the counts"),
        Forgery(
            name: "a requirement's verdict", path: "reports/results.json",
            edit: json(requirements { if $0["verdict"] as? String == "fail" { $0["verdict"] = "pass" } }), expected: "but its cases make it fail"),
        Forgery(
            name: "a requirement's case count", path: "reports/results.json",
            edit: json(requirements { if $0["verdict"] as? String == "pass" { $0["cases"] = 99 } }), expected: "over 99 cases"),
        Forgery(
            name: "a profile's counts", path: "reports/results.json",
            edit: json { object in
                object["profiles"] = (object["profiles"] as? [JSON] ?? []).map { profile in
                    var profile = profile
                    profile["judged"] = 3
                    return profile
                }
            }, expected: "records profile app-link with 3 of"),
        Forgery(
            name: "a requirement marked attested otherwise", path: "reports/results.json",
            edit: json(requirements { if $0["attested"] != nil { $0["attested"] = "pass" } }), expected: "marks AF-LINK-021 attested pass"),
        Forgery(
            name: "an attestation's verdict in results.json only (and the requirement's mark)", path: "reports/results.json",
            edit: json { object in
                object["attestations"] = (object["attestations"] as? [JSON] ?? []).map { entry in
                    var entry = entry
                    entry["verdict"] = "pass"
                    return entry
                }
                requirements { if $0["attested"] != nil { $0["attested"] = "pass" } }(&object)
            }, expected: "otherwise than attestations/attestations.txt gives it"),
        Forgery(
            name: "an attestation dropped from results.json", path: "reports/results.json",
            edit: json { object in
                object["attestations"] = [JSON]()
                requirements { $0["attested"] = nil }(&object)
            }, expected: "attestations/attestations.txt"),
        Forgery(
            name: "a member written twice, the second saying pass", path: "reports/results.json",
            edit: text { $0.replacingOccurrences(of: "\n}", with: ",\n  \"outcome\" : {\"verdict\": \"pass\"}\n}") },
            expected: "appears twice in one object"),
        Forgery(
            name: "the attestation file edited", path: "attestations/attestations.txt",
            edit: text { $0.replacingOccurrences(of: "verdict: fail", with: "verdict: pass") },
            expected: "otherwise than attestations/attestations.txt"),
        Forgery(
            name: "junit.xml: a failed test case shown as passed", path: "reports/junit.xml",
            edit: text { text in
                guard let failure = text.range(of: "      <failure "), let end = text[failure.lowerBound...].range(of: "</failure>\n") else {
                    return text
                }
                return text.replacingCharacters(in: failure.lowerBound..<end.upperBound, with: "")
            }, expected: "junit.xml shows case"),
        Forgery(
            name: "report.md: a case listed as passing", path: "reports/report.md",
            edit: text { $0.replacingOccurrences(of: "| ❌ fail | AF-LINK-003", with: "| ✅ pass | AF-LINK-003") },
            expected: "report.md lists case"),
        Forgery(
            name: "report.html: a case listed as passing", path: "reports/report.html",
            edit: text { text in
                // The first failing case's row of the every-case table.
                guard let row = text.range(of: "<tr data-case=\""), let verdict = text[row.upperBound...].range(of: " data-verdict=\"fail\"") else {
                    return text
                }
                return text.replacingCharacters(in: verdict, with: " data-verdict=\"pass\"")
            }, expected: "report.html lists case"),
        Forgery(
            name: "report.md: the attestation's verdict", path: "reports/report.md",
            edit: text { $0.replacingOccurrences(of: "**fail**, attested by", with: "**pass**, attested by") },
            expected: "report.md does not give the attestation of AF-LINK-021 as fail"),
    ]

    @Test("verify names each forged field, and finds nothing in the bundle as written", arguments: resultsForgeries)
    func verify(_ forgery: Forgery) throws {
        try verifyForgery(forgery)
    }

    @Test("A bundle of this suite without report.html (taken out with its manifest line) is missing it; one older than report.html is not")
    func htmlMissing() throws {
        let fixture = try Self.fixture.get()
        let entries = try TarArchive.read(fixture.bundle).filter { $0.path != "reports/report.html" }
        let problems = try EvidenceBundle.verify(BundleForgery.withManifestInLine(entries)).problems
        #expect(problems.contains("reports/report.html is missing"), "\(problems)")
        let document = try #require(try EvidenceBundle.verify(fixture.bundle).document)
        var older = document
        older.suite.version = "0.2.0"
        #expect(EvidenceBundle.htmlContradictions(nil, document: older).isEmpty)
        #expect(EvidenceBundle.htmlContradictions(nil, document: document) == ["reports/report.html is missing"])
    }

    private func verifyForgery(_ forgery: Forgery) throws {
        let fixture = try Self.fixture.get()
        #expect(try EvidenceBundle.verify(fixture.bundle).problems == [])
        var entries = try TarArchive.read(fixture.bundle)
        let index = try #require(entries.firstIndex { $0.path == forgery.path })
        let edited = try forgery.edit(entries[index].bytes)
        #expect(edited != entries[index].bytes, "the forgery changed nothing")
        entries[index].bytes = edited
        let problems = try EvidenceBundle.verify(BundleForgery.withManifestInLine(entries)).problems
        #expect(problems.contains { $0.contains(forgery.expected) }, "\(problems)")
    }

    @Test("An attachment replaced, its SHA-256 and size fixed in results.json: report.md still names the original")
    func replacedAttachment() throws {
        var entries = try TarArchive.read(try Self.fixture.get().bundle)
        let attachment = try #require(entries.firstIndex { $0.path.hasPrefix("attestations/AF-LINK-021/") })
        let original = entries[attachment].bytes
        let replacement = Array("another screen entirely".utf8)
        entries[attachment].bytes = replacement
        let results = try #require(entries.firstIndex { $0.path == "reports/results.json" })
        entries[results].bytes = Array(
            String(decoding: entries[results].bytes, as: UTF8.self)
                .replacingOccurrences(of: SHA256.hexDigest(original), with: SHA256.hexDigest(replacement))
                .replacingOccurrences(of: "\"bytes\" : \(original.count)", with: "\"bytes\" : \(replacement.count)").utf8)
        let problems = try EvidenceBundle.verify(BundleForgery.withManifestInLine(entries)).problems
        #expect(problems.contains { $0.contains("report.md does not list attestations/AF-LINK-021/") }, "\(problems)")
    }

    @Test("A manifest with a member written twice is refused as ambiguous")
    func repeatedManifestMember() throws {
        var entries = try TarArchive.read(try Self.fixture.get().bundle)
        let index = try #require(entries.firstIndex { $0.path == "manifest.json" })
        var text = String(decoding: entries[index].bytes, as: UTF8.self)
        text = text.replacingOccurrences(of: "\n}", with: ",\n  \"verdict\" : \"pass\"\n}")
        entries[index].bytes = Array(text.utf8)
        let archive = try TarArchive.write(entries)
        do {
            _ = try EvidenceBundle.verify(archive)
            Issue.record("a manifest with a repeated member was read")
        } catch {
            #expect(error.message.contains("appears twice"), "\(error.message)")
        }
    }

    @Test(
        "merge and diff refuse a results.json whose derived fields its cases contradict",
        arguments: resultsForgeries.filter {
            $0.path == "reports/results.json" && !$0.name.contains("attestation")
        })
    func mergeAndDiff(_ forgery: Forgery) throws {
        let fixture = try Self.fixture.get()
        let directory = fixture.directory + "/shard-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.directory + "/R/results.json")))
        try Data(forgery.edit(original)).write(to: URL(fileURLWithPath: directory + "/results.json"))
        let merged = Captured()
        #expect(Command.main(["merge", directory, "--reports", directory + "/merged"] + Self.paths, console: merged.console) == 2, "\(merged.err)")
        #expect(merged.err.contains(forgery.expected) || merged.err.contains("contradicts itself"), "\(merged.err)")
        let diffed = Captured()
        #expect(Command.main(["diff", fixture.directory + "/R", directory], console: diffed.console) == 2, "\(diffed.err)")
        // The shard as written merges.
        try Data(original).write(to: URL(fileURLWithPath: directory + "/results.json"))
        #expect(Command.main(["merge", directory, "--reports", directory + "/merged"] + Self.paths, console: Captured().console) == 1)
    }

}
