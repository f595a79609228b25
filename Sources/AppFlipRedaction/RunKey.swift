import AppFlipDigest

/// The key redaction's fingerprints are made with: 32 bytes drawn from the system's random source once per process,
/// which is one run of the command line. It is never written anywhere, so a placeholder can be matched with another
/// of the same run and with nothing else: not with another run's, and not with a guess hashed offline.
enum RunKey {
    static let bytes: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }()

    /// The key, ready to fingerprint with (its padded blocks hashed once).
    static let fingerprints = HMAC.Key(bytes)
}
