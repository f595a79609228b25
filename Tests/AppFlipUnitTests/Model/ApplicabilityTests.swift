import AppFlipChecks
import AppFlipModel
import AppFlipReporting
import AppFlipTestSupport
import Foundation
import Testing

/// A failure is blamed on the requirement actually violated: checks about a URL's content do not apply when
/// nothing was opened, and each check grades at its own requirement's level.
@Suite("Applicability")
struct ApplicabilityTests {
    let configuration = RunConfiguration(link: "https://app.example/flip", clientID: "cid", seed: 1)
    let flip = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"
    let here = SourceLocationValue(file: "f", line: 1, column: 1)

    private func judge(_ groups: [CheckGroup], _ observation: Observation, sent: String = "state=s") -> [CheckResult] {
        Judge(sentLink: "https://app.example/flip?\(sent)", configuration: configuration, generated: GeneratedValues(seed: 1, caseID: "x"))
            .judge(groups, observation: observation)
    }

    private func group(_ id: String, _ level: Level, _ checks: [AnyCheck]) -> CheckGroup {
        CheckGroup(requirement: RequirementReference(id: id, level: level), expectation: .all(checks), location: here)
    }

    @Test("A handler that declines fails only the requirement that wanted a result; URL-content checks are not applicable")
    func declineBlamesTheActionRequirement() throws {
        let groups = [
            group("AF-LINK-003", .must, [.code(.absent)]),
            group(
                "AF-LINK-006", .must,
                [.action(.open), .urlBase(try Template.parse("${sent.redirect_uri}")), .error(["invalid_request"]), .state(.echoed)]),
            group("AF-LINK-011", .must, [.strictParameters]),
            group("AF-LINK-013", .must, [.errorIfPresent(["invalid_request", "cancelled"])]),
        ]
        let results = judge(groups, .link(HandlerAnswer(action: .decline)))
        let failed = Set(results.filter(\.isFinding).map(\.requirement.id))
        #expect(failed == ["AF-LINK-006"])
        #expect(results.first { $0.requirement.id == "AF-LINK-003" }?.held == true)
        for result in results where result.requirement.id == "AF-LINK-011" || result.requirement.id == "AF-LINK-013" {
            #expect(!result.isApplicable)
            #expect(result.observed.contains("nothing was opened"))
        }
        let result = CaseResult.judged(Fixtures.conformanceCase("x"), checks: results, evidence: Evidence(), duration: 0)
        #expect(result.verdict == .fail)
        #expect(Set(result.findings.map(\.requirement.id)) == ["AF-LINK-006"])
    }

    @Test("The report names the violated requirement and lists the checks that were not judged, once per reason")
    func reportShowsNotJudged() throws {
        let groups = [
            group("AF-LINK-006", .must, [.action(.open), .error(["invalid_request"]), .state(.echoed)]),
            group("AF-LINK-011", .must, [.strictParameters]),
        ]
        let results = judge(groups, .link(HandlerAnswer(action: .decline)))
        let result = CaseResult.judged(Fixtures.conformanceCase("x"), checks: results, evidence: Evidence(), duration: 0)
        let run = RunResult(results: [result], catalog: Fixtures.catalog, provenance: Fixtures.provenance)
        let report = MarkdownReport(run: run, profiles: ["app-link"]).render()
        #expect(report.contains("1. ❌ AF-LINK-006 MUST"), "\(report)")
        #expect(report.contains("- AF-LINK-006 MUST: 2 checks not judged — nothing was opened"))
        #expect(report.contains("- AF-LINK-011 MUST: 1 check not judged — nothing was opened"))
        #expect(!report.contains("❌ AF-LINK-011 MUST"))
        #expect(RequirementOutcome.verdict(of: "AF-LINK-011", in: [result]) == .skip)
    }

    @Test("A refusal that is exactly right passes every check, the content checks included")
    func correctRefusalPasses() throws {
        let groups = [
            group("AF-LINK-003", .must, [.code(.absent)]),
            group("AF-LINK-006", .must, [.action(.open), .error(["invalid_request"]), .state(.echoed)]),
            group("AF-LINK-011", .must, [.strictParameters]),
        ]
        let results = judge(groups, .link(HandlerAnswer(action: .open, url: "\(flip)?error=invalid_request&state=s")))
        #expect(results.allSatisfy { $0.held }, "\(results.map(\.observed))")
    }

    @Test("An HTTP page instead of a redirect is described as an HTTP answer, never as a declining handler")
    func httpPageIsNotADecline() {
        let page = HTTPObservation(status: 400, headers: [("Content-Type", "text/html")], body: Array("<p>bad request</p>".utf8))
        let results = judge([group("AF-AUTHZ-006", .must, [.action(.open), .error(["unsupported_response_type"]), .state(.echoed)])], .http(page))
        #expect(results[0].verdict == .fail)
        #expect(results[0].observed.hasPrefix("HTTP 400"))
        for result in results.dropFirst() {
            #expect(!result.isApplicable)
            #expect(result.observed.contains("HTTP 400"), "\(result.observed)")
            #expect(!result.observed.contains("declined"), "\(result.observed)")
        }
    }

    @Test("A SHOULD probe that the server accepts warns; the MUST vocabulary check beside it does not apply")
    func shouldProbeStaysShould() {
        let answer = HandlerAnswer(action: .open, url: "\(flip)?code=abc&state=s")
        let results = judge(
            [
                group("AF-AUTHZ-016", .should, [.action(.open), .error(["invalid_request"])]),
                group("AF-AUTHZ-008", .must, [.errorIfPresent(["invalid_request", "access_denied"]), .state(.echoed), .strictParameters]),
            ], .link(answer))
        #expect(results.filter(\.isFinding).map(\.verdict) == [.warn])
        #expect(results.filter(\.isFinding).map(\.requirement.id) == ["AF-AUTHZ-016"])
        let result = CaseResult.judged(Fixtures.conformanceCase("x"), checks: results, evidence: Evidence(), duration: 0)
        #expect(result.verdict == .warn)
    }

    @Test("An error outside the vocabulary fails the vocabulary requirement")
    func vocabularyViolation() {
        let results = judge(
            [group("AF-LINK-013", .must, [.errorIfPresent(["invalid_request"])])],
            .link(HandlerAnswer(action: .open, url: "\(flip)?error=user_not_authorized&state=s")))
        #expect(results.map(\.verdict) == [.fail])
    }

    @Test("one_of: not applicable when no alternative applies; a decline alternative decides")
    func oneOfApplicability() {
        let contentOnly = CheckGroup(
            requirement: RequirementReference(id: "AF-LINK-011", level: .must),
            expectation: .oneOf([[.code(.present)], [.error(["invalid_request"])]]), location: here)
        let declined = judge([contentOnly], .link(HandlerAnswer(action: .decline)))
        #expect(declined.map(\.isApplicable) == [false])
        let withDecline = CheckGroup(
            requirement: RequirementReference(id: "AF-LINK-023", level: .must),
            expectation: .oneOf([[.action(.decline)], [.action(.open), .error(["invalid_request"])]]), location: here)
        #expect(judge([withDecline], .link(HandlerAnswer(action: .decline))).map(\.held) == [true])
        #expect(judge([withDecline], .link(HandlerAnswer(action: .open, url: "\(flip)?code=c"))).map(\.verdict) == [.fail])
    }

    @Test("A case in which no check applied is an error, never a pass")
    func nothingJudgedIsNotAPass() {
        let results = judge([group("AF-LINK-011", .must, [.strictParameters])], .link(HandlerAnswer(action: .decline)))
        let result = CaseResult.judged(Fixtures.conformanceCase("x"), checks: results, evidence: Evidence(), duration: 0)
        #expect(result.verdict == .error)
    }

    @Test("Framing is judged on pages, not on a body-less redirect")
    func framingOnPagesOnly() {
        let redirect = HTTPObservation(status: 302, headers: [("Location", "https://app.example/login")], body: [])
        #expect(judge([group("AF-AUTHZ-021", .should, [.framingDenied])], .http(redirect)).map(\.isApplicable) == [false])
        let page = HTTPObservation(status: 200, headers: [("Content-Type", "text/html")], body: Array("<form></form>".utf8))
        #expect(judge([group("AF-AUTHZ-021", .should, [.framingDenied])], .http(page)).map(\.verdict) == [.warn])
        let framed = HTTPObservation(status: 200, headers: [("Content-Security-Policy", "frame-ancestors 'none'")], body: Array("<form></form>".utf8))
        #expect(judge([group("AF-AUTHZ-021", .should, [.framingDenied])], .http(framed)).map(\.held) == [true])
    }

    struct PlusReading: Sendable, CustomTestStringConvertible {
        var sent: String
        var returned: String
        var held: Bool
        var reading: String
        var testDescription: String { "sent \(sent), returned \(returned)" }
    }

    static let plusReadings: [PlusReading] = [
        PlusReading(sent: "a+b", returned: "a%20b", held: true, reading: "as a space"),
        PlusReading(sent: "a+b", returned: "a+b", held: true, reading: "as a space"),
        PlusReading(sent: "a+b", returned: "a%2Bb", held: true, reading: "as a plus"),
        PlusReading(sent: "a+b", returned: "a%2B%2Bb", held: false, reading: ""),
        PlusReading(sent: "a%2Bb", returned: "a%20b", held: false, reading: ""),  // an encoded plus is unambiguous
        PlusReading(sent: "a%20b", returned: "a%2Bb", held: false, reading: ""),
    ]

    @Test("A raw '+' in the sent state may be read as a space or a plus; the report says which", arguments: plusReadings)
    func plusInState(_ reading: PlusReading) {
        let results = judge(
            [group("AF-LINK-010", .must, [.state(.echoed)])],
            .link(HandlerAnswer(action: .open, url: "\(flip)?code=c&state=\(reading.returned)")), sent: "state=\(reading.sent)")
        #expect(results.map(\.held) == [reading.held], "\(results.map(\.observed))")
        if reading.held { #expect(results[0].observed.contains(reading.reading), "\(results[0].observed)") }
    }

    @Test("A case's verdict, message and not-judged note from its checks, against the definition on 20,000 seeded cases")
    func judgedAgainstDefinition() {
        let ids = ["AF-A-1", "AF-A-2", "AF-B-1", "AF-C-1", "AF-LONGER-THAN-SMALL-1"]
        let reasons = ["nothing was opened", "no code", "the condition was not met"]
        let verdicts: [Verdict] = [.pass, .warn, .fail, .error, .skip, .info]
        var random = Mutator(seed: 1208)
        var paths: Set<String> = []
        for _ in 0..<20_000 {
            // The case: groups naming some of the IDs, some as setup only.
            let groups = (0..<random.below(5) + 1).map { _ in
                CheckGroup(
                    requirement: RequirementReference(id: ids[random.below(ids.count)], level: .must), expectation: .all([]),
                    location: here, isSetup: random.below(3) == 0)
            }
            let conformanceCase = ConformanceCase(
                id: "x/1", title: "x", profile: .appLink, scenario: .consent,
                steps: [Step(action: .link(.base), checks: groups, location: here)], location: here, group: "x")
            // The checks: any of the IDs (declared or not), applicable or not.
            let checks = (0..<random.below(7)).map { _ in
                let requirement = RequirementReference(id: ids[random.below(ids.count)], level: .must)
                return random.below(3) == 0
                    ? CheckResult.notApplicable(requirement, expected: "e", reason: reasons[random.below(reasons.count)])
                    : CheckResult(requirement: requirement, expected: "e", observed: "o", verdict: verdicts[random.below(verdicts.count)])
            }
            let unmet: Set<String> = random.below(2) == 0 ? [reasons[2]] : []
            let result = CaseResult.judged(conformanceCase, checks: checks, evidence: Evidence(), duration: 0, unmetConditions: unmet)
            let expected = Self.judgedOracle(conformanceCase, checks, unmet)
            #expect(result.verdict == expected.verdict)
            #expect(result.message == expected.message)
            #expect(result.notJudged == expected.notJudged)
            #expect(result.conditionUnmet == expected.unmet)
            paths.insert("\(expected.verdict) \(expected.notJudged != nil) \(expected.unmet)")
        }
        // Every way out was taken: no check applied, skipped (unmet or not), a finding with a note, the worst verdict.
        #expect(paths.contains("error false false"))
        #expect(paths.contains("skip false true"))
        #expect(paths.contains("skip false false"))
        #expect(paths.contains { $0.hasSuffix("true false") })
        #expect(paths.contains("pass false false"))
    }

    /// `CaseResult.judged` as it was written with a list per question (before 2026-12-06), kept as the oracle.
    private static func judgedOracle(
        _ conformanceCase: ConformanceCase, _ checks: [CheckResult], _ unmetConditions: Set<String>
    ) -> (verdict: Verdict, message: String?, notJudged: String?, unmet: Bool) {
        let applicable = checks.filter(\.isApplicable)
        guard let worst = applicable.map(\.verdict).max() else {
            return (.error, "no check applied to what the target did, so nothing was judged", nil, false)
        }
        let setup = Set(conformanceCase.steps.flatMap(\.checks).filter(\.isSetup).map(\.requirement.id))
            .subtracting(conformanceCase.steps.flatMap(\.checks).filter { !$0.isSetup }.map(\.requirement.id))
        let declared = conformanceCase.requirements
        let tested = checks.filter { check in !setup.contains(check.requirement.id) && declared.contains { $0.id == check.requirement.id } }
        if !tested.isEmpty, !tested.contains(where: \.isApplicable) {
            var reasons: [String] = []
            for reason in tested.compactMap(\.notApplicable) where !reasons.contains(reason) { reasons.append(reason) }
            let why = "not judged: " + reasons.joined(separator: "; ")
            guard applicable.contains(where: \.isFinding) else {
                let unmet = tested.allSatisfy { unmetConditions.contains($0.notApplicable ?? "") }
                return (.skip, unmet ? "not applicable to this target: " + reasons.joined(separator: "; ") : why, nil, unmet)
            }
            return (worst, nil, why, false)
        }
        return (worst, nil, nil, false)
    }
}
