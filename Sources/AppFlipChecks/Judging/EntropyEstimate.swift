import Foundation

/// How many bits of entropy a sample of values carries, estimated from the sample alone: what `entropy_bits` holds
/// captured values to, and what the run holds its fresh authorization codes to (RFC 6749 §10.10).
package enum EntropyEstimate {
    /// A conservative estimate: character positions that never vary across the sample count nothing; each
    /// varying position counts log2 of the alphabet the varying positions draw from. The alphabet is inferred by
    /// character class (hex digits; or lower-case letters, upper-case letters, digits, plus each other symbol
    /// seen), because a small sample shows only part of it and would otherwise understate a random code. A
    /// counter or a timestamp scores low; a code drawn at random scores its length times its alphabet's bits.
    package static func bits(of values: [String]) -> Double {
        let rows = values.map { Array($0.unicodeScalars) }
        let length = rows.map(\.count).min() ?? 0
        return bits(columns: (0..<length).map { position in Set(rows.map { $0[position] }) })
    }

    /// The estimate from each position's characters over the sample, for the positions every value has: what a run
    /// keeps of its codes instead of the codes (`IssuedCodeLedger`).
    package static func bits(columns: some Collection<Set<Unicode.Scalar>>) -> Double {
        var varying = 0
        var seen = Set<Unicode.Scalar>()
        for column in columns where column.count > 1 {
            varying += 1
            seen.formUnion(column)
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
