import AppFlipSystem

#if canImport(COpenSSL)
    import COpenSSL
#endif

/// A certificate authority made in memory by OpenSSL for one run: a P-256 key and a self-signed CA certificate valid
/// for a day, which issues server certificates for the names and addresses a test server answers. Nothing is written
/// to disk or to any trust store: a run trusts it through `TLSTrust.adding(pem:)`, an app through the PEM it is given.
package final class CertificateAuthority: Sendable {
    /// The CA certificate, PEM-encoded: what a client trusts.
    package let pem: String
    #if canImport(COpenSSL)
        private let ownedKey: OpenSSLObject
        private let ownedCertificate: OpenSSLObject
        private var key: OpaquePointer { ownedKey.pointer }
        private var certificate: OpaquePointer { ownedCertificate.pointer }
    #endif

    /// Which certificate to issue: the usual one, or one a client must refuse.
    package enum Flaw: Sendable, Hashable {
        case none
        /// Expired a day ago.
        case expired
        /// Signed by another CA, which the client does not trust.
        case untrustedIssuer
    }

    /// A new CA named `name` and a random tag (two CAs of a run never share a name, which is how a verifier looks for
    /// an issuer).
    /// The CA's subject as every message writes a certificate's names (RFC 4514 escaping), or nil without TLS.
    package var subject: String? {
        #if canImport(COpenSSL)
            TLSFacts.name(X509_get_subject_name(certificate))
        #else
            nil
        #endif
    }

    package init(name: String = "AppFlip Conformance test CA (this run only)") throws(SocketError) {
        #if canImport(COpenSSL)
            guard let key = appflip_EVP_EC_gen_P256() else { throw TLSError.last("making a key") }
            ownedKey = OpenSSLObject(key) { EVP_PKEY_free($0) }
            let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
            let made = try Self.certificate(
                subject: "\(name) \(tag)", issuer: nil, key: key, signer: key, signerCertificate: nil,
                extensions: [
                    (NID_basic_constraints, "critical,CA:TRUE"), (NID_key_usage, "critical,keyCertSign,cRLSign"),
                    (NID_subject_key_identifier, "hash"),
                ],
                validFrom: -3600, validFor: 86_400)
            ownedCertificate = OpenSSLObject(made) { X509_free($0) }
            pem = Self.pem(of: made)
        #else
            throw SocketError(.tls, "this build does not speak TLS itself")
        #endif
    }

    /// A server identity for `names` (DNS names and IP addresses alike), issued by this CA unless `flaw` says
    /// otherwise.
    package func serverIdentity(for names: [String], flaw: Flaw = .none) throws(SocketError) -> TLSServerIdentity {
        #if canImport(COpenSSL)
            guard let leafKey = appflip_EVP_EC_gen_P256() else { throw TLSError.last("making a key") }
            defer { EVP_PKEY_free(leafKey) }
            let alternatives = names.map { TLSFacts.isIPAddress($0) ? "IP:" + $0 : "DNS:" + $0 }.joined(separator: ",")
            let extensions = [
                (NID_basic_constraints, "critical,CA:FALSE"), (NID_key_usage, "critical,digitalSignature"),
                (NID_ext_key_usage, "serverAuth"), (NID_subject_alt_name, alternatives),
                (NID_authority_key_identifier, "keyid:always"),
            ]
            var other: CertificateAuthority?
            if flaw == .untrustedIssuer { other = try CertificateAuthority(name: "An untrusted CA") }
            let signer = other ?? self
            let leaf = try Self.certificate(
                subject: names.first ?? "localhost", issuer: signer.certificate, key: leafKey, signer: signer.key,
                signerCertificate: signer.certificate, extensions: extensions,
                validFrom: flaw == .expired ? -2 * 86_400 : -3600, validFor: 86_400)
            defer { X509_free(leaf) }
            return try TLSServerIdentity(certificate: leaf, key: leafKey)
        #else
            throw SocketError(.tls, "this build does not speak TLS itself")
        #endif
    }

    #if canImport(COpenSSL)
        /// A certificate for `subject`'s common name, signed by `signer` (self-signed when `issuer` is nil).
        private static func certificate(
            subject: String, issuer: OpaquePointer?, key: OpaquePointer, signer: OpaquePointer,
            signerCertificate: OpaquePointer?, extensions: [(Int32, String)], validFrom: Int,
            validFor: Int
        ) throws(SocketError) -> OpaquePointer {
            guard let certificate = X509_new() else { throw TLSError.last("making a certificate") }
            var serial = [UInt8](repeating: 0, count: 8)
            for index in serial.indices { serial[index] = UInt8.random(in: 0...255) }
            serial[0] &= 0x7F
            _ = X509_set_version(certificate, 2)
            _ = ASN1_INTEGER_set(X509_get_serialNumber(certificate), serial.reduce(0) { $0 << 8 | Int($1) } & 0x7FFF_FFFF_FFFF_FFFF)
            _ = X509_gmtime_adj(X509_getm_notBefore(certificate), validFrom)
            _ = X509_gmtime_adj(X509_getm_notAfter(certificate), validFrom + validFor)
            _ = X509_set_pubkey(certificate, key)
            let name = X509_get_subject_name(certificate)
            _ = X509_NAME_add_entry_by_txt(name, "CN", appflip_MBSTRING_ASC(), subject, -1, -1, 0)
            _ = X509_set_issuer_name(certificate, issuer.map { X509_get_subject_name($0) } ?? name)
            var context = X509V3_CTX()
            X509V3_set_ctx(&context, signerCertificate ?? certificate, certificate, nil, nil, 0)
            for (nid, value) in extensions {
                guard let made = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                    X509_free(certificate)
                    throw TLSError.last("making a certificate extension")
                }
                _ = X509_add_ext(certificate, made, -1)
                X509_EXTENSION_free(made)
            }
            guard X509_sign(certificate, signer, EVP_sha256()) > 0 else {
                X509_free(certificate)
                throw TLSError.last("signing a certificate")
            }
            return certificate
        }

        private static func pem(of certificate: OpaquePointer) -> String {
            guard let bio = BIO_new(BIO_s_mem()) else { return "" }
            defer { BIO_free(bio) }
            _ = PEM_write_bio_X509(bio, certificate)
            var data: UnsafeMutablePointer<CChar>?
            let length = appflip_BIO_get_mem_data(bio, &data)
            guard let data, length > 0 else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: data, count: length).bindMemory(to: UInt8.self), as: UTF8.self)
        }
    #endif
}
