import AppFlipDigest
import AppFlipSyntax

/// Values generated per case that are deterministic for the same seed and case ID.
package struct GeneratedValues: Sendable, Hashable {
    private var seed: UInt64
    private var caseID: String
    package var state: String
    package var nonce: String
    /// A PKCE code verifier: 48 unreserved characters (RFC 7636 §4.1).
    package var codeVerifier: String

    package init(seed: UInt64, caseID: String) {
        self.seed = seed
        self.caseID = caseID
        state = GeneratedValues.derive(seed: seed, caseID: caseID, purpose: "state")
        nonce = GeneratedValues.derive(seed: seed, caseID: caseID, purpose: "nonce")
        codeVerifier = GeneratedValues.derive(seed: seed, caseID: caseID, purpose: "verifier-1")
            + GeneratedValues.derive(seed: seed, caseID: caseID, purpose: "verifier-2")
    }

    /// The opaque `id` of one request to a link handler: unique per case, step and repetition, reproducible from
    /// the seed, and carrying nothing a handler could map back to a case.
    package func requestID(step: Int, repetition: Int) -> String {
        GeneratedValues.derive(seed: seed, caseID: caseID, purpose: "request-\(step)-\(repetition)")
    }

    /// 24 URL-safe characters (144 bits) from SHA-256 over the seed, the purpose and the case ID.
    static func derive(seed: UInt64, caseID: String, purpose: String) -> String {
        var hasher = SHA256()
        hasher.update((0..<8).map { UInt8(truncatingIfNeeded: seed >> (UInt64($0) * 8)) })
        hasher.update(Array(purpose.utf8) + [0] + Array(caseID.utf8))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let digest = hasher.finalize()
        var text = ""
        var bits = 0
        var accumulator = 0
        for byte in digest.prefix(18) {
            accumulator = accumulator << 8 | Int(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                text.append(alphabet[(accumulator >> bits) & 0x3F])
            }
        }
        return text
    }
}
