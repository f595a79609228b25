import AppFlipBase
import AppFlipChecks
import AppFlipModel
import Foundation

/// Every authorization code a run's `code: fresh` checks accepted, kept as the run goes in a form that does not grow
/// with the codes' text: each code's digest with the case that first held it (and the others only for a code that
/// came back), and, per requirement, the distinct codes' digests and their characters position by position, which is
/// all the entropy estimate reads (`EntropyEstimate`). A code's value is never kept past its case.
///
/// At the end of the run (`judge`), every case that holds a code another case (or another of its steps) held too gets
/// a failed check, and the first case of each requirement a check of its codes' joint entropy.
final class IssuedCodeLedger: Sendable {
    private let state = Locked(State())

    /// A case holding a code: which case, the requirement that accepted it, and its place among the case's codes (the
    /// checks a case is given come in that order).
    private struct Holder: Sendable {
        var caseIndex: Int
        var requirement: RequirementReference
        var position: Int
    }

    /// The distinct codes one requirement accepted: their digests, the first case that held one, and each position's
    /// characters over every code long enough to have it.
    private struct Sample: Sendable {
        var first: Int
        var digests: Set<CodeDigest> = []
        var columns: [Column] = []
        var shortest = Int.max

        mutating func add(_ code: IssuedCode, of caseIndex: Int) {
            first = min(first, caseIndex)
            guard digests.insert(code.digest).inserted else { return }
            var position = 0
            for scalar in code.value.unicodeScalars {
                if position == columns.count { columns.append(Column()) }
                columns[position].insert(scalar)
                position += 1
            }
            shortest = min(shortest, position)
        }

        /// `EntropyEstimate.bits(of:)` of the distinct codes, from what was kept of them.
        var bits: Double { EntropyEstimate.bits(columns: columns.prefix(shortest == .max ? 0 : shortest).map(\.scalars)) }
    }

    /// The characters seen at one position: ASCII as bits (a code is ASCII, and this is on every case's path), any
    /// other in a set.
    private struct Column: Sendable {
        private var ascii: (UInt64, UInt64) = (0, 0)
        private var other: Set<Unicode.Scalar> = []

        mutating func insert(_ scalar: Unicode.Scalar) {
            switch scalar.value {
            case 0..<64: ascii.0 |= 1 << UInt64(scalar.value)
            case 64..<128: ascii.1 |= 1 << UInt64(scalar.value - 64)
            default: other.insert(scalar)
            }
        }

        var scalars: Set<Unicode.Scalar> {
            var scalars = other
            for value in 0..<128 as Range<UInt32> {
                let bits = value < 64 ? ascii.0 >> UInt64(value) : ascii.1 >> UInt64(value - 64)
                if bits & 1 == 1, let scalar = Unicode.Scalar(value) { scalars.insert(scalar) }
            }
            return scalars
        }
    }

    private struct State: Sendable {
        var first: [CodeDigest: Holder] = [:]
        var more: [CodeDigest: [Holder]] = [:]
        var samples: [RequirementReference: Sample] = [:]
    }

    /// Records the codes case `caseIndex` was issued, in the order its steps accepted them.
    func record(_ codes: [IssuedCode], of caseIndex: Int) {
        guard !codes.isEmpty else { return }
        state.withLock { state in
            for (position, code) in codes.enumerated() {
                let holder = Holder(caseIndex: caseIndex, requirement: code.requirement, position: position)
                if state.first[code.digest] == nil { state.first[code.digest] = holder } else { state.more[code.digest, default: []].append(holder) }
                // Changed in place: a copy out of the dictionary would copy its set of digests, once a code.
                state.samples[code.requirement, default: Sample(first: caseIndex)].add(code, of: caseIndex)
            }
        }
    }

    /// Adds a failed check to every case that accepted a code another case (or another step) accepted too, then to
    /// the first case of each requirement a check of the entropy of its distinct codes.
    func judge(_ results: inout [CaseResult?]) {
        let state = state.withLock { $0 }
        // Each repeated code's holders, gathered by case: a case's checks come in the order it was issued its codes.
        var repeatedIn: [Int: [(position: Int, requirement: RequirementReference, holders: [Int])]] = [:]
        for (digest, more) in state.more {
            guard let first = state.first[digest] else { continue }
            let holders = [first] + more
            var seen = Set<Int>()
            for holder in holders where seen.insert(holder.caseIndex).inserted {
                // The first place the case holds the code: a case given it twice is told once.
                let own = holders.filter { $0.caseIndex == holder.caseIndex }.min { $0.position < $1.position } ?? holder
                repeatedIn[holder.caseIndex, default: []].append((own.position, own.requirement, holders.map(\.caseIndex)))
            }
        }
        for (index, repeated) in repeatedIn {
            guard var result = results[index] else { continue }
            for code in repeated.sorted(by: { $0.position < $1.position }) {
                let others = code.holders.filter { $0 != index }.compactMap { results[$0]?.conformanceCase.id }
                let observed =
                    others.isEmpty
                    ? "the same code came back \(code.holders.count) times in this case"
                    : "the same code came back in \(code.holders.count) answers of this run; also in "
                        + Set(others).sorted().prefix(5).joined(separator: ", ") + (Set(others).count > 5 ? " and \(Set(others).count - 5) more" : "")
                result.add(
                    CheckResult(
                        requirement: code.requirement, expected: "a fresh code for every consent in the run (a code is single-use)",
                        observed: observed, verdict: code.requirement.level.violationVerdict))
            }
            results[index] = result
        }
        judgeEntropy(state.samples, &results)
    }

    /// Adds, to the first case of each requirement that accepted fresh codes, a check of their joint entropy.
    private func judgeEntropy(_ samples: [RequirementReference: Sample], _ results: inout [CaseResult?]) {
        for (requirement, sample) in samples {
            guard sample.digests.count >= IssuedCode.minimumSample, var result = results[sample.first] else { continue }
            let bits = sample.bits
            result.add(
                CheckResult(
                    requirement: requirement,
                    expected: "the run's fresh codes carry at least \(IssuedCode.requiredBits) bits of entropy (estimated)",
                    observed: "about \(Int(bits)) bits over \(sample.digests.count) codes of this run",
                    verdict: bits >= Double(IssuedCode.requiredBits) ? .pass : requirement.level.violationVerdict))
            results[sample.first] = result
        }
    }
}

extension CaseResult {
    /// The result with a check the run judged across its cases: a violation worsens its verdict, unless it is an error.
    fileprivate mutating func add(_ check: CheckResult) {
        checks.append(check)
        if check.verdict > verdict, verdict != .error, check.verdict != .pass { verdict = check.verdict }
    }
}
