import Foundation

#if canImport(COpenSSL)
    import COpenSSL
#endif

/// What one TLS connection agreed and what the server presented, read from the connection itself: for the report's
/// provenance, and for the message that says why a certificate was not trusted.
package struct TLSFacts: Sendable, Hashable {
    /// `TLS 1.3`, `TLS 1.2`.
    package var version = ""
    /// The cipher suite, as OpenSSL names it (`TLS_AES_256_GCM_SHA384`, `ECDHE-ECDSA-AES128-GCM-SHA256`).
    package var cipher = ""
    /// The application protocol the server chose, if any (`http/1.1`).
    package var alpn: String?
    /// The certificate's subject, issuer and expiry (`CN=auth.example`, `CN=Staging CA`, `Nov 27 19:00:00 2026 GMT`).
    package var subject: String?
    package var issuer: String?
    package var notAfter: String?

    package init() {}

    /// One line: `TLS 1.3, TLS_AES_256_GCM_SHA384, ALPN http/1.1, certificate CN=… issued by CN=…, valid until …`.
    package var summary: String {
        var parts = [version, cipher].filter { !$0.isEmpty }
        if let alpn { parts.append("ALPN " + alpn) }
        if let subject {
            parts.append("certificate \(subject)" + (issuer.map { " issued by \($0)" } ?? "") + (notAfter.map { ", valid until \($0)" } ?? ""))
        }
        return parts.joined(separator: ", ")
    }

    /// Whether `host` is an IPv4 or IPv6 address (verified against the certificate's IP addresses, and sent no SNI).
    package static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1
    }

    #if canImport(COpenSSL)
        init(ssl: OpaquePointer) {
            version = String(cString: SSL_get_version(ssl)).replacingOccurrences(of: "TLSv", with: "TLS ")
            if let current = SSL_get_current_cipher(ssl) { cipher = String(cString: SSL_CIPHER_get_name(current)) }
            var protocolName: UnsafePointer<UInt8>?
            var length: UInt32 = 0
            SSL_get0_alpn_selected(ssl, &protocolName, &length)
            if let protocolName, length > 0 { alpn = String(decoding: UnsafeBufferPointer(start: protocolName, count: Int(length)), as: UTF8.self) }
            // After a failed verification the client keeps no peer certificate, but the chain the server sent is kept:
            // its first certificate is the one presented.
            let sent = SSL_get_peer_cert_chain(ssl).flatMap { appflip_sk_X509_num($0) > 0 ? appflip_sk_X509_value($0, 0) : nil }
            if let certificate = SSL_get0_peer_certificate(ssl) ?? sent ?? SSL_get_certificate(ssl) {
                subject = Self.name(X509_get_subject_name(certificate))
                issuer = Self.name(X509_get_issuer_name(certificate))
                notAfter = Self.time(X509_get0_notAfter(certificate))
            }
        }

        /// The verification errors of a certificate that chains to a trusted root but is not valid here: not yet valid,
        /// expired, for another host name or address. Every other error means no trusted root vouches for it.
        static let invalidHere: Set<Int32> = [
            X509_V_ERR_CERT_NOT_YET_VALID, X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_HOSTNAME_MISMATCH,
            X509_V_ERR_IP_ADDRESS_MISMATCH,
        ]

        /// Why the certificate `host` presented was refused, with what it presented: not valid here (its dates or its
        /// names), or vouched for by nobody the run trusts.
        static func unverified(_ host: String, code: Int32, ssl: OpaquePointer, caFile: String?) -> String {
            let reason = String(cString: X509_verify_cert_error_string(Int(code)))
            let facts = TLSFacts(ssl: ssl)
            var presented = ""
            if let subject = facts.subject {
                presented =
                    " (it presented \(subject)" + (facts.issuer.map { ", issued by \($0)" } ?? "")
                    + (facts.notAfter.map { ", valid until \($0)" } ?? "") + ")"
            }
            if invalidHere.contains(code) {
                return "the certificate of \(host) is not valid for it: \(reason)\(presented); no client can connect to it so"
            }
            let trusted = caFile.map { " besides the CA file \($0)" } ?? ""
            return "the certificate of \(host) cannot be verified: \(reason)\(presented); the system's trust store\(trusted) does not vouch for it"
        }

        /// "C=US, O=Example, CN=auth.example", each value escaped as RFC 4514 says, so no value can pass for another
        /// entry: a `/` or `, CN=` inside a value stays inside it (X509_NAME_oneline's "/C=US/CN=…" split at every `/`).
        static func name(_ name: OpaquePointer?) -> String? {
            guard let name, let bio = BIO_new(BIO_s_mem()) else { return nil }
            defer { BIO_free(bio) }
            guard appflip_X509_NAME_print_rfc4514(bio, name) >= 0 else { return nil }
            var data: UnsafeMutablePointer<CChar>?
            let length = appflip_BIO_get_mem_data(bio, &data)
            guard let data, length >= 0 else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: data, count: length).bindMemory(to: UInt8.self), as: UTF8.self)
        }

        private static func time(_ time: UnsafePointer<ASN1_TIME>?) -> String? {
            guard let time, let bio = BIO_new(BIO_s_mem()) else { return nil }
            defer { BIO_free(bio) }
            guard ASN1_TIME_print(bio, time) == 1 else { return nil }
            var data: UnsafeMutablePointer<CChar>?
            let length = appflip_BIO_get_mem_data(bio, &data)
            guard let data, length > 0 else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: data, count: length).bindMemory(to: UInt8.self), as: UTF8.self)
        }
    #endif
}
