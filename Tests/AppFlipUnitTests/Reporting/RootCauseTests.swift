import AppFlipModel
import AppFlipTestSupport
import Testing

@testable import AppFlipReporting

/// Root causes counted in arrays (cases and shapes numbered as first seen) against the string-keyed counting they
/// replaced, kept here as the oracle: the same causes, in the same order, with the same cases and requirements.
@Suite("Root causes against their string-keyed oracle")
struct RootCauseTests {
    static func oracle(_ groups: [FindingGroup]) -> [RootCause] {
        struct Part {
            var shape: String
            var text: String
            var group: Int
            var reference: RequirementReference
        }
        var parts: [String: [Part]] = [:]
        var order: [String] = []
        var results: [String: CaseResult] = [:]
        for (index, group) in groups.enumerated() {
            guard case .check(let reference, _) = group.kind, group.verdict == .fail else { continue }
            for member in group.members {
                let id = member.result.conformanceCase.id
                if parts[id] == nil { order.append(id) }
                results[id] = member.result
                for text in RootCause.elements(of: member.observed) {
                    parts[id, default: []].append(Part(shape: FindingGroup.shape(of: text), text: text, group: index, reference: reference))
                }
            }
        }
        var remaining = Set(order)
        var causes: [RootCause] = []
        while !remaining.isEmpty {
            var counts: [String: Int] = [:]
            var first: [String: Int] = [:]
            for (position, id) in order.enumerated() where remaining.contains(id) {
                for shape in Set((parts[id] ?? []).map(\.shape)) {
                    counts[shape, default: 0] += 1
                    if first[shape] == nil { first[shape] = position }
                }
            }
            guard
                let best = counts.keys.min(by: { lhs, rhs in
                    let left = (-(counts[lhs] ?? 0), first[lhs] ?? 0)
                    let right = (-(counts[rhs] ?? 0), first[rhs] ?? 0)
                    return left != right ? left < right : lhs < rhs
                })
            else { break }
            var cause = RootCause(observed: "", requirements: [], cases: [])
            for id in order where remaining.contains(id) {
                let matching = (parts[id] ?? []).filter { $0.shape == best }
                guard !matching.isEmpty, let result = results[id] else { continue }
                remaining.remove(id)
                cause.cases.append(result)
                if cause.observed.isEmpty { cause.observed = matching[0].text }
                var counted: [RequirementReference] = []
                for part in matching where !counted.contains(part.reference) {
                    counted.append(part.reference)
                    if let row = cause.requirements.firstIndex(where: { $0.reference == part.reference }) {
                        cause.requirements[row].cases += 1
                        cause.requirements[row].group = min(cause.requirements[row].group, part.group)
                    } else {
                        cause.requirements.append((part.reference, 1, part.group))
                    }
                }
            }
            cause.requirements.sort { $0.cases != $1.cases ? $0.cases > $1.cases : $0.group < $1.group }
            causes.append(cause)
        }
        return causes
    }

    static func summary(_ causes: [RootCause]) -> [String] {
        causes.map { cause in
            cause.observed + " | " + cause.requirements.map { "\($0.reference) \($0.cases) \($0.group)" }.joined(separator: ",") + " | "
                + cause.cases.map(\.conformanceCase.id).joined(separator: ",")
        }
    }

    @Test("The same causes as the oracle, in order, on 2,000 seeded runs (shared, repeated and tied observations)")
    func againstOracle() {
        let observations = [
            "no state parameter", "state 'abc' instead of 'xyz'", "state 'q' instead of 'r'", "(1) no code; (2) an error", "an error",
            "opened https://a.example/x?code=1", "opened https://b.example/y", "", "HTTP 500",
        ]
        let references = ["AF-LINK-002", "AF-LINK-010", "AF-LINK-006"].map { RequirementReference(id: $0, level: .must) }
        var random = Mutator(seed: 20_261_205)
        for _ in 0..<2_000 {
            let cases = (0..<(1 + random.below(8))).map { index in
                CaseResult(
                    conformanceCase: Fixtures.conformanceCase("app-link/demo/case-\(index)"), verdict: .fail, checks: [], evidence: Evidence(),
                    duration: 0)
            }
            let groups = (0..<random.below(6)).map { _ in
                FindingGroup(
                    kind: random.below(5) == 0 ? .targetError : .check(references[random.below(references.count)], expected: "e"),
                    verdict: random.below(6) == 0 ? .warn : .fail, shape: "",
                    members: (0..<(1 + random.below(4))).map { _ in
                        FindingGroup.Member(result: cases[random.below(cases.count)], observed: observations[random.below(observations.count)])
                    })
            }
            let (counted, expected) = (Self.summary(RootCause.causes(of: groups)), Self.summary(Self.oracle(groups)))
            guard counted == expected else {
                Issue.record("\(counted), the oracle \(expected)")
                return
            }
        }
    }
}
