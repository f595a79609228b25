#if canImport(COpenSSL)
    import COpenSSL
#endif

/// Ed25519 signatures (RFC 8032) by the system's OpenSSL libcrypto, as SHA-256 and TLS are: an evidence bundle signed
/// with a key its certifying party keeps (`run --sign-key`), checked against the keys a reviewer trusts (`verify
/// --trusted-key`). Keys are PEM files as `openssl genpkey -algorithm ed25519` and `openssl pkey -pubout` write them.
/// No signature code of our own; where this build links no libcrypto (macOS), `isAvailable` is false and every call
/// says so.
package enum Ed25519 {
    package struct Failure: Error, Sendable, Hashable {
        package var message: String
    }

    /// A signature with the public key that checks it.
    package struct Signed: Sendable, Hashable {
        package var signature: [UInt8]
        /// The public key, PEM (`-----BEGIN PUBLIC KEY-----`).
        package var publicKey: String
        /// `SHA256:` and the base64 (no padding) of the key's DER SubjectPublicKeyInfo.
        package var fingerprint: String
    }

    /// Whether this build can sign and check signatures.
    package static var isAvailable: Bool {
        #if canImport(COpenSSL)
            true
        #else
            false
        #endif
    }

    private static let unavailable = Failure(
        message: "Ed25519 signatures need OpenSSL's libcrypto, which this build does not link (macOS): "
            + "sign and check bundles on Linux")

    /// Signs `message` with the Ed25519 private key in `privateKeyPEM` (PKCS#8 PEM).
    package static func sign(_ message: [UInt8], privateKeyPEM: [UInt8]) throws(Failure) -> Signed {
        #if canImport(COpenSSL)
            guard let key = readKey(privateKeyPEM, isPrivate: true) else {
                throw Failure(message: "it holds no private key in PEM (write one with: openssl genpkey -algorithm ed25519 -out key.pem)")
            }
            defer { EVP_PKEY_free(key) }
            guard EVP_PKEY_get_base_id(key) == EVP_PKEY_ED25519 else { throw Failure(message: "its key is not an Ed25519 key") }
            guard let context = EVP_MD_CTX_new() else { throw Failure(message: "libcrypto could not start a signature") }
            defer { EVP_MD_CTX_free(context) }
            var length = 64
            var signature = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1,
                EVP_DigestSign(context, &signature, &length, message, message.count) == 1
            else {
                throw Failure(message: "libcrypto could not sign")
            }
            let (pem, der) = try publicKey(key)
            return Signed(signature: Array(signature.prefix(length)), publicKey: pem, fingerprint: fingerprint(der: der))
        #else
            throw unavailable
        #endif
    }

    /// Whether `signature` is the Ed25519 signature of `message` by the public key in `publicKeyPEM`; the key's
    /// fingerprint. Throws when the key cannot be read.
    package static func verify(_ signature: [UInt8], of message: [UInt8], publicKeyPEM: [UInt8]) throws(Failure) -> (valid: Bool, fingerprint: String)
    {
        #if canImport(COpenSSL)
            guard let key = readKey(publicKeyPEM, isPrivate: false) else { throw Failure(message: "no public key in PEM") }
            defer { EVP_PKEY_free(key) }
            guard EVP_PKEY_get_base_id(key) == EVP_PKEY_ED25519 else { throw Failure(message: "the key is not an Ed25519 key") }
            let (_, der) = try publicKey(key)
            guard let context = EVP_MD_CTX_new() else { throw Failure(message: "libcrypto could not start a check") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else { throw Failure(message: "libcrypto could not start a check") }
            let valid = EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
            ERR_clear_error()
            return (valid, fingerprint(der: der))
        #else
            throw unavailable
        #endif
    }

    /// The fingerprint of the public key in `pem` (a public key, or the public half of a private one).
    package static func fingerprint(ofKeyPEM pem: [UInt8]) throws(Failure) -> String {
        #if canImport(COpenSSL)
            guard let key = readKey(pem, isPrivate: false) ?? readKey(pem, isPrivate: true) else { throw Failure(message: "no key in PEM") }
            defer { EVP_PKEY_free(key) }
            guard EVP_PKEY_get_base_id(key) == EVP_PKEY_ED25519 else { throw Failure(message: "the key is not an Ed25519 key") }
            return fingerprint(der: try publicKey(key).der)
        #else
            throw unavailable
        #endif
    }

    /// Every public key in a PEM file, in order, each with its fingerprint: what a reviewer trusts (`--trusted-key`). A
    /// private key is refused, not taken for its public half: a reviewer never holds the signer's private key, and a
    /// file that has one was passed on by mistake. So is any other block, a key that is not Ed25519, and a file with
    /// no key at all.
    package static func publicKeys(inPEM pem: [UInt8]) throws(Failure) -> [(fingerprint: String, pem: [UInt8])] {
        var blocks: [(label: String, text: String)] = []
        var open: (label: String, lines: [Substring])?
        for line in String(decoding: pem, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            if let current = open {
                open?.lines.append(line)
                if line == "-----END \(current.label)-----" {
                    blocks.append((current.label, (current.lines + [line]).joined(separator: "\n") + "\n"))
                    open = nil
                }
            } else if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----"), line.count > 16 {
                open = (String(line.dropFirst(11).dropLast(5)), [line])
            }
        }
        if let open { throw Failure(message: "the PEM block '\(open.label)' has no END line") }
        var keys: [(fingerprint: String, pem: [UInt8])] = []
        for (index, block) in blocks.enumerated() {
            let number = index + 1
            if block.label.contains("PRIVATE KEY") {
                throw Failure(
                    message: "block \(number) is a private key (\(block.label)): give its public half (openssl pkey -in KEY.pem -pubout), "
                        + "never the private key itself")
            }
            guard block.label == "PUBLIC KEY" else { throw Failure(message: "block \(number) is a \(block.label), not a PUBLIC KEY") }
            #if canImport(COpenSSL)
                guard let key = readKey(Array(block.text.utf8), isPrivate: false) else {
                    throw Failure(message: "block \(number) is no readable public key")
                }
                defer { EVP_PKEY_free(key) }
                guard EVP_PKEY_get_base_id(key) == EVP_PKEY_ED25519 else { throw Failure(message: "block \(number) is not an Ed25519 key") }
                keys.append((fingerprint(der: try publicKey(key).der), Array(block.text.utf8)))
            #else
                throw unavailable
            #endif
        }
        guard !keys.isEmpty else { throw Failure(message: "no PEM public key in the file") }
        return keys
    }

    /// A new Ed25519 private key (PKCS#8 PEM) and its public key (PEM), as `openssl genpkey -algorithm ed25519` and
    /// `openssl pkey -pubout` write them: for tests, and for a party without the openssl command.
    package static func newKey() throws(Failure) -> (privateKey: String, publicKey: String) {
        #if canImport(COpenSSL)
            guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) else { throw Failure(message: "libcrypto could not make a key") }
            defer { EVP_PKEY_CTX_free(context) }
            var key: OpaquePointer?
            guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_keygen(context, &key) == 1, let key else {
                throw Failure(message: "libcrypto could not make a key")
            }
            defer { EVP_PKEY_free(key) }
            guard let bio = BIO_new(BIO_s_mem()) else { throw Failure(message: "libcrypto could not write the key") }
            defer { BIO_free(bio) }
            guard PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 else { throw Failure(message: "libcrypto could not write the key") }
            var data: UnsafeMutablePointer<CChar>?
            let count = appflip_BIO_get_mem_data(bio, &data)
            guard let data, count > 0 else { throw Failure(message: "libcrypto could not write the key") }
            let pem = String(decoding: UnsafeRawBufferPointer(start: data, count: count).bindMemory(to: UInt8.self), as: UTF8.self)
            return (pem, try publicKey(key).pem)
        #else
            throw unavailable
        #endif
    }

    /// `SHA256:` and the unpadded base64 of the digest, as `ssh-keygen -l` writes a fingerprint.
    private static func fingerprint(der: [UInt8]) -> String {
        "SHA256:" + String(Base64URL.encode(SHA256.hash(der)).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
    }

    #if canImport(COpenSSL)
        private static func readKey(_ pem: [UInt8], isPrivate: Bool) -> OpaquePointer? {
            pem.withUnsafeBytes { buffer -> OpaquePointer? in
                guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
                defer { BIO_free(bio) }
                let key = isPrivate ? PEM_read_bio_PrivateKey(bio, nil, nil, nil) : PEM_read_bio_PUBKEY(bio, nil, nil, nil)
                ERR_clear_error()
                return key
            }
        }

        /// The key's public half as PEM and as DER (SubjectPublicKeyInfo).
        private static func publicKey(_ key: OpaquePointer) throws(Failure) -> (pem: String, der: [UInt8]) {
            let length = i2d_PUBKEY(key, nil)
            guard length > 0 else { throw Failure(message: "libcrypto could not write the public key") }
            var der = [UInt8](repeating: 0, count: Int(length))
            let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
                var cursor = buffer.baseAddress
                return i2d_PUBKEY(key, &cursor)
            }
            guard written == length, let bio = BIO_new(BIO_s_mem()) else { throw Failure(message: "libcrypto could not write the public key") }
            defer { BIO_free(bio) }
            guard PEM_write_bio_PUBKEY(bio, key) == 1 else { throw Failure(message: "libcrypto could not write the public key") }
            var data: UnsafeMutablePointer<CChar>?
            let count = appflip_BIO_get_mem_data(bio, &data)
            guard let data, count > 0 else { throw Failure(message: "libcrypto could not write the public key") }
            let pem = String(decoding: UnsafeRawBufferPointer(start: data, count: count).bindMemory(to: UInt8.self), as: UTF8.self)
            return (pem, der)
        }
    #endif
}
