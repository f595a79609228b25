import AppFlipBase
import AppFlipChecks
import AppFlipDigest
import AppFlipModel

/// An authorization code a `code: fresh` check accepted, so the run can tell whether a target handed out the same
/// code twice (a code that repeats is not single-use) and how guessable its codes are. The value is kept only until
/// the run records it (`IssuedCodeLedger`): from then on a code is its digest and its share of the entropy estimate.
struct IssuedCode: Sendable, Hashable {
    var digest: CodeDigest
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
                                digest: CodeDigest(SHA256.hash(value)), value: String(decoding: value, as: UTF8.self),
                                requirement: group.requirement))
                    }
                }
            case .oneOf:
                index += 1
            }
        }
        return found
    }
}

/// A code's SHA-256, in four words: what the run keeps of each code it was issued.
struct CodeDigest: Sendable, Hashable {
    private let words: (UInt64, UInt64, UInt64, UInt64)

    init(_ digest: [UInt8]) {
        func word(_ index: Int) -> UInt64 {
            var value: UInt64 = 0
            for byte in digest.dropFirst(index * 8).prefix(8) { value = value << 8 | UInt64(byte) }
            return value
        }
        words = (word(0), word(1), word(2), word(3))
    }

    static func == (lhs: CodeDigest, rhs: CodeDigest) -> Bool { lhs.words == rhs.words }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
