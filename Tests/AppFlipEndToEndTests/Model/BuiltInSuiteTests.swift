import AppFlipDigest
import AppFlipEvidence
import AppFlipLoading
import AppFlipModel
import AppFlipReporting
import AppFlipSuite
import AppFlipTestSupport
import Foundation
import Testing

/// The suite compiled into the build (the EmbedSuite plugin) is Conformance/ byte for byte, and the binary uses it
/// from any directory.
@Suite("The built-in suite")
struct BuiltInSuiteTests {
    @Test("holds every case file and the catalog of Conformance/ byte for byte, with the same digest")
    func matchesTheCheckout() throws {
        let onDisk = try CaseLoader.load(from: PackageRoot.cases, groupRoot: PackageRoot.cases, catalog: nil)
        let builtIn = try BuiltInSuite.cases(catalog: nil)
        #expect(builtIn.sources.map { builtIn.digestPath(of: $0.path) } == onDisk.sources.map { onDisk.digestPath(of: $0.path) })
        for (embedded, file) in zip(builtIn.sources, onDisk.sources) {
            #expect(embedded.bytes == file.bytes, "\(embedded.path) differs from the checkout")
        }
        #expect(builtIn.digest == onDisk.digest)
        // The digest a run compares a suite with is taken when the binary is built, and is the one loading gives the
        // checkout's files now (a stale build, or an embedder hashing another way, fails here).
        #expect(BuiltInSuite.casesDigest == builtIn.digest && BuiltInSuite.casesDigest == onDisk.digest)
        #expect(CaseLoader.digest(of: onDisk.sources.reversed(), base: PackageRoot.cases) == onDisk.digest, "in path order, whatever the order given")
        var edited = onDisk.sources
        edited[0].bytes += Array("\n".utf8)
        #expect(CaseLoader.digest(of: edited, base: PackageRoot.cases) != onDisk.digest, "a byte more is another suite")
        #expect(builtIn.cases.map(\.id) == onDisk.cases.map(\.id))
        #expect(builtIn.cases.map(\.group) == onDisk.cases.map(\.group))
        let catalog = try BuiltInSuite.catalog()
        #expect(catalog.file?.bytes == [UInt8](try Data(contentsOf: URL(fileURLWithPath: PackageRoot.catalog))))
        #expect(catalog.file?.path == "Conformance/requirements.catalog")
        #expect(BuiltInSuite.catalogDigest == SHA256.hexDigest(try Data(contentsOf: URL(fileURLWithPath: PackageRoot.catalog))))
        #expect(BuiltInSuite.digest(of: catalog) == BuiltInSuite.catalogDigest)
    }

    @Test("the catalog parsed while building reads back as the checkout's catalog parses now, field for field")
    func catalogParsedWhileBuilding() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: PackageRoot.catalog)))
        let parsed = try CatalogLoader.load(bytes: bytes, file: "Conformance/requirements.catalog")
        // The form is there (a build whose embedder could not parse the catalog would parse it at every run).
        let form = try #require(BuiltInSuite.catalogForm)
        let decoded = try #require(CatalogForm.decode(form))
        let builtIn = try BuiltInSuite.catalog()
        for catalog in [decoded, builtIn] {
            #expect(catalog.requirements == parsed.requirements)
            #expect(catalog.sources == parsed.sources)
            #expect(catalog.programs == parsed.programs)
            #expect(catalog.requirements.map { catalog[$0.id] } == parsed.requirements.map { parsed[$0.id] })
        }
        #expect(builtIn.file == parsed.file)
        #expect(CatalogForm.encode(parsed) == form, "the form is the encoding of the checkout's catalog (a stale build differs)")
    }

    @Test("the binary lints, runs and verifies with the built-in suite from a directory with no Conformance/")
    func binaryRunsAnywhere() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anywhere-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let binary = BuiltProducts.path("appflip-conformance")
        let suite = try BuiltInSuite.cases(catalog: nil)
        let lint = try ProgramRun.run(binary, ["lint"], in: directory)
        #expect(lint.status == 0)
        #expect(lint.output.contains("\(suite.cases.count) cases in \(suite.files.count) files"), "\(lint.output)")
        let run = try ProgramRun.run(
            binary,
            [
                "run", "--target", "reference", "--profile", "app-link", "--filter", "app-link/state/*",
                "--quiet", "--reports", "R", "--bundle", "evidence.tar",
            ], in: directory)
        #expect(run.status == 0, "\(run.output)")
        #expect(FileManager.default.fileExists(atPath: directory + "/R/report.md"))
        let verify = try ProgramRun.run(binary, ["verify", "evidence.tar"], in: directory)
        #expect(verify.status == 0, "\(verify.output)")
        #expect(verify.output.contains("sha256 \(suite.digest) — the cases built into this binary"), "\(verify.output)")
        // The bundle holds the very bytes the run loaded.
        let entries = try TarArchive.read([UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/evidence.tar"))))
        let bundled = entries.filter { $0.path.hasPrefix("cases/") }
        #expect(bundled.map(\.path) == suite.sources.map { "cases/" + suite.digestPath(of: $0.path) })
        #expect(bundled.map(\.bytes) == suite.sources.map(\.bytes))
    }

    @Test("verify says NOT verified when the bundle's cases are not the built-in ones, even if internally consistent")
    func verifyAgainstAnotherSuite() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("other-suite-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/cases/app-link", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // One built-in case file, changed by a comment: it loads, so the bundle is consistent, but it is not the suite.
        let original = try #require(BuiltInSuite.caseFiles.first { $0.path.hasSuffix("/app-link/state/echoed.case") })
        let changed = directory + "/cases/app-link/echoed.case"
        try Data(("# changed\n" + String(decoding: original.bytes, as: UTF8.self)).utf8).write(to: URL(fileURLWithPath: changed))
        let binary = BuiltProducts.path("appflip-conformance")
        let run = try ProgramRun.run(
            binary,
            [
                "run", "--target", "reference", "--profile", "app-link", "--cases", "cases", "--quiet",
                "--reports", "R", "--bundle", "evidence.tar",
            ], in: directory)
        #expect(run.status == 0, "\(run.output)")
        let verify = try ProgramRun.run(binary, ["verify", "evidence.tar"], in: directory)
        #expect(verify.status == 1)
        #expect(verify.output.contains("NOT the cases built into this binary"), "\(verify.output)")
        let againstThem = try ProgramRun.run(binary, ["verify", "evidence.tar", "--cases", "cases"], in: directory)
        #expect(againstThem.status == 0, "\(againstThem.output)")
    }

    @Test("the embedder writes exact string literals for awkward text and refuses a file that is not UTF-8")
    func embedderEscaping() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("embed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/cases/a", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let awkward = "quote \" backslash \\ \"\"\"# tab\tCR\r\nNUL\u{0} DEL\u{7F} C1\u{85} LS\u{2028} é 🔑 \\(interpolation)\n"
        try Data(awkward.utf8).write(to: URL(fileURLWithPath: directory + "/cases/a/x.case"))
        try Data("sources: []\n".utf8).write(to: URL(fileURLWithPath: directory + "/requirements.catalog"))
        try Data("not a case".utf8).write(to: URL(fileURLWithPath: directory + "/cases/a/notes.txt"))
        let output = directory + "/out.swift"
        let embedded = try ProgramRun.run(BuiltProducts.path("suite-embedder"), [directory, output])
        #expect(embedded.status == 0, "\(embedded.output)")
        let source = try String(contentsOfFile: output, encoding: .utf8)
        #expect(source.contains(#"("Conformance/requirements.catalog", "sources: []\n"),"#))
        let expected =
            ##"("Conformance/cases/a/x.case", "quote \" backslash \\ \"\"\"# tab\tCR\r\nNUL\u{0} DEL\u{7f} C1\u{85} LS\u{2028} é 🔑 \\(interpolation)\n"),"##
        #expect(source.contains(expected), "\(source)")
        #expect(!source.contains("notes.txt"))
        #expect(!source.contains("\r"), "a raw carriage return in the generated source would change the literal")

        try Data([0x23, 0x0A, 0x69, 0x64, 0x3A, 0x20, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: directory + "/cases/a/x.case"))
        let refused = try ProgramRun.run(BuiltProducts.path("suite-embedder"), [directory, output])
        #expect(refused.status == 1)
        #expect(refused.output.contains("cases/a/x.case:2:1: error: not valid UTF-8"), "\(refused.output)")
    }

    @Test("the embedder reads the source commit as git would: a branch loose or packed, a detached HEAD, a linked worktree; none outside a checkout")
    func sourceCommit() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("commit-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (one, two, three) = (String(repeating: "a1", count: 20), String(repeating: "b2", count: 20), String(repeating: "c3", count: 20))
        func write(_ text: String, _ path: String) throws {
            let url = URL(fileURLWithPath: directory + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        func commit(of root: String) throws -> String {
            let output = directory + "/out.swift"
            let run = try ProgramRun.run(BuiltProducts.path("suite-embedder"), ["--source-commit", directory + "/" + root, output])
            #expect(run.status == 0, "\(run.output)")
            let source = try String(contentsOfFile: output, encoding: .utf8)
            return try #require(
                source.split(separator: "\n").first { $0.contains("sourceCommit") }.map { String($0.split(separator: "=").last ?? "") }
            )
            .trimmingCharacters(in: .whitespaces)
        }
        try write("ref: refs/heads/main\n", "loose/.git/HEAD")
        try write(one + "\n", "loose/.git/refs/heads/main")
        #expect(try commit(of: "loose") == "\"\(one)\"")
        try write("ref: refs/heads/topic\n", "packed/.git/HEAD")
        try write("# pack-refs with: peeled fully-peeled sorted\n\(one) refs/heads/main\n\(two) refs/heads/topic\n", "packed/.git/packed-refs")
        #expect(try commit(of: "packed") == "\"\(two)\"")
        try write(three + "\n", "detached/.git/HEAD")
        #expect(try commit(of: "detached") == "\"\(three)\"")
        // A linked worktree: `.git` names its directory, whose `commondir` holds the refs.
        try write("gitdir: ../packed/.git/worktrees/wt\n", "worktree/.git")
        try write("ref: refs/heads/main\n", "packed/.git/worktrees/wt/HEAD")
        try write("../..\n", "packed/.git/worktrees/wt/commondir")
        #expect(try commit(of: "worktree") == "\"\(one)\"")
        try FileManager.default.createDirectory(atPath: directory + "/plain", withIntermediateDirectories: true)
        #expect(try commit(of: "plain") == "nil")
        try write("ref: refs/heads/unborn\n", "unborn/.git/HEAD")
        #expect(try commit(of: "unborn") == "nil")
    }
}
