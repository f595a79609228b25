import AppFlipSystem

/// The first move of a TLS handshake and nothing more: a ClientHello is sent in the clear, the server's first
/// answer (a ServerHello, a HelloRetryRequest, an alert or a close) is read, and the connection is dropped. No key
/// is derived and no certificate is judged (the platform's HTTPS stack does that on every real request), so this
/// needs no cryptography: it shows which protocol version and cipher suite a server picks from an offer, which the
/// platform stacks do not report on Linux.
package enum TLSHello {
    /// What the ClientHello offers.
    package enum Offer: Sendable {
        /// TLS 1.3 and 1.2 with the suites current browsers and Apple's and Google's stacks offer.
        case modern
        /// Only TLS 1.0 and 1.1 (what RFC 8996 retired), with their CBC suites.
        case legacyOnly

        package var description: String {
            switch self {
            case .modern: "a ClientHello offering TLS 1.3 and 1.2"
            case .legacyOnly: "a ClientHello offering only TLS 1.0 and 1.1"
            }
        }
    }

    /// The server's first answer.
    package enum Answer: Sendable, Equatable {
        /// A ServerHello (or a HelloRetryRequest, which also fixes version and suite) picking these.
        case accepted(version: UInt16, cipher: UInt16, helloRetry: Bool)
        /// An alert, a close or silence before any ServerHello: the offer was not taken.
        case refused(String)

        package var summary: String {
            switch self {
            case .accepted(let version, let cipher, let retry):
                "\(TLSHello.name(ofVersion: version)), \(TLSHello.name(ofCipher: cipher))" + (retry ? " (after a HelloRetryRequest)" : "")
            case .refused(let why):
                "refused: \(why)"
            }
        }
    }

    /// Sends the offer to host:port and reads the first answer. Throws only when no TCP connection could be made.
    package static func probe(host: String, port: Int, offer: Offer, mapping: HostMapping, timeout: Double = 5) throws(HTTPClient.Failure) -> Answer {
        let deadline = Platform.monotonicSeconds() + timeout
        let socket: TCPSocket
        do {
            socket = try TCPSocket.connect(host: host, port: port, deadline: deadline, mapping: mapping)
        } catch {
            throw HTTPClient.Failure(message: "connecting to \(host):\(port): \(error.message)")
        }
        defer { socket.close() }
        do {
            try socket.write(clientHello(host: host, offer: offer, random: randomBytes(64)), deadline: deadline)
        } catch {
            return .refused("the connection failed while sending the ClientHello (\(error.message))")
        }
        var received: [UInt8] = []
        while true {
            switch parse(received) {
            case .answer(let answer): return answer
            case .notTLS(let why): return .refused(why)
            case .needMore: break
            }
            do {
                let bytes = try socket.read(maximum: 16_384, deadline: deadline)
                if bytes.isEmpty {
                    return .refused(
                        received.isEmpty
                            ? "the server closed the connection without answering"
                            : "the server closed the connection in the middle of its answer")
                }
                received += bytes
                if received.count > 65_536 { return .refused("more than 64 KiB arrived without a complete ServerHello") }
            } catch {
                return .refused(error.kind == .timedOut ? "no answer within \(Int(timeout)) s" : error.message)
            }
        }
    }

    // MARK: - The ClientHello

    static let legacyCiphers: [UInt16] = [0xC013, 0xC014, 0xC009, 0xC00A, 0x002F, 0x0035, 0x000A]
    static let modernCiphers: [UInt16] =
        [
            0x1301, 0x1302, 0x1303, 0xC02B, 0xC02F, 0xC02C, 0xC030, 0xCCA9, 0xCCA8,
            0x009E, 0x009F, 0x009C, 0x009D,
        ] + legacyCiphers

    /// The ClientHello record for the offer; `random` supplies 64 bytes (client random, session ID, key share).
    static func clientHello(host: String, offer: Offer, random: [UInt8]) -> [UInt8] {
        let modern = offer == .modern
        var body: [UInt8] = []
        body += u16(modern ? 0x0303 : 0x0302)
        body += random[0..<32]
        if modern {
            body += [32] + random[32..<64]  // a legacy session ID, as TLS 1.3 clients send for middleboxes
        } else {
            body += [0]
        }
        let ciphers = modern ? modernCiphers : legacyCiphers
        body += u16(ciphers.count * 2) + ciphers.flatMap(u16)
        body += [1, 0]  // compression: null only

        var extensions: [UInt8] = []
        if !isAddress(host) {
            let name = Array(host.utf8)
            extensions += ext(0x0000, u16(name.count + 3) + [0] + u16(name.count) + name)
        }
        let groups: [UInt16] = [0x001D, 0x0017, 0x0018]
        extensions += ext(0x000A, u16(groups.count * 2) + groups.flatMap(u16))
        extensions += ext(0x000B, [1, 0])
        let signatures: [UInt16] = [0x0403, 0x0804, 0x0401, 0x0503, 0x0805, 0x0501, 0x0806, 0x0601, 0x0201, 0x0203]
        extensions += ext(0x000D, u16(signatures.count * 2) + signatures.flatMap(u16))
        extensions += ext(0x0017, [])
        extensions += ext(0xFF01, [0])
        if modern {
            extensions += ext(0x002B, [4] + u16(0x0304) + u16(0x0303))
            // An X25519 share: any 32 bytes are a public key the server can use, and nothing is derived from it.
            let share = u16(0x001D) + u16(32) + Array(random[32..<64].reversed())
            extensions += ext(0x0033, u16(share.count) + share)
            extensions += ext(0x002D, [1, 1])
        }
        body += u16(extensions.count) + extensions

        let handshake = [0x01] + u24(body.count) + body
        return [0x16] + u16(0x0301) + u16(handshake.count) + handshake
    }

    // MARK: - The answer

    enum Parsed: Equatable {
        case needMore
        case answer(Answer)
        case notTLS(String)
    }

    /// The SHA-256 of "HelloRetryRequest", which a ServerHello's random carries when it is one (RFC 8446 §4.1.3).
    static let helloRetryRandom: [UInt8] = [
        0xCF, 0x21, 0xAD, 0x74, 0xE5, 0x9A, 0x61, 0x11, 0xBE, 0x1D, 0x8C, 0x02, 0x1E, 0x65, 0xB8, 0x91,
        0xC2, 0xA2, 0x11, 0x16, 0x7A, 0xBB, 0x8C, 0x5E, 0x07, 0x9E, 0x09, 0xE2, 0xC8, 0xA8, 0x33, 0x9C,
    ]

    /// Reads the records received so far: an alert or a complete ServerHello decides; anything else is not TLS.
    static func parse(_ bytes: [UInt8]) -> Parsed {
        var handshake: [UInt8] = []
        var offset = 0
        while offset + 5 <= bytes.count {
            let type = bytes[offset]
            let length = Int(bytes[offset + 3]) << 8 | Int(bytes[offset + 4])
            guard bytes[offset + 1] == 3, type == 0x15 || type == 0x16 else {
                return .notTLS("the answer is not a TLS record (it starts \(preview(bytes)))")
            }
            guard offset + 5 + length <= bytes.count else { break }
            let fragment = Array(bytes[(offset + 5)..<(offset + 5 + length)])
            offset += 5 + length
            if type == 0x15 {
                guard fragment.count >= 2 else { return .notTLS("a truncated alert") }
                return .answer(.refused("alert \(alertName(fragment[1])) (\(fragment[1]))"))
            }
            handshake += fragment
            if handshake.count >= 4 {
                guard handshake[0] == 0x02 else { return .notTLS("the first handshake message is type \(handshake[0]), not a ServerHello") }
                let messageLength = Int(handshake[1]) << 16 | Int(handshake[2]) << 8 | Int(handshake[3])
                if handshake.count >= 4 + messageLength {
                    return serverHello(Array(handshake[4..<(4 + messageLength)]))
                }
            }
        }
        if bytes.count >= 5, bytes[1] != 3 || !(bytes[0] == 0x15 || bytes[0] == 0x16) {
            return .notTLS("the answer is not a TLS record (it starts \(preview(bytes)))")
        }
        return .needMore
    }

    private static func serverHello(_ body: [UInt8]) -> Parsed {
        // version(2) random(32) session_id(1+n) cipher(2) compression(1) [extensions(2+m)]
        guard body.count >= 35 else { return .notTLS("a truncated ServerHello") }
        var version = UInt16(body[0]) << 8 | UInt16(body[1])
        let retry = Array(body[2..<34]) == helloRetryRandom
        var index = 35 + Int(body[34])
        guard index + 3 <= body.count else { return .notTLS("a truncated ServerHello") }
        let cipher = UInt16(body[index]) << 8 | UInt16(body[index + 1])
        index += 3
        if index + 2 <= body.count {
            let end = min(body.count, index + 2 + (Int(body[index]) << 8 | Int(body[index + 1])))
            index += 2
            while index + 4 <= end {
                let type = UInt16(body[index]) << 8 | UInt16(body[index + 1])
                let length = Int(body[index + 2]) << 8 | Int(body[index + 3])
                if type == 0x002B, length == 2, index + 6 <= end {
                    version = UInt16(body[index + 4]) << 8 | UInt16(body[index + 5])
                }
                index += 4 + length
            }
        }
        return .answer(.accepted(version: version, cipher: cipher, helloRetry: retry))
    }

    // MARK: - Names

    package static func name(ofVersion version: UInt16) -> String {
        switch version {
        case 0x0300: "SSL 3.0"
        case 0x0301: "TLS 1.0"
        case 0x0302: "TLS 1.1"
        case 0x0303: "TLS 1.2"
        case 0x0304: "TLS 1.3"
        default: "version 0x" + hex(version)
        }
    }

    static let cipherNames: [UInt16: String] = [
        0x1301: "TLS_AES_128_GCM_SHA256", 0x1302: "TLS_AES_256_GCM_SHA384", 0x1303: "TLS_CHACHA20_POLY1305_SHA256",
        0xC02B: "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", 0xC02F: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        0xC02C: "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", 0xC030: "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
        0xCCA9: "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", 0xCCA8: "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
        0x009E: "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256", 0x009F: "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384",
        0x009C: "TLS_RSA_WITH_AES_128_GCM_SHA256", 0x009D: "TLS_RSA_WITH_AES_256_GCM_SHA384",
        0xC013: "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", 0xC014: "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
        0xC009: "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", 0xC00A: "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
        0x002F: "TLS_RSA_WITH_AES_128_CBC_SHA", 0x0035: "TLS_RSA_WITH_AES_256_CBC_SHA", 0x000A: "TLS_RSA_WITH_3DES_EDE_CBC_SHA",
    ]

    package static func name(ofCipher cipher: UInt16) -> String { cipherNames[cipher] ?? "cipher suite 0x" + hex(cipher) }

    static func alertName(_ code: UInt8) -> String {
        switch code {
        case 0: "close_notify"
        case 10: "unexpected_message"
        case 40: "handshake_failure"
        case 47: "illegal_parameter"
        case 50: "decode_error"
        case 70: "protocol_version"
        case 71: "insufficient_security"
        case 80: "internal_error"
        case 86: "inappropriate_fallback"
        case 112: "unrecognized_name"
        default: "number \(code)"
        }
    }

    // MARK: - Bytes

    private static func u16(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
    private static func u16(_ value: UInt16) -> [UInt8] { u16(Int(value)) }
    private static func u24(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 16)] + u16(value) }
    private static func ext(_ type: UInt16, _ data: [UInt8]) -> [UInt8] { u16(type) + u16(data.count) + data }
    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func preview(_ bytes: [UInt8]) -> String {
        let head = bytes.prefix(16)
        if head.allSatisfy({ (0x20..<0x7F).contains($0) || $0 == 0x0D || $0 == 0x0A }) {
            return "\"" + String(decoding: head.map { $0 == 0x0D || $0 == 0x0A ? 0x20 : $0 }, as: UTF8.self) + "\""
        }
        return head.map { hex(UInt16($0)).suffix(2) }.joined(separator: " ")
    }

    /// True for an IPv4 or IPv6 literal, which SNI must not carry (RFC 6066 §3).
    static func isAddress(_ host: String) -> Bool {
        host.contains(":") || host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." }
    }

    private static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
