import AppFlipBase
import AppFlipChecks
import AppFlipDigest
import AppFlipModel

/// An authorization code a `code: fresh` check accepted, so the run can tell whether a target handed out the same
/// code twice (a code that repeats is not single-use) and how guessable its codes are. The value stays in memory
/// for the entropy estimate; reports only ever see counts.
struct IssuedCode: Sendable, Hashable {
    var digest: String
    var value: String
    var requirement: RequirementReference

    /// The bits of entropy the run's fresh codes must carry (RFC 6749 §10.10: guessing at most 2^-128).
    static let requiredBits = 128
    /// Fewer distinct codes than this are no sample: two random codes share a character at some position often
    /// enough to understate a code just above the bound, so the estimate is made only from this many on.
    static let minimumSample = 5

    /// The codes that `code: fresh` checks of an `all` group accepted in an observation whose opened URL has the
    /// parameters `opened` (as the judge read them).
    static func accepted(by checks: [CheckGroup], results: [CheckResult], opened: [QueryParameter]) -> [IssuedCode] {
        var found: [IssuedCode] = []
        var index = 0
        for group in checks {
            switch group.expectation {
            case .all(let groupChecks):
                for check in groupChecks {
                    defer { index += 1 }
                    guard check.base.traits.recordsIssuedCode, index < results.count, results[index].held else { continue }
                    let codes = opened.all(named: "code")
                    // One observation issues one code, however many checks accepted it: recorded once.
                    if codes.count == 1, let value = codes[0].value, found.isEmpty {
                        found.append(
                            IssuedCode(
                                digest: SHA256.hexDigest(value), value: String(decoding: value, as: UTF8.self),
                                requirement: group.requirement))
                    }
                }
            case .oneOf:
                index += 1
            }
        }
        return found
    }

    /// Adds a failed check to every case that accepted a code another case (or another step) accepted too.
    static func judgeFreshness(_ results: inout [CaseResult?], codes: [Int: [IssuedCode]]) {
        var holders: [String: [Int]] = [:]
        for (index, issued) in codes.sorted(by: { $0.key < $1.key }) {
            for code in issued { holders[code.digest, default: []].append(index) }
        }
        for (index, issued) in codes {
            guard var result = results[index] else { continue }
            var seen = Set<String>()
            for code in issued where (holders[code.digest]?.count ?? 0) > 1 && seen.insert(code.digest).inserted {
                let others = (holders[code.digest] ?? []).filter { $0 != index }.compactMap { results[$0]?.conformanceCase.id }
                let repeats = (holders[code.digest] ?? []).count
                let observed =
                    others.isEmpty
                    ? "the same code came back \(repeats) times in this case"
                    : "the same code came back in \(repeats) answers of this run; also in " + Set(others).sorted().prefix(5).joined(separator: ", ")
                        + (Set(others).count > 5 ? " and \(Set(others).count - 5) more" : "")
                result.checks.append(
                    CheckResult(
                        requirement: code.requirement, expected: "a fresh code for every consent in the run (a code is single-use)",
                        observed: observed, verdict: code.requirement.level.violationVerdict))
                if code.requirement.level.violationVerdict > result.verdict, result.verdict != .error {
                    result.verdict = code.requirement.level.violationVerdict
                }
            }
            results[index] = result
        }
        judgeEntropy(&results, codes: codes)
    }

    /// Adds, to the first case of each requirement that accepted fresh codes, a check of their joint entropy.
    private static func judgeEntropy(_ results: inout [CaseResult?], codes: [Int: [IssuedCode]]) {
        var byRequirement: [RequirementReference: (first: Int, values: [String])] = [:]
        for (index, issued) in codes.sorted(by: { $0.key < $1.key }) {
            // Appended in place: building a new array per code made a run of n codes cost n² copies.
            for code in issued { byRequirement[code.requirement, default: (index, [])].values.append(code.value) }
        }
        for (requirement, entry) in byRequirement {
            let distinct = Set(entry.values)
            guard distinct.count >= minimumSample, var result = results[entry.first] else { continue }
            let bits = EntropyEstimate.bits(of: distinct.sorted())
            let held = bits >= Double(requiredBits)
            result.checks.append(
                CheckResult(
                    requirement: requirement, expected: "the run's fresh codes carry at least \(requiredBits) bits of entropy (estimated)",
                    observed: "about \(Int(bits)) bits over \(distinct.count) codes of this run",
                    verdict: held ? .pass : requirement.level.violationVerdict))
            if !held, requirement.level.violationVerdict > result.verdict, result.verdict != .error {
                result.verdict = requirement.level.violationVerdict
            }
            results[entry.first] = result
        }
    }
}
