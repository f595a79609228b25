import AppFlipDigest

/// Values generated per case that are deterministic for the same seed and case ID.
package struct GeneratedValues: Sendable, Hashable {
    private var seed: UInt64
    private var caseID: String
    package var state: String
    /// A nonce, derived when a case asks for it (most never do).
    package var nonce: String { GeneratedValues.derive(seed: seed, caseID: caseID, purpose: "nonce") }
    /// A PKCE code verifier: 48 unreserved characters (RFC 7636 §4.1), derived when a case asks for it.
    package var codeVerifier: String {
        GeneratedValues.derive(seed: seed, caseID: caseID, purpose: "verifier-1")
            + GeneratedValues.derive(seed: seed, caseID: caseID, purpose: "verifier-2")
    }

    package init(seed: UInt64, caseID: String) {
        self.seed = seed
        self.caseID = caseID
        state = GeneratedValues.derive(seed: seed, caseID: caseID, purpose: "state")
    }

    /// The opaque `id` of one request to a link handler: unique per case, step and repetition, reproducible from
    /// the seed, and carrying nothing a handler could map back to a case.
    package func requestID(step: Int, repetition: Int) -> String {
        GeneratedValues.derive(seed: seed, caseID: caseID, purpose: "request-\(step)-\(repetition)")
    }

    /// 24 URL-safe characters (144 bits) from SHA-256 over the seed, the purpose and the case ID.
    /// Written without an array (every case derives its state and a request ID): the input in a scratch buffer (on the
    /// stack when small), the digest read where it lies, the characters straight into the string.
    static func derive(seed: UInt64, caseID: String, purpose: String) -> String {
        let count = 9 + purpose.utf8.count + caseID.utf8.count
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { input in
            var written = 0
            for shift in stride(from: 0, to: 64, by: 8) {
                input[written] = UInt8(truncatingIfNeeded: seed >> UInt64(shift))
                written += 1
            }
            for byte in purpose.utf8 {
                input[written] = byte
                written += 1
            }
            input[written] = 0
            written += 1
            for byte in caseID.utf8 {
                input[written] = byte
                written += 1
            }
            return SHA256.withDigest(of: UnsafeRawBufferPointer(start: input.baseAddress, count: written)) { digest in
                String(unsafeUninitializedCapacity: 24) { text in
                    var characters = 0
                    var bits = 0
                    var accumulator = 0
                    for byte in digest.prefix(18) {
                        accumulator = accumulator << 8 | Int(byte)
                        bits += 8
                        while bits >= 6 {
                            bits -= 6
                            text[characters] = alphabet[(accumulator >> bits) & 0x3F]
                            characters += 1
                        }
                    }
                    return characters
                }
            }
        }
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
