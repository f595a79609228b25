import AppFlipDigest
import Foundation

/// An Ed25519 key pair written for a test: the private key a run or merge signs with (`--sign-key`), the public one
/// a reviewer trusts (`--trusted-key`).
package enum SigningKeys {
    /// Writes `NAME.pem` and `NAME.pub` into `directory`; returns their paths.
    package static func write(_ name: String, in directory: String) throws -> (privateKey: String, publicKey: String) {
        let key = try Ed25519.newKey()
        let paths = (directory + "/\(name).pem", directory + "/\(name).pub")
        try key.privateKey.write(toFile: paths.0, atomically: true, encoding: .utf8)
        try key.publicKey.write(toFile: paths.1, atomically: true, encoding: .utf8)
        return paths
    }
}
