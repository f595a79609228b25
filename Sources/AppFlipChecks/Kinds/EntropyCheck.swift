import AppFlipModel
import AppFlipSyntax
import Foundation

/// `entropy_bits: {NAME: BITS}`: a conservative estimate of the captured values' entropy reaches BITS.
package struct EntropyCheck: CheckKind {
    package static let key = "entropy_bits"
    package static let documentation = CheckDocumentation(
        .response, values: "`{name: bits}`",
        holdsWhen: "in a repeated step: a conservative estimate of the captured values' entropy reaches the bits (estimated from the "
            + "different values: a repeat is `distinct`'s finding)")

    package var name: String
    package var bits: Int

    package static func read(_ node: Node, reader: inout NodeReader) -> [EntropyCheck]? {
        guard let mapping = reader.mapping(node, "'entropy_bits'") else { return nil }
        var result: [EntropyCheck] = []
        for entry in mapping.entries {
            guard let scalar = reader.scalar(entry.value, "a number of bits"), let bits = Int(scalar.text), bits > 0 else {
                reader.error(at: entry.value.location, "'entropy_bits' maps a captured name to a number of bits")
                return nil
            }
            result.append(EntropyCheck(name: entry.key.text, bits: bits))
        }
        return result
    }

    package var scope: CheckScope { .samples }

    package var traits: CheckTraits { CheckTraits(sampleName: name) }

    package func expected(in context: Template.Context) -> String {
        "the captured \(name) values carry at least \(bits) bits of entropy (estimated)"
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        // A value repeated is `distinct`'s finding, not a lack of entropy: the estimate is of the different values.
        var seen = Set<String>()
        let values = (context.samples[name] ?? []).filter { seen.insert($0).inserted }
        // Too few values to compare: the answers that carried none fail their own checks; this one cannot be judged.
        guard values.count >= 2 else {
            return .notApplicable(
                reason: "\(values.count) different value(s) of \(name) captured; comparing needs at least 2 "
                    + "(the answers' own checks, and `distinct`, say why)")
        }
        let estimate = Self.estimate(values)
        return CheckOutcome(
            estimate >= Double(bits),
            "about \(Int(estimate)) bits (\(values.count) samples, shortest \(values.map(\.count).min() ?? 0) characters)")
    }

    /// A conservative estimate: character positions that never vary across the sample count nothing; each
    /// varying position counts log2 of the alphabet the varying positions draw from. The alphabet is inferred by
    /// character class (hex digits; or lower-case letters, upper-case letters, digits, plus each other symbol
    /// seen), because a small sample shows only part of it and would otherwise understate a random code. A
    /// counter or a timestamp scores low; a code drawn at random scores its length times its alphabet's bits.
    package static func estimate(_ values: [String]) -> Double {
        let rows = values.map { Array($0.unicodeScalars) }
        let length = rows.map(\.count).min() ?? 0
        var varying = 0
        var seen = Set<Unicode.Scalar>()
        for position in 0..<length {
            let column = Set(rows.map { $0[position] })
            if column.count > 1 {
                varying += 1
                seen.formUnion(column)
            }
        }
        guard seen.count > 1 else { return 0 }
        return Double(varying) * Foundation.log2(Double(max(seen.count, alphabetSize(seen))))
    }

    /// The size of the alphabet the observed characters most plausibly come from.
    static func alphabetSize(_ seen: Set<Unicode.Scalar>) -> Int {
        let lowerHex = seen.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
        let upperHex = seen.allSatisfy { ("0"..."9").contains($0) || ("A"..."F").contains($0) }
        if lowerHex || upperHex { return seen.contains { !("0"..."9").contains($0) } ? 16 : 10 }
        var size = 0
        if seen.contains(where: { ("a"..."z").contains($0) }) { size += 26 }
        if seen.contains(where: { ("A"..."Z").contains($0) }) { size += 26 }
        if seen.contains(where: { ("0"..."9").contains($0) }) { size += 10 }
        size += seen.filter { !("a"..."z").contains($0) && !("A"..."Z").contains($0) && !("0"..."9").contains($0) }.count
        return size
    }
}
