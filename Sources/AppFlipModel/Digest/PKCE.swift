import AppFlipBase
import AppFlipDigest

/// PKCE (RFC 7636): verifiers and S256 challenges.
package enum PKCE {
    /// `BASE64URL-ENCODE(SHA256(ASCII(code_verifier)))` (RFC 7636 §4.2).
    package static func s256Challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(Array(verifier.utf8)))
    }

    /// RFC 7636 §4.1: 43 to 128 characters of `[A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~"`.
    package static func isValidVerifier(_ verifier: String) -> Bool {
        (43...128).contains(verifier.utf8.count) && verifier.utf8.allSatisfy { FormEncoding.isUnreserved($0) }
    }
}
