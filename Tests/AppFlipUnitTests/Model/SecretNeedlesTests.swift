import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipRedaction

/// The base64 characters a secret alone decides, at each of the three alignments, against Foundation's encoding of
/// the secret after that many other bytes.
@Suite("A secret's base64 needles")
struct SecretNeedlesTests {
    @Test("Each alignment's core is the stretch of Foundation's encoding that only the secret's bits make, on 5,000 seeded secrets")
    func base64CoreAgainstFoundation() {
        var random = Mutator(seed: 20_261_205)
        for _ in 0..<5_000 {
            let secret = (0..<random.below(40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            for alignment in 0..<3 {
                let first = (8 * alignment + 5) / 6
                let last = 8 * (alignment + secret.count) / 6
                // Whatever bytes stand before and after, the core is the same: other bytes on both sides.
                let before = (0..<alignment).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                let encoded = Array(Data(before + secret + [UInt8(truncatingIfNeeded: random.next())]).base64EncodedString().utf8)
                let expected = last > first ? Array(encoded[first..<last]) : []
                guard SecretNeedles.base64Core(of: secret, alignment: alignment) == expected else {
                    Issue.record("\(secret) at \(alignment): \(SecretNeedles.base64Core(of: secret, alignment: alignment)), Foundation \(expected)")
                    return
                }
            }
        }
    }
}
