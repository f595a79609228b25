import AppFlipSyntax
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipLoading
@testable import AppFlipModel

/// Baselines: read with clear errors, strict in both directions (an accepted failure does not fail the run; a
/// stale or expired entry does), and never partial (a case with an unlisted failure still fails).
@Suite("Baseline")
struct BaselineTests {
    private func load(_ text: String) throws(DiagnosticList) -> Baseline {
        try BaselineLoader.load(bytes: Array(text.utf8), file: "baseline.txt")
    }

    private func errors(_ text: String) -> [String] {
        do {
            _ = try load(text)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test("A baseline lists requirements or cases, each with a reason and an expiry date")
    func reads() throws {
        let baseline = try load(
            """
            known_failures:
              - requirement: AF-LINK-005
                reason: fixed in 2.4 (TICKET-1)
                expires: 2027-01-31
              - case: app-link/other/error
                reason: the simulator hangs on this one
                expires: 2026-12-01

            """)
        #expect(baseline.entries.map(\.subject) == [.requirement("AF-LINK-005"), .conformanceCase("app-link/other/error")])
        #expect(baseline.entries[0].location.line == 2)
    }

    @Test(
        "A malformed entry is an error at its line: no reason, a bad date, two subjects, a duplicate, an unknown key",
        arguments: [
            ("known_failures:\n  - requirement: AF-LINK-005\n    expires: 2027-01-31\n", "baseline.txt:2:5: error:"),
            (
                "known_failures:\n  - requirement: AF-LINK-005\n    reason: later\n    expires: 31/01/2027\n",
                "'expires' is a date that exists, YYYY-MM-DD"
            ),
            ("known_failures:\n  - requirement: AF-LINK-005\n    reason: later\n    expires: 2025-02-29\n", "('2025-02-29' is not)"),
            ("known_failures:\n  - requirement: AF-LINK-005\n    reason: later\n    expires: 2026-04-31\n", "('2026-04-31' is not)"),
            ("known_failures:\n  - requirement: AF-LINK-005\n    case: x\n    reason: later\n    expires: 2027-01-31\n", "exactly one of"),
            (
                "known_failures:\n  - case: x\n    reason: later\n    expires: 2027-01-31\n  - case: x\n    reason: again\n    expires: 2027-01-31\n",
                "case x is listed twice"
            ),
            ("known_failures:\n  - requirement: AF-LINK-005\n    reason: later\n    expires: 2027-01-31\n    owner: me\n", "owner"),
            ("known_failures:\n  - requirement: af-link-5\n    reason: later\n    expires: 2027-01-31\n", "is not a requirement ID"),
            ("known_failures:\n  - requirement: AF-LINK-005\n    reason: x\n    expires: 2027-01-31\n", "in at least 3 characters ('x' is 1)"),
        ])
    func malformed(_ text: String, _ expected: String) {
        let found = errors(text)
        #expect(found.contains { $0.contains(expected) }, "\(found)")
    }

    private func baseline(_ entries: [(Baseline.Entry.Subject, String)]) -> Baseline {
        Baseline(
            entries: entries.map {
                Baseline.Entry(
                    subject: $0.0, reason: "accepted for now", expires: $0.1,
                    location: SourceLocation(file: "b", line: 1, column: 1))
            }, path: "b")
    }

    @Test("A date is one the calendar has: leap days by the Gregorian rule, no 31st of a 30-day month")
    func dates() {
        for (text, valid) in [
            ("2028-02-29", true), ("2000-02-29", true), ("2100-02-29", false), ("2025-02-29", false), ("2026-04-30", true),
            ("2026-04-31", false), ("2026-12-31", true), ("2026-00-10", false), ("2026-01-00", false),
        ] {
            #expect(BaselineLoader.isDate(text) == valid, "\(text)")
        }
    }

    @Test("Listed failures are known and do not fail the run; the rest of the verdict stands")
    func accepts() {
        var run = Fixtures.mixedRun()
        #expect(run.exitStatus == .nonConformant)
        run.apply(
            baseline([(.requirement("AF-LINK-005"), "2027-01-31"), (.conformanceCase("app-link/other/error"), "2027-01-31")]),
            today: "2026-11-23")
        #expect(run.knownCount == 2)
        #expect(run.count(.fail) == 0 && run.count(.error) == 0)
        #expect(run.baseline?.problems.isEmpty == true)
        #expect(run.exitStatus == .conformant, "\(run.overall)")
    }

    @Test("An expired entry fails the run and its failure counts again; an entry whose failure is gone fails the run")
    func strict() {
        var expired = Fixtures.mixedRun()
        expired.apply(baseline([(.requirement("AF-LINK-005"), "2026-11-22")]), today: "2026-11-23")
        #expect(expired.knownCount == 0 && expired.count(.fail) == 1)
        #expect(expired.baseline?.problems.map(\.kind) == [.expired])
        // The expiry day itself still holds.
        var lastDay = Fixtures.mixedRun()
        lastDay.apply(baseline([(.requirement("AF-LINK-005"), "2026-11-23")]), today: "2026-11-23")
        #expect(lastDay.knownCount == 1)

        var stale = Fixtures.mixedRun()
        stale.apply(
            baseline([
                (.requirement("AF-LINK-005"), "2027-01-31"), (.requirement("AF-LINK-019"), "2027-01-31"),
                (.conformanceCase("app-link/demo/pass"), "2027-01-31"), (.conformanceCase("not/in/run"), "2027-01-31"),
            ]),
            today: "2026-11-23")
        #expect(
            Set(stale.baseline?.problems.map(\.entry.subject) ?? []) == [.requirement("AF-LINK-019"), .conformanceCase("app-link/demo/pass")],
            "\(stale.baseline?.problems.map(\.message) ?? [])")
        #expect(stale.baseline?.unexercised.map(\.subject) == [.conformanceCase("not/in/run")])
        #expect(stale.exitStatus == .nonConformant)
    }

    @Test("A case failing two requirements is known only when both are listed")
    func partial() {
        let fixture = Fixtures.mixedRun()
        guard var failing = fixture.results.first(where: { $0.verdict == .fail }), let first = failing.checks.first else { return }
        var second = first
        second.requirement = RequirementReference(id: "AF-LINK-006", level: .must)
        failing.checks.append(second)
        let one = baseline([(.requirement("AF-LINK-005"), "2027-01-31")])
        #expect(one.accepting(failing, today: "2026-11-23").isEmpty)
        let both = baseline([(.requirement("AF-LINK-005"), "2027-01-31"), (.requirement("AF-LINK-006"), "2027-01-31")])
        #expect(both.accepting(failing, today: "2026-11-23").count == 2)
    }
}
