import Foundation

/// Checks over a sample of captured values: uniqueness and an entropy estimate.
enum SampleJudging {
    static func evaluate(_ assertion: Assertion, samples: [String: [String]], expected: String) -> Judge.Outcome {
        switch assertion {
        case .distinct(let name):
            let values = samples[name] ?? []
            guard values.count >= 2 else {
                return Judge.Outcome(held: false, expected: expected, observed: "\(values.count) value(s) captured; a sample needs at least 2")
            }
            let unique = Set(values).count
            return Judge.Outcome(held: unique == values.count, expected: expected,
                                 observed: "\(unique) different among \(values.count) captured")
        case .entropyBits(let name, let required):
            let values = samples[name] ?? []
            guard values.count >= 2 else {
                return Judge.Outcome(held: false, expected: expected, observed: "\(values.count) value(s) captured; a sample needs at least 2")
            }
            let bits = estimate(values)
            return Judge.Outcome(held: bits >= Double(required), expected: expected,
                                 observed: "about \(Int(bits)) bits (\(values.count) samples, shortest \(values.map(\.count).min() ?? 0) characters)")
        default:
            return Judge.Outcome(held: false, expected: expected, observed: "not a sample check")
        }
    }

    /// A conservative estimate: character positions that never vary across the sample count nothing; each
    /// varying position counts log2 of the alphabet observed at varying positions. A counter or a timestamp
    /// scores low; a code drawn at random from a large alphabet scores its length times its alphabet's bits.
    static func estimate(_ values: [String]) -> Double {
        let rows = values.map { Array($0.unicodeScalars) }
        let length = rows.map(\.count).min() ?? 0
        var varying = 0
        var alphabet = Set<Unicode.Scalar>()
        for position in 0..<length {
            let column = Set(rows.map { $0[position] })
            if column.count > 1 {
                varying += 1
                alphabet.formUnion(column)
            }
        }
        guard alphabet.count > 1 else { return 0 }
        return Double(varying) * Foundation.log2(Double(alphabet.count))
    }
}
