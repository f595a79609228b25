import AppFlipDigest
import AppFlipLoading
import AppFlipReporting

/// The public keys a reviewer trusts (`--trusted-key`, repeatable): every key of each file, each named on the
/// console; a private key, or a file with no public key, is a usage error.
enum TrustedKeys {
    struct Key {
        var fingerprint: String
        var pem: [UInt8]
    }

    static func read(_ paths: [String], console: Console) throws(Arguments.UsageError) -> [Key] {
        var keys: [Key] = []
        for path in paths {
            let bytes: [UInt8]
            do {
                bytes = try BoundedFile.read(path, limit: 64 << 10)
            } catch {
                throw Arguments.UsageError(message: "--trusted-key: \(error.message)")
            }
            do {
                // Every key of the file, each named: none taken silently, none dropped silently.
                for key in try Ed25519.publicKeys(inPEM: bytes) {
                    console.out("trusting \(key.fingerprint) (from \(path))")
                    keys.append(Key(fingerprint: key.fingerprint, pem: key.pem))
                }
            } catch {
                throw Arguments.UsageError(message: "--trusted-key \(path): \(error.message)")
            }
        }
        return keys
    }
}
