import AppFlipModel
import AppFlipSyntax

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
        let estimate = EntropyEstimate.bits(of: values)
        return CheckOutcome(
            estimate >= Double(bits),
            "about \(Int(estimate)) bits (\(values.count) samples, shortest \(values.map(\.count).min() ?? 0) characters)")
    }
}
