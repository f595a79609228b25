import AppFlipEvidence
import AppFlipLoading
import AppFlipModel
import AppFlipReporting
import AppFlipSyntax
import AppFlipTestSupport
import Foundation
import Testing

/// Certification programs: declared once in the catalog, each judged by one rule from its cases.
@Suite("Certification programs")
struct CertificationProgramTests {
    private func catalog(programs: String) throws(DiagnosticList) -> Catalog {
        let source = """
            sources:
              - key: RFC6749
                title: OAuth
                url: https://www.rfc-editor.org/rfc/rfc6749
            requirements:
              - id: AF-LINK-007
                level: MUST
                profile: app-link
                title: t
                statement: s
                sources: ["RFC6749 §3.1"]
              - id: NAT-AS-001
                level: MUST
                profile: authorize
                title: t
                statement: s
                sources: ["RFC6749 §3.1"]
            programs:
            \(programs)
            """
        return try CatalogLoader.load(bytes: Array(source.utf8), file: "programs.catalog")
    }

    @Test("A program loads with its profiles, what it leaves out and why")
    func loads() throws {
        let loaded = try catalog(
            programs: """
                  - key: links
                    title: Links
                    profiles: [app-link, authorize]
                    leaves_out: ["NAT-AS-*"]
                    leaves_out_why: Not part of it.
                    covers: The link handler.
                """)
        let program = try #require(loaded.program("links"))
        #expect(program.profiles == [.appLink, .authorize])
        #expect(program.needs(try #require(loaded["AF-LINK-007"])))
        #expect(!program.needs(try #require(loaded["NAT-AS-001"])))
    }

    @Test("An unknown profile, a profile twice, a key twice, a leaves_out naming nothing or without its why: each an error at its line")
    func refused() {
        let bad: [(String, String)] = [
            ("    profiles: [app-links]\n    covers: c", "programs.catalog:21:16: error: 'app-links' is not a profile (did you mean 'app-link'?)"),
            ("    profiles: [app-link, app-link]\n    covers: c", "profile 'app-link' is listed twice"),
            (
                "    profiles: [app-link]\n    leaves_out: [\"TOK-*\"]\n    leaves_out_why: w\n    covers: c",
                "leaves out 'TOK-*', which names no requirement of its profiles"
            ),
            ("    profiles: [authorize]\n    leaves_out: [\"NAT-AS-*\"]\n    covers: c", "say why in 'leaves_out_why'"),
        ]
        for (body, message) in bad {
            do {
                _ = try catalog(programs: "  - key: links\n    title: Links\n" + body)
                Issue.record("accepted: \(body)")
            } catch {
                #expect(error.description.contains(message), "\(error.description)")
            }
        }
        #expect(throws: DiagnosticList.self) {
            _ = try catalog(
                programs:
                    "  - key: a\n    title: A\n    profiles: [app-link]\n    covers: c\n  - key: a\n    title: B\n    profiles: [token]\n    covers: c"
            )
        }
    }

    @Test("The built-in catalog: every profile in a program, the three programs the sources define, Android's device-only rows to attest")
    func builtIn() throws {
        let (catalog, suite) = try SuiteRun.load()
        #expect(catalog.programs.map(\.key) == ["app-flip-ios", "app-flip-android", "native-client"])
        for profile in Profile.allCases { #expect(catalog.programs.contains { $0.profiles.contains(profile) }, "\(profile) is in no program") }
        let android = try #require(catalog.program("app-flip-android"))
        let toAttest = catalog.toAttest(for: [android]).map(\.id)
        for id in ["AF-ANDR-016", "AF-ANDR-017", "AF-ANDR-018", "AF-ANDR-019", "AF-ANDR-020"] { #expect(toAttest.contains(id), "\(id)") }
        #expect(!toAttest.contains("AF-LINK-021"))
        #expect(catalog.toAttest(for: [try #require(catalog.program("app-flip-ios"))]).map(\.id).contains("AF-LINK-021"))
        // A case that checks only what a program leaves out (the server's native-client support) is not the program's.
        let native = try #require(suite.cases.first { $0.id.hasPrefix("authorize/native/") })
        #expect(!android.judges(native))
        #expect(android.judges(try #require(suite.cases.first { $0.profile == .androidAppFlip })))
    }

    @Test("Documentation/Certification.md's program table is the catalog's: each program's key, title and profiles")
    func readme() throws {
        let (catalog, _) = try SuiteRun.load()
        let readme = try PackageRoot.text("Documentation/Certification.md")
        for program in catalog.programs {
            let row = "| `\(program.key)`: \(program.title) | " + program.profiles.map { "`\($0.rawValue)`" }.joined(separator: ", ") + " | "
            #expect(readme.contains(row), "Documentation/Certification.md has no row \(row)")
        }
    }

    private func facts(_ profile: String, _ verdict: Verdict, untested: Bool = false, _ requirements: [String] = ["AF-LINK-007"])
        -> ProgramOutcome.CaseFacts
    {
        ProgramOutcome.CaseFacts(
            id: "\(profile)/\(UUID().uuidString)", profile: profile, verdict: verdict, untested: untested, requirements: requirements)
    }

    @Test("Certified only when every case of every profile was judged and none failed; a left-out case's skip costs nothing")
    func rule() {
        let program = CertificationProgram(
            key: "p", title: "P", profiles: [.appLink, .authorize], covers: "c", leavesOut: ["NAT-AS-*"],
            leavesOutWhy: "w")
        let whole = [facts("app-link", .pass), facts("authorize", .warn)]
        #expect(ProgramOutcome.judge(program, cases: whole, incomplete: false, shard: nil).status == .attestedByPartner)
        let leftOut = whole + [facts("authorize", .skip, untested: true, ["NAT-AS-001"])]
        #expect(ProgramOutcome.judge(program, cases: leftOut, incomplete: false, shard: nil).status == .attestedByPartner)
        let failed = ProgramOutcome.judge(program, cases: whole + [facts("app-link", .fail)], incomplete: false, shard: nil)
        #expect(failed.status == .notCertified && failed.reason == "1 case failed")
        let skipped = ProgramOutcome.judge(program, cases: whole + [facts("authorize", .skip, untested: true)], incomplete: false, shard: nil)
        #expect(skipped.reason == "1 case not judged (authorize)")
        let missing = ProgramOutcome.judge(program, cases: [facts("app-link", .pass)], incomplete: false, shard: nil)
        #expect(missing.reason == "no case of authorize ran")
        #expect(ProgramOutcome.judge(program, cases: whole, incomplete: true, shard: nil).reason == "the run was interrupted")
        #expect(ProgramOutcome.judge(program, cases: whole, incomplete: false, shard: "1/2").status == .shard)
        // Another program's failure is not this one's.
        #expect(
            ProgramOutcome.judge(program, cases: whole + [facts("android-app-flip", .fail)], incomplete: false, shard: nil).status
                == .attestedByPartner)
        #expect(
            ProgramOutcome.headline([failed, ProgramOutcome.judge(program, cases: whole, incomplete: false, shard: nil)])
                == "PASSED BY THE SUITE, ATTESTED BY THE PARTNER: P; NOT A CERTIFICATION PASS: P (1 case failed)")
    }

    @Test("The suite's part passed and a MUST no machine judges unattested: awaiting attestation, exit unchanged; a failing one: not certified")
    func attestationRule() throws {
        var catalog = Fixtures.catalog
        func requirement(_ id: String, _ level: Level) -> Requirement {
            var requirement = Requirement(id: id, level: level, profile: "app-link", title: "t", statement: "s", citations: [])
            requirement.notObservable = "by hand"
            return requirement
        }
        let program = CertificationProgram(key: "p", title: "P", profiles: [.appLink], covers: "c")
        let toAttest = [requirement("AF-LINK-021", .must), requirement("AF-LINK-098", .should)]
        let whole = [facts("app-link", .pass)]
        func judge(_ attested: [String: Attestation.Verdict]) -> ProgramOutcome {
            ProgramOutcome.judge(program, cases: whole, incomplete: false, shard: nil, toAttest: toAttest, attested: attested)
        }
        let awaiting = judge([:])
        #expect(awaiting.status == .awaitingAttestation && awaiting.reason == "AF-LINK-021" && !awaiting.failedBySuite)
        #expect(awaiting.headline == "PASSED BY THE SUITE, AWAITING ATTESTATION: P (AF-LINK-021)")
        // A SHOULD left unattested does not hold a certification back; a MUST attested as not applicable does not either.
        #expect(judge(["AF-LINK-021": .pass]).status == .attestedByPartner)
        #expect(judge(["AF-LINK-021": .notApplicable]).status == .attestedByPartner)
        let failing = judge(["AF-LINK-021": .fail, "AF-LINK-098": .pass])
        #expect(failing.status == .notCertified && failing.reason == "attested as not holding: AF-LINK-021" && !failing.failedBySuite)
        // The suite's own failures come first, whatever was attested; they alone decide the exit code.
        let failed = ProgramOutcome.judge(
            program, cases: whole + [facts("app-link", .fail)], incomplete: false, shard: nil, toAttest: toAttest,
            attested: ["AF-LINK-021": .pass])
        #expect(failed.status == .notCertified && failed.failedBySuite && failed.reason == "1 case failed")
        // Through a run: the same outcome from its attestations, and exit 0 while it awaits.
        catalog.requirements.append(toAttest[0])
        catalog.programs = [CertificationProgram(key: "links", title: "Links", profiles: [.appLink], covers: "The link handler.")]
        var provenance = Fixtures.provenance
        provenance.certificationPrograms = ["links"]
        var run = RunResult(results: [Fixtures.mixedRun().results[0]], catalog: catalog, provenance: provenance)
        #expect(run.programOutcomes.map(\.status) == [.awaitingAttestation] && run.exitStatus == .conformant)
        run.attestations = [
            Attestation(requirement: "AF-LINK-021", verdict: .fail, by: "R", date: "2026-11-28", note: "The screen names Google Home.")
        ]
        #expect(run.programOutcomes.map(\.status) == [.notCertified] && run.exitStatus == .conformant)
        // results.json read back derives the same, and holds a record that says otherwise to it.
        var document = try ResultsDocument.parse(Data(ResultsDocument(run: run, profiles: ["app-link"], reproducible: true).render().utf8))
        #expect(document.outcome.certification?.map(\.status) == ["not-certified"])
        #expect(document.contradictions(catalog: catalog).isEmpty, "\(document.contradictions(catalog: catalog))")
        document.outcome.certification?[0].status = "attested-by-partner"
        document.outcome.certification?[0].reason = nil
        #expect(!document.contradictions(catalog: catalog).isEmpty)
    }

    @Test("A program's needs load by configuration key; an unknown key or one listed twice is an error at its line")
    func needs() throws {
        let loaded = try catalog(
            programs: """
                  - key: links
                    title: Links
                    profiles: [app-link, authorize]
                    needs: [endpoints.api, https, sign_in.consent, second-user, narrowed_scope]
                    covers: The link handler.
                """)
        #expect(loaded.program("links")?.needs == [.endpoint(.api), .https, .signIn(.consent), .user(.secondUser), .value(.narrowedScope)])
        for (list, message) in [
            ("[endpoints.apis]", "'endpoints.apis' is not something a configuration gives (did you mean 'endpoints.api'?)"),
            ("[https, https]", "need 'https' is listed twice"),
        ] {
            do {
                _ = try catalog(programs: "  - key: links\n    title: Links\n    profiles: [app-link]\n    needs: \(list)\n    covers: c")
                Issue.record("accepted: \(list)")
            } catch {
                #expect(error.description.contains("programs.catalog:22:") && error.description.contains(message), "\(error.description)")
            }
        }
        for key in ProgramNeed.keys { #expect(ProgramNeed(key: key)?.key == key) }
    }

    @Test("Each built-in program declares every need of its cases, and holds no case that needs a client it leaves out")
    func builtInNeeds() throws {
        let (catalog, suite) = try SuiteRun.load()
        for program in catalog.programs {
            let undeclared = program.undeclaredNeeds(of: suite.cases)
            #expect(undeclared.isEmpty, "\(program.key) does not declare \(undeclared.map { "\($0.need.key) (\($0.caseID))" })")
            if program.leavesOut("NAT-AS-001") {
                let native = suite.cases.filter { program.judges($0) && $0.nativeClientNeed != nil }
                #expect(native.isEmpty, "\(program.key) judges \(native.map(\.id)), which need a native client")
            }
        }
        // The holding is a real one: a program that forgets a need is told which case has it.
        var ios = try #require(catalog.program("app-flip-ios"))
        ios.needs.removeAll { $0 == .endpoint(.api) || $0 == .value(.narrowedScope) }
        let found = ios.undeclaredNeeds(of: suite.cases)
        #expect(Set(found.map(\.need)) == [.endpoint(.api), .value(.narrowedScope)], "\(found)")
        #expect(found.first { $0.need == .endpoint(.api) }?.caseID.hasPrefix("token/") == true)
        // And the TOK-REF-006 case, a native client's, is in no App Flip program.
        let rotation = try #require(suite.cases.first { $0.id == "token/native/refresh-rotation-with-replay-detection" })
        #expect(rotation.nativeClientNeed != nil && !ios.judges(rotation))
    }

    @Test("verify derives each program's outcome again: a results.json that records another is a contradiction")
    func derived() throws {
        var catalog = Fixtures.catalog
        catalog.programs = [CertificationProgram(key: "links", title: "Links", profiles: [.appLink], covers: "The link handler.")]
        var provenance = Fixtures.provenance
        provenance.certificationPrograms = ["links"]
        let passing = Fixtures.mixedRun().results[0]
        var run = RunResult(results: [passing], catalog: catalog, provenance: provenance)
        // What no machine judges, attested: certified needs both.
        run.attestations = catalog.toAttest(for: catalog.programs).map {
            Attestation(requirement: $0.id, verdict: .pass, by: "R", date: "2026-11-28", note: "Checked by hand for the test.")
        }
        #expect(run.programOutcomes.map(\.status) == [.attestedByPartner])
        var document = try ResultsDocument.parse(Data(ResultsDocument(run: run, profiles: ["app-link"], reproducible: true).render().utf8))
        #expect(document.outcome.certification?.map(\.status) == ["attested-by-partner"])
        #expect(document.contradictions(catalog: catalog).isEmpty, "\(document.contradictions(catalog: catalog))")
        document.outcome.certification?[0].status = "not-certified"
        #expect(
            document.contradictions(catalog: catalog).contains {
                $0.contains("records the certification links not-certified, but its cases make it links attested-by-partner")
            },
            "\(document.contradictions(catalog: catalog))")
        document.outcome.certification = nil
        document.run.certificationPrograms = ["other"]
        #expect(document.contradictions(catalog: catalog).contains { $0.contains("'other', which the catalog does not declare") })
    }
}
