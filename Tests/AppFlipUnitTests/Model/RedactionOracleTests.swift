import AppFlipBase
import AppFlipRedaction
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipModel

/// URL redaction read on bytes (a query's pieces, the names, the nested URLs) against the code it replaced, which read
/// them through Character and Foundation, kept here as the oracle. (Hiding known values in free text is `Redactor`'s,
/// held to its own properties in `RedactorTests`.)
@Suite("Redaction against its Character-based oracle")
struct RedactionOracleTests {
    static let pieces = [
        "code=", "CODE=", "co%64e=", "access_token=", "state=", "next=", "redirect_uri=", "x", "=", "&", "?", "#", "%3F", "%3f", "%23",
        "%253F", "%", "+", "abc123", "T0K3N-x", "https://h.example/cb", "%2F", "é", " ", "\u{301}", "\"", "\\", "<", "Bearer ",
        "password=", "xcode=", ";", "\r\n", "‹redacted", "to%E2%84%AAen=", "to\u{212A}en=",
    ]

    static func random(_ random: inout Mutator, pieces count: Int, from pieces: [String] = pieces) -> String {
        (0..<count).map { _ in pieces[random.below(pieces.count)] }.joined()
    }

    @Test("URLs are redacted as the Character-based code redacted them, on 10,000 seeded URLs")
    func urls() {
        var random = Mutator(seed: 20_261_125)
        for _ in 0..<10_000 {
            let url = "https://h.example/p" + Self.random(&random, pieces: 1 + random.below(10))
            let (redacted, expected) = (Redaction.redact(url: url), CharacterRedaction.redact(url: url))
            guard redacted == expected else {
                Issue.record("\(url.debugDescription): \(redacted.debugDescription), the oracle \(expected.debugDescription)")
                return
            }
        }
    }

    @Test("Credential names are recognised as the String-based reading recognised them, on 20,000 seeded names")
    func credentialNames() {
        let pieces = [
            "code", "CODE", "Code", "access", "_", "-", "token", "TOKEN", "secret", "key", "Key", "verifier", "authorization", "auth",
            "cookie", "proxy", "x", "\u{E9}", "\u{212A}", "password", "pwd", "session", "id", "api", "_key", "-TOKEN", "",
        ]
        var random = Mutator(seed: 20_261_201)
        for _ in 0..<20_000 {
            let name = Self.random(&random, pieces: 1 + random.below(4), from: pieces)
            guard Redaction.isCredentialName(name) == CharacterRedaction.isCredentialName(name) else {
                Issue.record("\(name.debugDescription): \(Redaction.isCredentialName(name)), the oracle \(!Redaction.isCredentialName(name))")
                return
            }
        }
        #expect(Redaction.isCredentialName("Access-Token") && Redaction.isCredentialName("X_API_KEY") && !Redaction.isCredentialName("monkey"))
    }

    @Test("A delimiter ends a credential's value even with a combining mark after it; the credential is hidden")
    func delimiterBeforeCombiningMark() {
        let scrubbed = Redaction.scrubText("code=S3CR3T-C0DE#\u{301}rest")
        #expect(!scrubbed.contains("S3CR3T-C0DE"))
        #expect(scrubbed.hasSuffix("›#\u{301}rest"), "\(scrubbed)")
    }

    @Test("Cookie lines are hidden as the Foundation-based reading hid them, on 20,000 seeded lines")
    func cookies() {
        let pieces = [
            "a=1", "SID=abc", " ", "\t", "\u{A0}", "\u{2003}", "\u{200B}", ";", ",", "=", "Path=/", "path=/x",
            "EXPIRES=Wed, 09 Jun 2027 10:18:14 GMT",
            "Expires", "Max-Age=3", "Secure", "SECURE", "HttpOnly", "Domain=.example", "SameSite=Lax", "Priority=High", "Partitioned",
            "Version=1", "Port=\"80\"", "Discard", "x", "\u{212A}", "\u{130}", "é", "‹redacted›", "v=",
        ]
        var random = Mutator(seed: 20_261_205)
        for _ in 0..<20_000 {
            let line = Self.random(&random, pieces: 1 + random.below(8), from: pieces)
            for name in ["Cookie", "Set-Cookie", "set-cookie2"] {
                let (hidden, expected) = (HeaderCredentials.hide(name: name, value: line), CookieOracle.hide(name: name, value: line))
                guard hidden == expected else {
                    Issue.record("\(name): \(line.debugDescription): \(hidden.debugDescription), the oracle \(expected.debugDescription)")
                    return
                }
            }
        }
    }

    /// The cookie reading replaced, as it was: Foundation's trimming and Unicode lower-casing.
    enum CookieOracle {
        static func hide(name: String, value: String) -> String {
            hideCookies(value, attributes: name.lowercased() != "cookie")
        }

        static let attributes: Set<String> = [
            "expires", "max-age", "domain", "path", "samesite", "priority", "partitioned", "secure", "httponly", "comment", "commenturl",
            "version", "port", "discard",
        ]
        static let flags: Set<String> = ["secure", "httponly", "partitioned", "discard"]

        static func hideCookies(_ value: String, attributes: Bool) -> String {
            var output = ""
            var afterComma = true
            var previous: String?
            var rest = Substring(value)
            while true {
                let end = rest.firstIndex { $0 == ";" || $0 == "," } ?? rest.endIndex
                let piece = rest[..<end]
                let name = attributeName(piece)
                let word = piece.trimmingCharacters(in: .whitespaces).lowercased()
                let kept =
                    word.isEmpty || (afterComma && name == nil && previous == "expires")
                    || (attributes && !afterComma && (name.map(Self.attributes.contains) ?? flags.contains(word)))
                output += kept ? String(piece) : hideCookieValue(piece)
                previous = name
                guard end < rest.endIndex else { break }
                afterComma = rest[end] == ","
                output.append(rest[end])
                rest = rest[rest.index(after: end)...]
            }
            return output
        }

        static func attributeName(_ piece: Substring) -> String? {
            guard let equals = piece.firstIndex(of: "=") else { return nil }
            return piece[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
        }

        static func hideCookieValue(_ pair: Substring) -> String {
            guard let equals = pair.firstIndex(of: "=") else {
                let value = pair.drop { $0 == " " || $0 == "\t" }
                guard !value.isEmpty, !Redaction.isPlaceholder(value) else { return String(pair) }
                return pair[..<value.startIndex] + Redaction.placeholder(for: Array(value.utf8))
            }
            let cookie = pair[pair.index(after: equals)...]
            guard !cookie.trimmingCharacters(in: .whitespaces).isEmpty, !Redaction.isPlaceholder(cookie) else { return String(pair) }
            return pair[...equals] + Redaction.placeholder(for: Array(cookie.utf8))
        }
    }

    /// The replaced code, as it was (its placeholders are the module's own).
    enum CharacterRedaction {
        static func isCredentialName(_ name: String) -> Bool {
            let folded = String(decoding: name.utf8.map { $0 == UInt8(ascii: "-") ? UInt8(ascii: "_") : $0.asciiLowercased }, as: UTF8.self)
            return Redaction.sensitiveParameters.contains(folded)
                || ["authorization", "proxy_authorization", "authorization_code", "auth_code", "cookie"].contains(folded)
                || ["_token", "_secret", "_password", "_key", "_verifier"].contains { folded.hasSuffix($0) }
        }

        static func redact(url: String) -> String {
            let parts = URLParts(url)
            var result = String(parts.base)
            if let query = parts.query { result += "?" + redact(query: query) }
            if let fragment = parts.fragment { result += "#" + redact(query: fragment) }
            return result
        }

        static func redact(query: Substring) -> String {
            query.pieces(separatedBy: UInt8(ascii: "&"), omittingEmpty: false).map { piece -> String in
                guard let equals = piece.firstIndex(ofByte: UInt8(ascii: "=")) else { return String(piece) }
                let name = FormEncoding.decode(piece[..<equals]).map { String(decoding: $0, as: UTF8.self) } ?? ""
                let value = piece[piece.utf8.index(after: equals)...]
                guard Redaction.sensitiveParameters.contains(name.lowercased()) else {
                    let nested = secrets(nestedIn: piece, depth: 1)
                    return nested.isEmpty ? String(piece) : Redaction.scrub(String(piece), secrets: nested)  // hiding values is Redactor's
                }
                return value.isEmpty
                    ? String(piece) : String(piece[..<piece.utf8.index(after: equals)]) + Redaction.placeholder(for: Array(value.utf8))
            }.joined(separator: "&")
        }

        static func secrets(in url: String, depth: Int) -> [String] {
            let parts = URLParts(url)
            var found: [String] = []
            for parameter in parts.parameters + (parts.fragment.map { QueryParameter.parse(query: $0) } ?? []) {
                guard let name = parameter.nameText, Redaction.sensitiveParameters.contains(name.lowercased()) else {
                    found += secrets(nestedIn: parameter.rawName + "=" + (parameter.rawValue ?? ""), depth: depth + 1)
                    continue
                }
                guard let raw = parameter.rawValue, raw.count >= 4 else { continue }
                found.append(String(raw))
                if let decoded = parameter.value, let text = String(validating: decoded, as: UTF8.self), text != String(raw) {
                    found.append(text)
                }
            }
            return found
        }

        static func secrets(nestedIn value: Substring, depth: Int) -> [String] {
            guard depth <= 3 else { return [] }
            let bytes = value.utf8
            var found: [String] = []
            if bytes.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
                found += secrets(in: "http://nested/" + value, depth: depth)
            }
            if bytes.contains(UInt8(ascii: "%")), let decoded = FormEncoding.decode(value, plusIsSpace: false),
                decoded.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") })
            {
                found += secrets(in: "http://nested/" + String(decoding: decoded, as: UTF8.self), depth: depth)
            }
            return found
        }
    }
}
