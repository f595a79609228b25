/// What a server answered to a ClientHello the suite sent (`tls: legacy` probes): the version it picked, or why
/// it took none. Only the first handshake message is read; nothing is encrypted or judged beyond it.
package struct TLSHandshake: Sendable, Hashable {
    /// What was offered, in words ("a ClientHello offering only TLS 1.0 and 1.1").
    package var offer: String
    /// The protocol version the server picked (0x0301 is TLS 1.0 … 0x0304 TLS 1.3); nil when it took none.
    package var version: UInt16?
    /// The server's answer in words: "TLS 1.0, TLS_RSA_WITH_AES_128_CBC_SHA" or "refused: alert protocol_version (70)".
    package var answer: String

    package init(offer: String, version: UInt16?, answer: String) {
        self.offer = offer
        self.version = version
        self.answer = answer
    }

    /// True when the server agreed to TLS 1.1 or older (SSL 3.0 included).
    package var acceptedObsoleteVersion: Bool { version.map { $0 < 0x0303 } ?? false }
}
