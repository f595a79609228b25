import AppFlipBase
import AppFlipChecks
import AppFlipDigest
import AppFlipModel
import AppFlipTestSupport
import Testing

@testable import AppFlipRunner

/// The run keeps of each fresh code its digest and its characters position by position (`IssuedCodeLedger`): a code
/// handed out twice must still be found, in every case that got it, and the entropy estimate must be the one the codes
/// themselves give.
@Suite("Issued-code ledger")
struct IssuedCodeLedgerTests {
    static let requirement = RequirementReference(id: "AF-LINK-012", level: .must)

    static func code(_ value: String) -> IssuedCode {
        IssuedCode(digest: CodeDigest(SHA256.hash(Array(value.utf8))), value: value, requirement: requirement)
    }

    static func results(_ count: Int) -> [CaseResult?] {
        (0..<count).map { index in
            CaseResult(
                conformanceCase: Fixtures.conformanceCase("app-link/demo/code-\(index)"), verdict: .pass, checks: [],
                evidence: Evidence(), duration: 0)
        }
    }

    static func randomCode(_ random: inout Mutator) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        return String((0..<43).map { _ in alphabet[random.below(alphabet.count)] })
    }

    @Test("A code two cases got fails both, each naming the other; one a case got twice fails it once; fresh codes pass")
    func freshness() throws {
        var random = Mutator(seed: 3)
        let ledger = IssuedCodeLedger()
        let shared = Self.randomCode(&random)
        let twice = Self.randomCode(&random)
        // Recorded out of case order, as judging threads finish them.
        ledger.record([Self.code(shared)], of: 2)
        ledger.record([Self.code(Self.randomCode(&random))], of: 0)
        ledger.record([Self.code(twice), Self.code(Self.randomCode(&random)), Self.code(twice)], of: 3)
        ledger.record([Self.code(shared)], of: 1)
        var results = Self.results(4)
        ledger.judge(&results)
        let verdicts = results.map { $0?.verdict }
        #expect(verdicts == [.pass, .fail, .fail, .fail])
        let observed = results.map { $0?.checks.map(\.observed) ?? [] }
        #expect(observed[0].isEmpty)
        #expect(observed[1] == ["the same code came back in 2 answers of this run; also in app-link/demo/code-2"])
        #expect(observed[2] == ["the same code came back in 2 answers of this run; also in app-link/demo/code-1"])
        #expect(observed[3] == ["the same code came back 2 times in this case"])
        #expect(results.compactMap { $0 }.allSatisfy { $0.checks.allSatisfy { $0.requirement == Self.requirement } })
    }

    @Test("The entropy check goes to the requirement's first case: random codes pass, a counter fails, four codes are no sample")
    func entropy() {
        var random = Mutator(seed: 9)
        for (values, expected) in [
            ((0..<6).map { _ in Self.randomCode(&random) }, Verdict.pass),
            ((0..<6).map { "code-\(1000 + $0)" }, Verdict.fail),
            ((0..<4).map { _ in Self.randomCode(&random) }, nil),
        ] {
            let ledger = IssuedCodeLedger()
            for (index, value) in values.enumerated().reversed() { ledger.record([Self.code(value)], of: index + 1) }
            var results = Self.results(values.count + 1)
            ledger.judge(&results)
            #expect(results[0]?.checks.isEmpty == true, "case 0 holds no code")
            let check = results[1]?.checks.first
            #expect(check?.verdict == expected)
            if let check {
                #expect(check.observed == "about \(Int(EntropyEstimate.bits(of: values))) bits over \(values.count) codes of this run")
            }
            #expect(results.dropFirst(2).allSatisfy { $0?.checks.isEmpty == true })
        }
    }

    @Test("The estimate from positions kept as bits is the estimate from the codes: lengths, alphabets, non-ASCII")
    func sameEstimate() {
        var random = Mutator(seed: 21)
        let alphabets = [Array("0123456789abcdef"), Array("ABCdef012-_~."), Array("aé€😀Z9"), Array("01")]
        for _ in 0..<200 {
            let alphabet = alphabets[random.below(alphabets.count)]
            let values = (0..<(5 + random.below(20))).map { _ in
                String((0..<(1 + random.below(40))).map { _ in alphabet[random.below(alphabet.count)] })
            }
            let distinct = Array(Set(values))
            guard distinct.count >= IssuedCode.minimumSample else { continue }
            let ledger = IssuedCodeLedger()
            for (index, value) in values.enumerated() { ledger.record([Self.code(value)], of: index) }
            var results = Self.results(values.count)
            ledger.judge(&results)
            let entropy = results.compactMap { $0 }.flatMap(\.checks).first { $0.expected.contains("entropy") }
            #expect(entropy?.observed == "about \(Int(EntropyEstimate.bits(of: distinct))) bits over \(distinct.count) codes of this run")
        }
    }

    @Test(
        "Each requirement counts its own distinct codes: a code two requirements accepted is in both samples, once each, past the 64 kept as bits too"
    )
    func distinctPerRequirement() {
        var random = Mutator(seed: 33)
        let first = RequirementReference(id: "AF-LINK-012", level: .must)
        // Fillers give the requirements numbers, so the two under test are the 2nd and the 68th the ledger sees.
        let fillers = (0..<66).map { RequirementReference(id: "AF-FILL-\($0)", level: .must) }
        for late in [fillers[0], RequirementReference(id: "AF-LATE-1", level: .must)] {
            let ledger = IssuedCodeLedger()
            let values = (0..<5).map { _ in Self.randomCode(&random) }
            var caseIndex = 0
            func record(_ value: String, _ requirement: RequirementReference) {
                ledger.record([IssuedCode(digest: CodeDigest(SHA256.hash(Array(value.utf8))), value: value, requirement: requirement)], of: caseIndex)
                caseIndex += 1
            }
            for value in values { record(value, first) }
            for filler in fillers where filler != late { record(Self.randomCode(&random), filler) }
            // The same five under the late requirement, the first of them twice: five distinct codes, not six.
            for value in values + [values[0]] { record(value, late) }
            var results = Self.results(caseIndex)
            ledger.judge(&results)
            let entropy = results.compactMap { $0 }.flatMap(\.checks).filter { $0.expected.contains("entropy") }
            #expect(entropy.first { $0.requirement == first }?.observed.hasSuffix("over 5 codes of this run") == true)
            #expect(entropy.first { $0.requirement == late }?.observed.hasSuffix("over 5 codes of this run") == true, "\(late.id)")
            // Every case that held a code another held fails freshness under the requirement that accepted it there.
            let repeated = results.compactMap { $0 }.filter { $0.checks.contains { $0.expected.hasPrefix("a fresh code") } }
            #expect(repeated.count == 11)
        }
    }
}
