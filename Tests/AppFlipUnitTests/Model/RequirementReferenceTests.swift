import AppFlipModel
import AppFlipSyntax
import AppFlipTestSupport
import Testing

@Suite("Requirement references")
struct RequirementReferenceTests {
    @Test(
        "IDs are upper-case words and digits joined by single hyphens",
        arguments: [
            ("AF-LINK-005", true), ("NAT-REQ-004", true), ("TOK-CODE-001", true), ("A-1", true), ("NAT-MIX-001-S", true),
            ("AF", false), ("", false), ("af-link-005", false), ("AF-LINK-", false), ("-AF-LINK", false), ("AF--LINK", false),
            ("AF-LİNK-005", false), ("AF-LINK-٥", false), ("AF_LINK-005", false), ("AF-LINK 005", false),
        ])
    func wellFormed(_ id: String, _ expected: Bool) {
        #expect(RequirementReference.isWellFormedID(id) == expected)
    }

    @Test("A case's requirements are each listed once, in the order first named, by its steps and then its checks")
    func firstNamedOrder() {
        let pool = ["AF-A-1", "AF-A-2", "AF-B-1", "AF-LONGER-THAN-SMALL-1"].flatMap { id in
            [Level.must, .should].map { RequirementReference(id: id, level: $0) }
        }
        var random = Mutator(seed: 1206)
        let location = SourceLocation(file: "x.case", line: 1, column: 1)
        for _ in 0..<2_000 {
            let named = (0..<random.below(12)).map { _ in pool[random.below(pool.count)] }
            let judged = (0..<random.below(12)).map { _ in pool[random.below(pool.count)] }
            // The oracle: each reference appended unless it is already listed.
            func listed(_ references: [RequirementReference], after start: [RequirementReference] = []) -> [RequirementReference] {
                references.reduce(into: start) { list, reference in if !list.contains(reference) { list.append(reference) } }
            }
            let steps = named.chunked(random.below(3) + 1).map { chunk in
                Step(
                    action: .link(.base), checks: chunk.map { CheckGroup(requirement: $0, expectation: .all([]), location: location) },
                    location: location)
            }
            let conformanceCase = ConformanceCase(
                id: "x/1", title: "x", profile: .appLink, scenario: .consent, steps: steps, location: location, group: "x")
            #expect(conformanceCase.requirements == listed(named))
            let checks = judged.map { CheckResult(requirement: $0, expected: "e", observed: "o", verdict: .pass) }
            #expect(CaseResult.requirements(of: conformanceCase, checks: checks) == listed(judged, after: listed(named)))
        }
    }

    @Test("A case's setup requirements are those only its setup groups name, also after its steps change")
    func setupRequirements() {
        let pool = ["AF-A-1", "AF-A-2", "AF-B-1", "AF-LONGER-THAN-SMALL-1"].map { RequirementReference(id: $0, level: .must) }
        var random = Mutator(seed: 1207)
        let location = SourceLocation(file: "x.case", line: 1, column: 1)
        func steps(_ random: inout Mutator) -> [Step] {
            (0..<random.below(3) + 1).map { _ in
                let groups = (0..<random.below(6)).map { _ in
                    CheckGroup(
                        requirement: pool[random.below(pool.count)], expectation: .all([]), location: location,
                        isSetup: random.below(2) == 0)
                }
                return Step(action: .link(.base), checks: groups, location: location)
            }
        }
        // The oracle: named by a setup group and by no other group of any step.
        func oracle(_ steps: [Step]) -> Set<String> {
            let groups = steps.flatMap(\.checks)
            return Set(groups.filter(\.isSetup).map(\.requirement.id)).subtracting(groups.filter { !$0.isSetup }.map(\.requirement.id))
        }
        var sawSetup = 0
        for _ in 0..<2_000 {
            let first = steps(&random)
            var conformanceCase = ConformanceCase(
                id: "x/1", title: "x", profile: .appLink, scenario: .consent, steps: first, location: location, group: "x")
            #expect(conformanceCase.setupRequirements == oracle(first))
            let second = steps(&random)
            conformanceCase.steps = second
            #expect(conformanceCase.setupRequirements == oracle(second))
            if !oracle(second).isEmpty { sawSetup += 1 }
        }
        #expect(sawSetup > 100)
    }

    @Test("A reference is an ID and a level; anything else is refused")
    func parsing() {
        #expect(RequirementReference(parsing: "AF-LINK-005 MUST NOT")?.level == .mustNot)
        #expect(RequirementReference(parsing: "AF-LINK-005  SHOULD")?.id == "AF-LINK-005")
        #expect(RequirementReference(parsing: "AF-LINK-005") == nil)
        #expect(RequirementReference(parsing: "af-link-005 MUST") == nil)
        #expect(RequirementReference(parsing: "AF-LINK-005 MUSTN'T") == nil)
    }
}

extension Array {
    /// The elements in runs of `size` (the last may be shorter).
    fileprivate func chunked(_ size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
