import AppFlipCLI
import AppFlipDigest
import AppFlipEvidence
import AppFlipModel
import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

/// The evidence bundle: a tar our own code writes and the system's tar reads, that `verify` trusts only when every
/// file is the one the manifest lists, and that refuses a damaged or hostile archive without crashing.
@Suite("Evidence bundle", .serialized)
struct EvidenceBundleTests {
    private let entries = [
        TarArchive.Entry(path: "reports/report.md", bytes: Array("# report\n".utf8)),
        TarArchive.Entry(path: "cases/" + String(repeating: "long-directory-name/", count: 6) + "file.case", bytes: Array("id: x\n".utf8)),
        TarArchive.Entry(path: "empty", bytes: []),
    ]

    @Test("An archive reads back as written, long paths included, and the system's tar lists it")
    func roundTrip() throws {
        let archive = try TarArchive.write(entries)
        #expect(archive.count % 512 == 0)
        #expect(try TarArchive.read(archive) == entries)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-\(UUID().uuidString).tar").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(archive).write(to: URL(fileURLWithPath: path))
        let (status, listing) = try ProgramRun.run("/usr/bin/env", ["tar", "-tf", path])
        #expect(status == 0 && listing.split(separator: "\n").map(String.init) == entries.map(\.path), "\(listing)")
    }

    @Test("GNU tar and bsdtar extract the one layout written to the same files, long paths included")
    func bothTars() throws {
        let bsdtar = ["/usr/bin/bsdtar", "/bin/bsdtar"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let bsdtar else {
            // CI installs it (libarchive-tools); a machine without it cannot make this comparison.
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "bsdtar is not installed: .ci/run installs libarchive-tools")
            return
        }
        let archive = try TarArchive.write(entries)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tars-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for tool in ["gnu", "bsd"] { try FileManager.default.createDirectory(atPath: root + "/" + tool, withIntermediateDirectories: true) }
        try Data(archive).write(to: URL(fileURLWithPath: root + "/a.tar"))
        #expect(try ProgramRun.run("/usr/bin/env", ["tar", "-xf", root + "/a.tar", "-C", root + "/gnu"]).status == 0)
        #expect(try ProgramRun.run(bsdtar, ["-xf", root + "/a.tar", "-C", root + "/bsd"]).status == 0)
        for entry in entries {
            for tool in ["gnu", "bsd"] {
                let bytes = FileManager.default.contents(atPath: root + "/\(tool)/" + entry.path)
                #expect(bytes.map(Array.init) == entry.bytes, "\(tool) tar put \(entry.path) elsewhere")
            }
        }
    }

    @Test("One layout: an archive re-laid with old-GNU headers, which GNU tar extracts flat, is refused, not verified")
    func oldGNULayout() throws {
        var archive = try TarArchive.write(entries)
        var offset = 0
        for entry in entries {
            // The magic and version old GNU tar writes ("ustar  " and NUL), the checksum made to match.
            for (index, byte) in Array("ustar  ".utf8).enumerated() { archive[offset + 257 + index] = byte }
            archive[offset + 264] = 0
            let sum = archive[offset..<offset + 512].enumerated().reduce(0) { $0 + ((148..<156).contains($1.offset) ? 32 : Int($1.element)) }
            let digits = Array((String(repeating: "0", count: 6 - String(sum, radix: 8).count) + String(sum, radix: 8)).utf8)
            for (index, byte) in (digits + [0, 32]).enumerated() { archive[offset + 148 + index] = byte }
            offset += 512 + (entry.bytes.count + 511) / 512 * 512
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("old-gnu-\(UUID().uuidString).tar").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(archive).write(to: URL(fileURLWithPath: path))
        // What GNU tar would extract: the long path without its prefix, elsewhere than written.
        let (_, listing) = try ProgramRun.run("/usr/bin/env", ["tar", "-tf", path])
        #expect(listing.split(separator: "\n").map(String.init) != entries.map(\.path), "\(listing)")
        do {
            _ = try TarArchive.read(archive)
            Issue.record("an old-GNU archive was read")
        } catch {
            #expect(error.message.contains("the archive's header at byte 0 is not POSIX ustar"), "\(error.message)")
        }
    }

    @Test("Bytes after the archive's end are an error, whatever they are; a tar record's zero padding is not")
    func trailingBytes() throws {
        let archive = try TarArchive.write(entries)
        #expect(try TarArchive.read(archive + [UInt8](repeating: 0, count: 10_240 - archive.count % 10_240)) == entries)
        do {
            _ = try TarArchive.read(archive + Array("#!/bin/sh\necho forged\n".utf8))
            Issue.record("garbage after the end was read as a good archive")
        } catch {
            #expect(error.message.contains("22 bytes after its end, from byte \(archive.count)"), "\(error.message)")
        }
        // A lone closing block (one of the two) is cut short.
        #expect(throws: TarArchive.Failure.self) { try TarArchive.read(Array(archive.dropLast(512))) }
    }

    @Test("A damaged or hostile archive is an error: a changed header, a path out of the directory, a cut-short file")
    func hostile() throws {
        var archive = try TarArchive.write(entries)
        archive[10] ^= 0x20
        #expect(throws: TarArchive.Failure.self) { try TarArchive.read(archive) }
        #expect(throws: TarArchive.Failure.self) { try TarArchive.write([TarArchive.Entry(path: "../evil", bytes: [])]) }
        // A header naming ../evil with a correct checksum: refused on reading as well.
        var evil = try TarArchive.write([TarArchive.Entry(path: "aa/evil", bytes: [1])])
        evil[0] = UInt8(ascii: ".")
        evil[1] = UInt8(ascii: ".")
        let sum = evil[0..<512].enumerated().reduce(0) { $0 + ((148..<156).contains($1.offset) ? 32 : Int($1.element)) }
        let digits = Array((String(repeating: "0", count: 6 - String(sum, radix: 8).count) + String(sum, radix: 8)).utf8)
        for (index, byte) in (digits + [0, 32]).enumerated() { evil[148 + index] = byte }
        #expect(throws: TarArchive.Failure.self) { try TarArchive.read(evil) }
        let good = try TarArchive.write(entries)
        #expect(throws: TarArchive.Failure.self) { try TarArchive.read(Array(good.prefix(700))) }
    }

    private func bundle() throws -> [UInt8] {
        let run = Fixtures.mixedRun()
        let reports = ReportSet(run: run, profiles: ["app-link"], reproducible: true).render()
        return try EvidenceBundle.make(
            reports: reports, caseFiles: [("app-link/demo/demo.case", Array("id: x\n".utf8))],
            catalog: Array("sources: []\n".utf8), run: run, reproducible: true)
    }

    @Test("verify finds nothing wrong in a bundle as written, and names a changed, a missing and an added file")
    func tampering() throws {
        let intact = try EvidenceBundle.verify(bundle())
        #expect(intact.problems.isEmpty, "\(intact.problems)")
        var entries = try TarArchive.read(bundle())
        let changed = try #require(entries.firstIndex { $0.path == "reports/report.md" })
        entries[changed].bytes += Array("\nall good\n".utf8)
        entries.removeAll { $0.path == "catalog/requirements.catalog" }
        entries.insert(TarArchive.Entry(path: "reports/extra.md", bytes: [1]), at: 0)
        let problems = try EvidenceBundle.verify(TarArchive.write(entries)).problems
        #expect(problems.contains { $0.contains("reports/report.md does not match its SHA-256") }, "\(problems)")
        #expect(problems.contains { $0.contains("catalog/requirements.catalog is listed but missing") })
        #expect(problems.contains { $0.contains("reports/extra.md is in the bundle but not in the manifest") })
    }

    /// The bundle with one file replaced by `edit` of it, and the manifest's hashes brought in line (as a forger would).
    private func forged(_ path: String, _ edit: (String) -> String) throws -> [UInt8] {
        var entries = try TarArchive.read(bundle())
        let index = try #require(entries.firstIndex { $0.path == path })
        entries[index].bytes = Array(edit(String(decoding: entries[index].bytes, as: UTF8.self)).utf8)
        return try BundleForgery.withManifestInLine(entries)
    }

    @Test("A forged verdict is found: in the manifest alone, in results.json's outcome, in junit.xml's totals, in report.md")
    func forgedVerdicts() throws {
        let forgeries: [(String, String, (String) -> String, String)] = [
            (
                "the manifest's verdict", "manifest.json",
                {
                    $0.replacingOccurrences(of: "\"verdict\" : \"fail\"", with: "\"verdict\" : \"pass\"")
                        .replacingOccurrences(of: "\"exit_code\" : 1", with: "\"exit_code\" : 0")
                }, "the manifest's verdict"
            ),
            (
                "the manifest's target", "manifest.json", { $0.replacingOccurrences(of: "subprocess ./handler", with: "subprocess ./other") },
                "the manifest's target"
            ),
            ("the manifest's arguments", "manifest.json", { $0.replacingOccurrences(of: "\"--seed\"", with: "\"--evil\"") }, "arguments"),
            (
                "results.json's outcome", "reports/results.json", { $0.replacingOccurrences(of: "\"exit_code\" : 1", with: "\"exit_code\" : 0") },
                "results.json records exit 0, but its cases make it exit 1"
            ),
            (
                "results.json's cases", "reports/results.json",
                { $0.replacingOccurrences(of: "\"verdict\" : \"fail\"", with: "\"verdict\" : \"pass\"") },
                "its cases make it"
            ),
            (
                "junit.xml's totals", "reports/junit.xml",
                { $0.replacingOccurrences(of: "failures=\"1\" errors=\"1\" time", with: "failures=\"0\" errors=\"0\" time") },
                "junit.xml counts failures=0"
            ),
            (
                "report.md's exit code", "reports/report.md", { $0.replacingOccurrences(of: "Exit code: 1.", with: "Exit code: 0.") },
                "report.md does not give"
            ),
            (
                "report.html's exit code", "reports/report.html", { $0.replacingOccurrences(of: "<p>Exit code: 1. ", with: "<p>Exit code: 0. ") },
                "report.html does not give the exit code 1"
            ),
        ]
        for (what, path, edit, expected) in forgeries {
            let original = try TarArchive.read(bundle()).first { $0.path == path }.map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
            #expect(edit(original) != original, "\(what): the forgery changed nothing")
            let problems = try EvidenceBundle.verify(forged(path, edit)).problems
            #expect(problems.contains { $0.contains(expected) }, "\(what): \(problems)")
        }
    }

    @Test("run --bundle writes a bundle that verify accepts (exit 0); a changed one is exit 1; an unreadable one exit 2")
    func commands() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let captured = Captured()
        let paths = ["--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog]
        let status = Command.main(
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link",
                "--filter", "app-link/baseline", "--reports", directory, "--bundle", directory + "/evidence.tar",
            ] + paths
                + ["--", BuiltProducts.path("appflip-reference")], console: captured.console)
        #expect(status == 0, "\(captured.err)")
        let verified = Captured()
        #expect(Command.main(["verify", directory + "/evidence.tar"] + paths, console: verified.console) == 0, "\(verified.out)")
        #expect(verified.out.contains("verified") && verified.out.contains("the cases at \(PackageRoot.cases) (suite"))
        // The re-run offered is the reviewer's: the bundle's recorded command is not given to run.
        #expect(verified.out.contains(" verify \(directory)/evidence.tar --rerun TARGET-OPTIONS"), "\(verified.out)")
        #expect(!verified.out.contains("re-run: mkdir"), "\(verified.out)")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/evidence.tar")))
        let marker = Array("# AppFlip Conformance report".utf8)
        if let at = (0..<(bytes.count - marker.count)).first(where: { Array(bytes[$0..<$0 + marker.count]) == marker }) {
            bytes[at + 2] = UInt8(ascii: "a")
        }
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/changed.tar"))
        let changed = Captured()
        #expect(Command.main(["verify", directory + "/changed.tar"] + paths, console: changed.console) == 1)
        #expect(changed.out.contains("PROBLEM") && changed.out.contains("NOT verified"), "\(changed.out)")
        try Data("not a tar".utf8).write(to: URL(fileURLWithPath: directory + "/garbage.tar"))
        #expect(Command.main(["verify", directory + "/garbage.tar"] + paths, console: Captured().console) == 1)
        #expect(Command.main(["verify", directory + "/none.tar"] + paths, console: Captured().console) == 2)
    }

    @Test("Reports edited to read better than results.json (a certification line, a verdict, a title, a property), re-hashed: each named")
    func editedReports() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("edited-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A real failing run's bundle: its case files and catalog load, so its reports can be rendered again.
        let ran = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link", "--quiet",
                "--reports", directory, "--bundle", directory + "/b.tar", "--", BuiltProducts.path("broken-handler"), "--defect", "fixed-code",
            ])
        #expect(ran.status == 1, "\(ran.output)")
        let original = try TarArchive.read(Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/b.tar"))))
        #expect(try EvidenceBundle.verify(TarArchive.write(original)).problems.isEmpty)
        let edits: [(String, (String) -> String)] = [
            (
                "reports/report.md",
                {
                    $0.replacingOccurrences(
                        of: "# AppFlip Conformance report\n\n", with: "# AppFlip Conformance report\n\n**🏅 CERTIFIED: App Flip for iOS**\n\n")
                }
            ),
            (
                "reports/report.html",
                { $0.replacingOccurrences(of: "<title>AppFlip Conformance: NOT CONFORMANT", with: "<title>AppFlip Conformance: CONFORMANT") }
            ),
            (
                "reports/junit.xml",
                { $0.replacingOccurrences(of: "<properties>", with: "<properties>\n      <property name=\"certification\" value=\"CERTIFIED\"/>") }
            ),
        ]
        for (path, edit) in edits {
            var entries = original
            let index = try #require(entries.firstIndex { $0.path == path })
            let before = String(decoding: entries[index].bytes, as: UTF8.self)
            #expect(edit(before) != before, "\(path): the edit changed nothing")
            entries[index].bytes = Array(edit(before).utf8)
            let problems = try EvidenceBundle.verify(BundleForgery.withManifestInLine(entries)).problems
            #expect(
                problems.contains { $0.hasPrefix("\(path) is not what the suite writes from results.json (first at line ") }, "\(path): \(problems)")
        }
    }

    @Test("A file the layout does not explain (an attachment no attestation lists), listed in a re-hashed manifest, is NOT verified")
    func unexplainedFile() throws {
        var entries = try TarArchive.read(bundle())
        let extra = TarArchive.Entry(path: "attestations/NAT-AS-003/extra.png", bytes: Array("PNG, or anything".utf8))
        entries.insert(extra, at: entries.count - 1)
        let index = try #require(entries.firstIndex { $0.path == "manifest.json" })
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        var manifest = try decoder.decode(EvidenceBundle.Manifest.self, from: Data(entries[index].bytes))
        manifest.files.append(EvidenceBundle.Manifest.File(path: extra.path, sha256: SHA256.hexDigest(extra.bytes), bytes: extra.bytes.count))
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        entries[index].bytes = try [UInt8](encoder.encode(manifest))
        let problems = try EvidenceBundle.verify(BundleForgery.withManifestInLine(entries)).problems
        #expect(
            problems == ["attestations/NAT-AS-003/extra.png is in the bundle, but nothing in its layout explains it (no attestation lists it)"],
            "\(problems)")
        // The bundle as written has no such problem.
        #expect(try EvidenceBundle.verify(bundle()).problems.isEmpty)
    }

    @Test("Honest bundles verify: a --filter over every profile (the others select nothing), and the reference binary as a partner's adapter")
    func honestBundles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("honest-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runs: [[String]] = [
            ["run", "--target", "reference", "--filter", "app-link/baseline"],
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--filter", "app-link/baseline", "--",
                BuiltProducts.path("appflip-reference"),
            ],
        ]
        for (index, arguments) in runs.enumerated() {
            let bundle = directory + "/\(index).tar"
            let reports = ["--reports", directory + "/\(index)", "--bundle", bundle, "--quiet"]
            let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
            // The built tool runs it: the reference target starts that executable's own adapters.
            let ran = try ProgramRun.run(BuiltProducts.path("appflip-conformance"), Array(arguments[..<end]) + reports + Array(arguments[end...]))
            #expect(ran.status == 0, "\(ran.output)")
            let verified = Captured()
            // Before: "results.json records exit 0, but its cases make it exit 8", as if every run were a certification.
            #expect(Command.main(["verify", bundle], console: verified.console) == 0, "\(arguments): \(verified.out)")
            #expect(!verified.out.contains("PROBLEM"), "\(verified.out)")
        }
    }

    @Test("A run with a baseline carries its file: verify applies it again and holds every report to its rendering; an edit shows")
    func baselineBundle() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-bundle-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let baseline =
            "known_failures:\n  - requirement: AF-LINK-002\n    reason: declines for now; fixed in 2.4\n    expires: 2099-12-31\n"
            + "  - requirement: AF-LINK-010\n    reason: declines for now; fixed in 2.4\n    expires: 2099-12-31\n"
        try baseline.write(toFile: directory + "/baseline.txt", atomically: true, encoding: .utf8)
        try
            "import json, sys\nfor line in sys.stdin:\n    r = json.loads(line)\n    print(json.dumps({'id': r['id'], 'action': 'decline'}), flush=True)\n"
            .write(toFile: directory + "/decline.py", atomically: true, encoding: .utf8)
        let captured = Captured()
        let status = Command.main(
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--filter", "app-link/baseline",
                "--baseline", directory + "/baseline.txt", "--reports", directory + "/R", "--bundle", directory + "/b.tar",
                "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--", "python3", directory + "/decline.py",
            ],
            console: captured.console)
        #expect(status == 0, "\(captured.out)\n\(captured.err.suffix(1500))")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/b.tar")))
        let entries = try TarArchive.read(bytes)
        #expect(entries.first { $0.path == EvidenceBundle.baselinePath }?.bytes == Array(baseline.utf8))
        let document = try ResultsDocument.load(run: directory + "/R").document
        #expect(document.outcome.baseline?.judgedOn == document.run.startedAt.map { String($0.prefix(10)) })
        #expect(try EvidenceBundle.verify(bytes).problems.isEmpty)
        // The known failures' section edited out of report.md, the manifest in line: the rendering says so.
        var edited = entries
        let index = try #require(edited.firstIndex { $0.path == "reports/report.md" })
        let markdown = String(decoding: edited[index].bytes, as: UTF8.self)
        #expect(markdown.contains("## Known failures (baseline)"))
        edited[index].bytes = Array(markdown.replacingOccurrences(of: "## Known failures (baseline)", with: "## Notes").utf8)
        let problems = try EvidenceBundle.verify(BundleForgery.withManifestInLine(edited)).problems
        #expect(problems.contains { $0.hasPrefix("reports/report.md is not what the suite writes from results.json") }, "\(problems)")
        // Another baseline put in its place (a reason rewritten): the reports no longer render from it.
        var swapped = entries
        let baselineIndex = try #require(swapped.firstIndex { $0.path == EvidenceBundle.baselinePath })
        swapped[baselineIndex].bytes = Array(baseline.replacingOccurrences(of: "declines for now", with: "an agreed exception").utf8)
        let swappedProblems = try EvidenceBundle.verify(BundleForgery.withManifestInLine(swapped)).problems
        #expect(swappedProblems.contains { $0.contains("is not what the suite writes from results.json") }, "\(swappedProblems)")

        // Shards merged with the baseline: the merged bundle carries it too, and verifies.
        for shard in ["1/2", "2/2"] {
            let shardRun = Captured()
            #expect(
                Command.main(
                    [
                        "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--filter", "app-link/baseline",
                        "--filter", "app-link/parameters", "--shard", shard, "--seed", "5", "--reports", directory + "/S" + shard.prefix(1),
                        "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--quiet", "--", "python3", directory + "/decline.py",
                    ],
                    console: shardRun.console) == 1, "\(shardRun.err.suffix(800))")
        }
        let merged = Captured()
        _ = Command.main(
            [
                "merge", "--reports", directory + "/M", "--bundle", directory + "/m.tar", "--baseline", directory + "/baseline.txt",
                "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog, directory + "/S1", directory + "/S2",
            ], console: merged.console)
        let mergedBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/m.tar")))
        #expect(try TarArchive.read(mergedBytes).contains { $0.path == EvidenceBundle.baselinePath }, "\(merged.err)")
        let mergedProblems = try EvidenceBundle.verify(mergedBytes).problems
        #expect(mergedProblems.isEmpty, "\(mergedProblems)")
    }

    @Test("A baseline file in the bundle of a run that records none is named")
    func unexplainedBaseline() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-stray-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let captured = Captured()
        #expect(
            Command.main(
                [
                    "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--filter", "app-link/baseline",
                    "--reports", directory, "--bundle", directory + "/b.tar", "--quiet", "--cases", PackageRoot.cases,
                    "--catalog", PackageRoot.catalog, "--", BuiltProducts.path("appflip-reference"),
                ], console: captured.console) == 0,
            "\(captured.err)")
        var entries = try TarArchive.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/b.tar"))))
        let manifest = try #require(entries.firstIndex { $0.path == "manifest.json" })
        entries.insert(TarArchive.Entry(path: EvidenceBundle.baselinePath, bytes: Array("known_failures: []\n".utf8)), at: manifest)
        // Listed in the manifest too, as a forger would list it.
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        var listed = try decoder.decode(EvidenceBundle.Manifest.self, from: Data(entries[manifest + 1].bytes))
        listed.files.append(EvidenceBundle.Manifest.File(path: EvidenceBundle.baselinePath, sha256: "", bytes: 0))
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        entries[manifest + 1].bytes = try [UInt8](encoder.encode(listed))
        let problems = try EvidenceBundle.verify(BundleForgery.withManifestInLine(entries)).problems
        #expect(problems == ["\(EvidenceBundle.baselinePath) is in the bundle, but results.json records no baseline"], "\(problems)")
    }

    @Test("--attest: a reviewer's word goes into every report and the bundle as attested by hand, never into the verdict or exit code")
    func attestations() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("attest-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try AttestationFixture.write(in: directory)
        let screenshot = AttestationFixture.screenshot
        let paths = ["--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog]
        let captured = Captured()
        let status = Command.main(
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link",
                "--filter", "app-link/baseline", "--reports", directory + "/R", "--bundle", directory + "/evidence.tar",
                "--attest", directory + "/attest.txt",
            ] + paths + ["--", BuiltProducts.path("appflip-reference")],
            console: captured.console)
        #expect(status == 0, "a failing attestation does not change the machine's exit code: \(captured.err)")
        #expect(captured.err.contains("attested by hand (not judged by the suite): AF-LINK-021 fail, attested by hand by Jane Reviewer"))
        let report = try String(contentsOfFile: directory + "/R/report.md", encoding: .utf8)
        #expect(
            report.contains(
                "**Attested by hand** (not judged by the suite, not in the counts or the exit code): 1 requirement; "
                    + "attested as **failing**: AF-LINK-021"))
        #expect(report.contains("## Attested by hand") && report.contains("✍️ attested by hand: ❌ fail"))
        #expect(report.contains("attestations/AF-LINK-021/consent.png` (\(screenshot.count) bytes, sha256 `\(SHA256.hexDigest(screenshot))`)"))
        let results = try Data(contentsOf: URL(fileURLWithPath: directory + "/R/results.json"))
        let schema = try JSONSchema(contentsOf: PackageRoot.url.appendingPathComponent("Conformance/results.schema.json").path)
        #expect(schema.validate(results) == [])
        let document = try ResultsDocument.parse(results)
        #expect(document.attestations?.first?.attachments.first?.sha256 == SHA256.hexDigest(screenshot))
        #expect(document.requirements.first { $0.id == "AF-LINK-021" }?.attested == "fail")
        #expect(document.requirements.first { $0.id == "AF-LINK-021" }?.verdict == "not-covered", "the suite's verdict stays its own")
        #expect(document.outcome.exitCode == 0)
        let junit = try String(contentsOfFile: directory + "/R/junit.xml", encoding: .utf8)
        #expect(junit.contains("<property name=\"attestation.1\" value=\"AF-LINK-021 fail, attested by hand by Jane Reviewer"))

        let verified = Captured()
        #expect(Command.main(["verify", directory + "/evidence.tar"] + paths, console: verified.console) == 0, "\(verified.out)")
        #expect(
            verified.out.contains(
                "attested by hand (not judged by the suite): AF-LINK-021 fail by Jane Reviewer, Example Certification Ltd "
                    + "on 2026-11-25 (1 attachment, SHA-256 checked)"), "\(verified.out)")
        // The attachment swapped, with the manifest's hash brought in line: results.json still names the original.
        var entries = try TarArchive.read([UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/evidence.tar"))))
        let index = try #require(entries.firstIndex { $0.path == "attestations/AF-LINK-021/consent.png" })
        #expect(entries.contains { $0.path == "attestations/attestations.txt" })
        entries[index].bytes = Array("another screen".utf8)
        let problems = try EvidenceBundle.verify(BundleForgery.withManifestInLine(entries)).problems
        #expect(problems.contains { $0.contains("attestations/AF-LINK-021/consent.png is not the attachment results.json records") }, "\(problems)")

        // A requirement the cases judge cannot be attested: refused before anything runs.
        try Data(
            "attestations:\n  - requirement: AF-LINK-005\n    verdict: pass\n    by: Jane\n    date: 2026-11-25\n    note: Looked at it myself.\n"
                .utf8
        ).write(to: URL(fileURLWithPath: directory + "/machine.txt"))
        let refused = Captured()
        #expect(
            Command.main(
                [
                    "run", "--target", "reference", "--profile", "app-link", "--reports", directory + "/R2", "--attest",
                    directory + "/machine.txt",
                ] + paths, console: refused.console) == 2)
        #expect(refused.err.contains("machine.txt:2:18: error: AF-LINK-005 is judged by the suite's cases"), "\(refused.err)")
    }
}
