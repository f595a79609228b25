import AppFlipBase
import AppFlipChecks
import AppFlipModel
import Foundation

/// Every authorization code a run's `code: fresh` checks accepted, kept as the run goes in a form that does not grow
/// with the codes' text: each code's digest with the case that first held it and the requirements that accepted it (and
/// the other holders only for a code that came back), and, per requirement, how many distinct codes it accepted and
/// their characters position by position, which is all the entropy estimate reads (`EntropyEstimate`). A code's value
/// is never kept past its case.
///
/// At the end of the run (`judge`), every case that holds a code another case (or another of its steps) held too gets
/// a failed check, and the first case of each requirement a check of its codes' joint entropy.
final class IssuedCodeLedger: Sendable {
    private let state = Locked(State())

    /// A case holding a code, in twelve bytes: which case, the number of the requirement that accepted it
    /// (`State.requirements`), and its place among the case's codes (the checks a case is given come in that order).
    private struct Holder: Sendable {
        var caseIndex: UInt32
        var requirement: UInt32
        var position: UInt32
    }

    /// What the ledger keeps of a code: its first holder, and the requirements (by number, the first 64) that
    /// accepted it, so a code a second requirement accepts counts as distinct for that one.
    private struct Entry: Sendable {
        var first: Holder
        var requirements: UInt64
    }

    /// The distinct codes one requirement accepted: how many, the first case that held one, and each position's
    /// characters over every code long enough to have it.
    private struct Sample: Sendable {
        var first: Int
        var distinct = 0
        var columns: [Column] = []
        var shortest = Int.max

        mutating func add(_ code: IssuedCode) {
            distinct += 1
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
        var codes: [CodeDigest: Entry] = [:]
        /// The other holders of a code that came back (a conformant target has none).
        var more: [CodeDigest: [Holder]] = [:]
        /// The requirements that accepted codes, numbered in the order first seen, and each one's sample.
        var requirements: [RequirementReference] = []
        var samples: [Sample] = []

        mutating func number(of requirement: RequirementReference, caseIndex: Int) -> Int {
            if let number = requirements.firstIndex(of: requirement) { return number }
            requirements.append(requirement)
            samples.append(Sample(first: caseIndex))
            return requirements.count - 1
        }

        /// Whether `requirement` accepted the code before.
        func accepted(_ digest: CodeDigest, _ entry: Entry, by requirement: Int) -> Bool {
            if requirement < 64 { return entry.requirements >> UInt64(requirement) & 1 == 1 }
            return Int(entry.first.requirement) == requirement || (more[digest] ?? []).contains { Int($0.requirement) == requirement }
        }
    }

    /// Records the codes case `caseIndex` was issued, in the order its steps accepted them.
    func record(_ codes: [IssuedCode], of caseIndex: Int) {
        guard !codes.isEmpty else { return }
        state.withLock { state in
            for (position, code) in codes.enumerated() {
                let number = state.number(of: code.requirement, caseIndex: caseIndex)
                let holder = Holder(
                    caseIndex: UInt32(truncatingIfNeeded: caseIndex), requirement: UInt32(truncatingIfNeeded: number),
                    position: UInt32(truncatingIfNeeded: position))
                let bit: UInt64 = number < 64 ? 1 << UInt64(number) : 0
                let distinct: Bool
                if let entry = state.codes[code.digest] {
                    distinct = !state.accepted(code.digest, entry, by: number)
                    state.codes[code.digest]?.requirements |= bit
                    state.more[code.digest, default: []].append(holder)
                } else {
                    distinct = true
                    state.codes[code.digest] = Entry(first: holder, requirements: bit)
                }
                // Changed in place: a copy out of the array would copy its columns, once a code.
                state.samples[number].first = min(state.samples[number].first, caseIndex)
                if distinct { state.samples[number].add(code) }
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
            guard let first = state.codes[digest]?.first else { continue }
            let holders = [first] + more
            var seen = Set<UInt32>()
            for holder in holders where seen.insert(holder.caseIndex).inserted {
                // The first place the case holds the code: a case given it twice is told once.
                let own = holders.filter { $0.caseIndex == holder.caseIndex }.min { $0.position < $1.position } ?? holder
                repeatedIn[Int(holder.caseIndex), default: []].append(
                    (Int(own.position), state.requirements[Int(own.requirement)], holders.map { Int($0.caseIndex) }))
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
        judgeEntropy(Array(zip(state.requirements, state.samples)), &results)
    }

    /// Adds, to the first case of each requirement that accepted fresh codes, a check of their joint entropy.
    private func judgeEntropy(_ samples: [(RequirementReference, Sample)], _ results: inout [CaseResult?]) {
        for (requirement, sample) in samples {
            guard sample.distinct >= IssuedCode.minimumSample, var result = results[sample.first] else { continue }
            let bits = sample.bits
            result.add(
                CheckResult(
                    requirement: requirement,
                    expected: "the run's fresh codes carry at least \(IssuedCode.requiredBits) bits of entropy (estimated)",
                    observed: "about \(Int(bits)) bits over \(sample.distinct) codes of this run",
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
