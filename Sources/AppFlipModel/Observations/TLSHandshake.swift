/// What a server answered to a ClientHello the suite sent (`tls: legacy` probes): the version it picked, or why
/// it took none. Only the first handshake message is read; nothing is encrypted or judged beyond it.
package struct TLSHandshake: Sendable, Hashable {
    /// What was offered, in words ("a ClientHello offering only TLS 1.0 and 1.1").
    package var offer: String
    /// The protocol version the server picked (0x0301 is TLS 1.0 … 0x0304 TLS 1.3); nil when it took none.
    package var version: UInt16?
    /// The server's answer in words: "TLS 1.0, TLS_RSA_WITH_AES_128_CBC_SHA" or "refused: alert protocol_version (70)".
    package var answer: String

    /// On a `tls: certificate` probe: what a client of the endpoint would refuse in it, or nil when nothing.
    package var certificate: CertificateFinding?
    /// On a `tls: certificate` probe: the cipher suite agreed, as OpenSSL names it (`ECDHE-RSA-AES128-GCM-SHA256`).
    package var cipher: String?

    /// What a whole handshake showed of the server's certificate.
    package enum CertificateFinding: Sendable, Hashable {
        /// Valid, and the chain the server sends reaches a root.
        case valid
        /// Chains to a trusted root but is expired, not yet valid or for another name (the reason, what it presented).
        case invalid(String)
        /// Valid only with an intermediate the server does not send (what it sends, what is missing).
        case incompleteChain(String)
    }

    package init(offer: String, version: UInt16?, answer: String, certificate: CertificateFinding? = nil, cipher: String? = nil) {
        self.offer = offer
        self.version = version
        self.answer = answer
        self.certificate = certificate
        self.cipher = cipher
    }

    /// Whether the key exchange agreed gives forward secrecy: every TLS 1.3 suite does, and TLS 1.2's ECDHE and DHE
    /// suites (RFC 9325 §4.2.1); nil when no whole handshake was made.
    package var forwardSecret: Bool? {
        guard let version, let cipher else { return nil }
        return version >= 0x0304 || cipher.hasPrefix("ECDHE-") || cipher.hasPrefix("DHE-")
    }

    /// True when the server agreed to TLS 1.1 or older (SSL 3.0 included).
    package var acceptedObsoleteVersion: Bool { version.map { $0 < 0x0303 } ?? false }
}
