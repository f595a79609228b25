import AppFlipLoading
import AppFlipModel
import AppFlipSyntax
import AppFlipTestSupport
import Foundation
import Testing

@Suite("Case loader")
struct CaseLoaderTests {
    let catalog = Catalog(
        requirements: [
            Requirement(id: "AF-LINK-005", level: .mustNot, profile: "app-link", title: "t", statement: "s", citations: []),
            Requirement(id: "AF-LINK-010", level: .must, profile: "app-link", title: "t", statement: "s", citations: []),
        ],
        sources: [])

    static let valid = """
        id: app-link/x/one
        title: One
        profile: app-link
        scenario: consent
        link:
          set:
            redirect_uri: https://evil.example/
        requirement: AF-LINK-005 MUST NOT
        expect:
          action: decline

        """

    /// Loads `text` as a case file through the public entry point, which throws every diagnostic.
    private func load(_ text: String) throws(DiagnosticList) -> [ConformanceCase] {
        try CaseText.load(text, catalog: catalog)
    }

    @Test("A valid case becomes a case with its requirement and expectations")
    func validCase() throws {
        let cases = try load(Self.valid)
        #expect(cases.count == 1)
        #expect(cases.first?.id == "app-link/x/one")
        #expect(cases.first?.requirements == [RequirementReference(id: "AF-LINK-005", level: .mustNot)])
        #expect(cases.first?.checks.first?.expectation == .all([.action(.decline)]))
    }

    @Test("A renamed case keeps its earlier IDs (formerly:), which must be IDs, not its own, not another case's, listed once")
    func formerly() throws {
        let renamed = Self.valid.replacingOccurrences(of: "title: One", with: "title: One\nformerly: [app-link/old/one, app-link/older/one]")
        let cases = try load(renamed)
        #expect(cases.first?.formerly == ["app-link/old/one", "app-link/older/one"])
        #expect(cases.first?.isNamed("app-link/old/one") == true && cases.first?.isNamed("app-link/x/one") == true)
        let second = Self.valid.replacingOccurrences(of: "id: app-link/x/one", with: "id: app-link/x/two")
        for (texts, message) in [
            ([Self.valid.replacingOccurrences(of: "title: One", with: "title: One\nformerly: [not an id]")], "'not an id' is not one"),
            (
                [renamed, second.replacingOccurrences(of: "title: One", with: "title: One\nformerly: [app-link/x/one]")],
                "'formerly' lists 'app-link/x/one', which is the ID of the case at"
            ),
            (
                [renamed, second.replacingOccurrences(of: "title: One", with: "title: One\nformerly: [app-link/old/one]")],
                "'formerly' lists 'app-link/old/one', which the case at"
            ),
        ] {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("formerly-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            for (index, text) in texts.enumerated() {
                _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("\(index).case").path, contents: Data(text.utf8))
            }
            do {
                _ = try CaseLoader.load(from: directory.path, catalog: catalog)
                Issue.record("accepted: \(message)")
            } catch {
                #expect(error.diagnostics.contains { $0.message.contains(message) }, "\(error.diagnostics.map(\.message))")
            }
        }
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var marked: String
        var message: String
        var testDescription: String { message }
    }

    static let badCases: [Bad] = [
        Bad(
            marked: valid.replacingOccurrences(of: "expect:\n  action", with: "expect:\n  1️⃣acton"),
            message: "unknown key 'acton' in 'expect' (did you mean 'action'?)"),
        Bad(
            marked: valid.replacingOccurrences(of: "expect:", with: "1️⃣expct:"),
            message: "unknown key 'expct' in a case (did you mean 'expect'?)"),
        Bad(
            marked: valid.replacingOccurrences(of: "AF-LINK-005 MUST NOT", with: "1️⃣AF-LINK-005 MUST"),
            message: "AF-LINK-005 is MUST NOT in the catalog, not MUST"),
        Bad(
            marked: valid.replacingOccurrences(of: "AF-LINK-005 MUST NOT", with: "1️⃣AF-LINK-006 MUST NOT"),
            message: "unknown requirement 'AF-LINK-006' (did you mean 'AF-LINK-005'?)"),
        Bad(
            marked: valid.replacingOccurrences(of: "scenario: consent", with: "scenario: 1️⃣consnet"),
            message: "'consnet' is not a valid scenario (did you mean 'consent'?)"),
        Bad(
            marked: valid.replacingOccurrences(of: "action: decline", with: "action: 1️⃣close"),
            message: "'close' is not a valid action"),
        Bad(
            marked: valid.replacingOccurrences(of: "https://evil.example/", with: "1️⃣${clientid}"),
            message: "unknown variable '${clientid}' (did you mean '${client_id}'?)"),
        Bad(
            marked: valid.replacingOccurrences(of: "https://evil.example/", with: "1️⃣${sent.state}"),
            message: "'${sent.…}' refers to the link that was sent"),
        Bad(
            marked: valid.replacingOccurrences(of: "id: app-link/x/one", with: "id: 1️⃣App Link"),
            message: "case ID 'App Link' must be segments"),
        Bad(
            marked: valid.replacingOccurrences(of: "title: One", with: "title: 1️⃣\"\\t \u{3000}\""),
            message: "'title' is empty"),
        Bad(
            marked: "1️⃣" + valid.replacingOccurrences(of: "profile: app-link\n", with: ""),
            message: "a case is missing the required key 'profile'"),
        Bad(
            marked: valid.replacingOccurrences(of: "https://evil.example/", with: "1️⃣${row.nope}") + "table:\n  - key: a\n",
            message: "the table has no column 'nope'"),
        // A check on the opened URL needs a check that a decline fails, or a declining target would pass.
        Bad(
            marked: valid.replacingOccurrences(of: "AF-LINK-005 MUST NOT", with: "1️⃣AF-LINK-010 MUST")
                .replacingOccurrences(of: "action: decline", with: "code: present"),
            message: "'code' judges the opened URL; add 'action: open'"),
        Bad(
            marked: valid.replacingOccurrences(of: "AF-LINK-005 MUST NOT", with: "1️⃣AF-LINK-010 MUST")
                .replacingOccurrences(of: "  action: decline", with: "  one_of:\n    - code: present\n    - error: invalid_request"),
            message: "these alternatives judge the opened URL"),
        Bad(
            marked: valid.replacingOccurrences(of: "AF-LINK-005 MUST NOT", with: "1️⃣AF-LINK-005 MUST NOT")
                .replacingOccurrences(of: "action: decline", with: "status: 302"),
            message: "'status' judges an HTTP response; a link step has none"),
        // A check that reads to nothing is a diagnostic, never silently dropped.
        Bad(
            marked: valid.replacingOccurrences(of: "action: decline", with: "distinct: 1️⃣\"\""),
            message: "'distinct' needs the name of a captured value"),
        Bad(
            marked: valid.replacingOccurrences(of: "AF-LINK-005 MUST NOT", with: "1️⃣AF-LINK-005 MUST NOT")
                .replacingOccurrences(of: "action: decline", with: "distinct: code"),
            message: "'distinct' names 'code', which no step up to this one captures"),
        Bad(
            marked: valid.replacingOccurrences(of: "action: decline", with: "json: 1️⃣[]"),
            message: "'json' must be a mapping"),
        Bad(
            marked: "1️⃣" + valid.replacingOccurrences(of: "profile: app-link", with: "profile: native-client"),
            message: "a native-client case drives the app through 'steps'"),
    ]

    @Test("Each malformed case gets a located diagnostic", arguments: badCases)
    func diagnostics(_ bad: Bad) {
        let marked = MarkedText(bad.marked)
        do {
            let cases = try load(marked.text)
            Issue.record("loaded \(cases.count) cases without an error")
        } catch {
            let first = error.diagnostics.first
            #expect(first?.message.contains(bad.message) == true, "got: \(error)")
            #expect(first?.location.line == marked.line, "got: \(error)")
            #expect(first?.location.column == marked.column, "got: \(error)")
            #expect(first?.lineText.isEmpty == false, "the diagnostic shows the offending line")
        }
    }

    @Test("A table expands into one case per row, located at the row")
    func tableExpansion() throws {
        let text =
            Self.valid.replacingOccurrences(of: "app-link/x/one", with: "app-link/x/${row.key}")
            .replacingOccurrences(of: "https://evil.example/", with: "${row.uri}")
            + "table:\n  - key: a\n    uri: https://a.example/\n  - key: b\n    uri: https://b.example/\n"
        let cases = try load(text)
        #expect(cases.map(\.id) == ["app-link/x/a", "app-link/x/b"])
        #expect(cases.map(\.location.line) == [12, 14])
        guard case .link(let recipe)? = cases.last?.steps.first?.action else {
            Issue.record("the case is not one link step")
            return
        }
        #expect(recipe.set.first?.value == Template(literal: "https://b.example/"))
    }

    @Test("A table's checks are read once when no row changes them, and per row when one does")
    func sharedChecks() throws {
        let base = Self.valid.replacingOccurrences(of: "app-link/x/one", with: "app-link/x/${row.key}")
        let table = "table:\n  - key: a\n    level: MUST NOT\n    action: decline\n  - key: b\n    level: MUST NOT\n    action: open\n"
        // What a case checks, without where the file lies (each load writes its own temporary file).
        func checks(_ conformanceCase: ConformanceCase?) -> [String] {
            (conformanceCase?.steps.first?.checks ?? []).map { "\($0.requirement) \($0.expectation) line \($0.location.line)" }
        }
        // The same checks for every row: each case has them, equal to a single case's.
        let same = try load(base + table)
        let single = try load(Self.valid)
        #expect(same.count == 2)
        #expect(!checks(single.first).isEmpty)
        #expect(same.allSatisfy { checks($0) == checks(single.first) })
        // A check that names a column: each row reads its own.
        let varying = try load(base.replacingOccurrences(of: "action: decline", with: "action: ${row.action}") + table)
        #expect(checks(varying.first) == checks(single.first))
        #expect(checks(varying.last) != checks(varying.first))
        // A mistake in shared checks is reported once, at its line, not once per row.
        let broken = base.replacingOccurrences(of: "action: decline", with: "action: close") + table
        #expect(throws: DiagnosticList.self) { try load(broken) }
        do {
            _ = try load(broken)
        } catch {
            #expect(error.diagnostics.filter { $0.message.contains("'close' is not a valid action") }.count == 1)
        }
    }

    @Test("A table whose columns change nothing of the steps shares one steps array, and every row still needs what they use")
    func sharedSteps() throws {
        func base(_ steps: [ConformanceCase]) -> [UnsafePointer<Step>?] { steps.map { $0.steps.withUnsafeBufferPointer(\.baseAddress) } }
        let template = Self.valid.replacingOccurrences(of: "app-link/x/one", with: "app-link/x/${row.key}")
            .replacingOccurrences(of: "https://evil.example/", with: "https://evil.example/${project_id}")
        let rows = "table:\n  - key: a\n    name: A\n  - key: b\n    name: B\n  - key: c\n    name: C\n"
        let shared = try load(template + rows)
        #expect(shared.count == 3)
        #expect(Set(base(shared)).count == 1, "one array for every row")
        #expect(shared.allSatisfy { $0.needs == [.projectID] }, "each row sends ${project_id}")
        #expect(shared.map(\.location.line) == [12, 14, 16])
        // A title that names a column: the rows differ there, and still share their steps.
        let titled = try load(template.replacingOccurrences(of: "title: One", with: "title: One ${row.name}") + rows)
        #expect(titled.map(\.title) == ["One A", "One B", "One C"])
        #expect(Set(base(titled)).count == 1)
        // A link that names a column: each row's own steps.
        let varying = try load(template.replacingOccurrences(of: "evil.example/", with: "${row.key}.example/") + rows)
        #expect(Set(base(varying)).count == 3)
        #expect(Set(varying.map(\.steps)).count == 3)
        #expect(varying.allSatisfy { $0.needs == [.projectID] })
    }

    @Test(
        "Case IDs are non-empty segments of [A-Za-z0-9._-] joined by '/'",
        arguments: [
            ("app-link/state/echoed", true), ("a", true), ("A.b_c-9/x", true), ("app-link/redirect-uri/allowed/prod-com.google.OPA", true),
            ("", false), ("/a", false), ("a/", false), ("a//b", false), ("App Link", false), ("a/é", false), ("a/b\\c", false),
            ("a/${row.key}", false), ("a/\u{FF0F}b", false),
        ])
    func caseIDs(_ id: String, _ valid: Bool) {
        #expect(CaseLoader.isValidCaseID(id) == valid)
    }

    @Test("The built-in table of allowed flip URIs gives twelve cases")
    func builtInTable() throws {
        let text =
            Self.valid.replacingOccurrences(of: "app-link/x/one", with: "app-link/x/${row.key}")
            .replacingOccurrences(of: "https://evil.example/", with: "${row.uri}") + "table: allowed_flip_uris\n"
        #expect(try load(text).count == 12)
    }

    @Test("Two rows that give the same ID are a duplicate-ID error")
    func duplicateIDs() {
        let text = Self.valid + "table:\n  - key: a\n  - key: b\n"
        #expect(throws: DiagnosticList.self) { try load(text) }
    }

    @Test("Files read at once give their cases and diagnostics in path order, as if read one after another")
    func severalFiles() throws {
        func file(_ name: String, _ text: String) -> SuiteFile { SuiteFile(path: "cases/\(name).case", bytes: Array(text.utf8)) }
        func table(_ prefix: String, rows: Int) -> String {
            Self.valid.replacingOccurrences(of: "app-link/x/one", with: "app-link/\(prefix)/${row.key}") + "table:\n"
                + (0..<rows).map { "  - key: r\($0)\n" }.joined()
        }
        // More files than are read at once, handed over out of order; two broken, one repeating an ID of another.
        let files = [
            file("g", table("g", rows: 3)),
            file("a", table("a", rows: 5)),
            file("c", "id: [unclosed\n"),
            file("e", Self.valid.replacingOccurrences(of: "app-link/x/one", with: "app-link/a/r2")),
            file("b", table("b", rows: 4)),
            file("f", table("f", rows: 2)),
            file("d", Self.valid + "colour: blue\n"),
        ]
        let good = files.filter { !["c", "d", "e"].contains($0.path.dropFirst(6).prefix(1)) }
        let suite = try CaseLoader.load(files: good, base: "cases", catalog: catalog)
        #expect(
            suite.cases.map(\.id)
                == ["a", "b", "f", "g"].flatMap { prefix in
                    (0..<["a": 5, "b": 4, "f": 2, "g": 3][prefix, default: 0]).map { "app-link/\(prefix)/r\($0)" }
                })
        #expect(suite.cases.map(\.location.line) == [5, 4, 2, 3].flatMap { rows in (0..<rows).map { 12 + $0 } })
        do {
            _ = try CaseLoader.load(files: files, base: "cases", catalog: catalog)
            Issue.record("broken files loaded")
        } catch {
            let found = error.diagnostics
            #expect(found.map(\.location.file) == ["cases/c.case", "cases/d.case", "cases/e.case"], "\(found)")
            #expect(
                found.last?.message.contains("duplicate case ID 'app-link/a/r2' (first defined at cases/a.case:14") == true,
                "\(found.last?.message ?? "")")
            // The line under a diagnostic found across files is the offending file's own.
            #expect(found.last?.lineText == "id: app-link/a/r2", "\(found.last?.lineText ?? "")")
            #expect(found[1].lineText == "colour: blue", "\(found[1].lineText)")
        }
    }

    @Test("The project's case files load with no diagnostics, and IDs are unique")
    func projectCases() throws {
        let (_, suite) = try SuiteRun.load()
        #expect(suite.cases.count >= 100)
        #expect(Set(suite.cases.map(\.id)).count == suite.cases.count)
        #expect(suite.digest.count == 64)
    }

    @Test("The case digest does not depend on how the cases path is spelled")
    func digestIsPathIndependent() throws {
        let catalog = try CatalogLoader.load(path: PackageRoot.catalog)
        let plain = try CaseLoader.load(from: PackageRoot.cases, catalog: catalog)
        let roundabout = try CaseLoader.load(from: PackageRoot.url.appendingPathComponent("Conformance/cases/../cases/").path, catalog: catalog)
        #expect(plain.digest == roundabout.digest)
        #expect(plain.cases.map(\.group) == roundabout.cases.map(\.group))
    }

    @Test("Every requirement in the catalog is covered by a case, or says why not; none is both")
    func coverage() throws {
        let (catalog, suite) = try SuiteRun.load()
        let covered = Set(suite.cases.flatMap(\.requirements).map(\.id))
        for requirement in catalog.requirements {
            if covered.contains(requirement.id) {
                #expect(requirement.uncoveredReason == nil, "\(requirement.id) has cases but is still marked planned or not observable")
            } else {
                #expect(requirement.uncoveredReason != nil, "\(requirement.id) has no case and no 'planned:' or 'not_observable:' reason")
            }
        }
    }

    @Test(
        "Every requirement of the shared reference catalog has a row in ours",
        .enabled(if: PackageRoot.hasShared("reference/requirements-catalog.md"), "needs ../shared/reference beside the clone (CI has it)"))
    func referenceRows() throws {
        let reference = PackageRoot.shared.appendingPathComponent("reference/requirements-catalog.md").path
        let text = try String(contentsOfFile: reference, encoding: .utf8)
        let ids = text.split(separator: "\n").filter { $0.hasPrefix("#### ") }.compactMap {
            $0.split(separator: " ").dropFirst().first.map(String.init)
        }
        #expect(ids.count >= 100)
        let ours = Set(try SuiteRun.load().0.requirements.map(\.id))
        #expect(Set(ids).subtracting(ours).isEmpty, "missing: \(Set(ids).subtracting(ours).sorted())")
    }
}
