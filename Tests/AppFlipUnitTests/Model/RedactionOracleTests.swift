@testable import AppFlipModel
import AppFlipTestSupport
import Foundation
import Testing

/// Redaction read on bytes (a query's pieces, a secret's encoded forms, the values after a marker) against the code
/// it replaced, which read them through Character and Foundation, kept here as the oracle.
@Suite("Redaction against its Character-based oracle")
struct RedactionOracleTests {
    static let pieces = ["code=", "CODE=", "co%64e=", "access_token=", "state=", "next=", "redirect_uri=", "x", "=", "&", "?", "#", "%3F", "%3f", "%23",
                         "%253F", "%", "+", "abc123", "T0K3N-x", "https://h.example/cb", "%2F", "é", " ", "\u{301}", "\"", "\\", "<", "Bearer ",
                         "password=", "xcode=", ";", "\r\n", "‹redacted", "to%E2%84%AAen=", "to\u{212A}en="]

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

    @Test("Free text is scrubbed as the Character-based code scrubbed it, on 10,000 seeded texts and secrets")
    func texts() {
        // No combining mark here: after a delimiter it made one Character of the two, which the old reading did not
        // take for a delimiter; the byte reading does (the test below).
        let pieces = Self.pieces.filter { $0 != "\u{301}" }
        var random = Mutator(seed: 20_261_126)
        for _ in 0..<10_000 {
            let text = Self.random(&random, pieces: 1 + random.below(14), from: pieces)
            let secrets = (0..<random.below(3)).map { _ in Self.random(&random, pieces: 1 + random.below(3)) }
            let (scrubbed, expected) = (Redaction.scrubText(text, secrets: secrets), CharacterRedaction.scrubText(text, secrets: secrets))
            guard scrubbed == expected else {
                Issue.record("\(text.debugDescription) with \(secrets): \(scrubbed.debugDescription), the oracle \(expected.debugDescription)")
                return
            }
        }
    }

    @Test("A delimiter ends a credential's value even with a combining mark after it; the credential is hidden")
    func delimiterBeforeCombiningMark() {
        let scrubbed = Redaction.scrubText("code=S3CR3T-C0DE#\u{301}rest")
        #expect(!scrubbed.contains("S3CR3T-C0DE"))
        #expect(scrubbed.hasSuffix("›#\u{301}rest"), "\(scrubbed)")
    }

    @Test("A secret's encoded forms are the ones the Character-based code derived")
    func forms() {
        var random = Mutator(seed: 20_261_127)
        for _ in 0..<2_000 {
            let secret = Self.random(&random, pieces: 1 + random.below(4))
            let (forms, expected) = (Redaction.derivedForms(of: secret), CharacterRedaction.computeForms(of: secret))
            guard forms == expected else {
                Issue.record("\(secret.debugDescription): \(forms), the oracle \(expected)")
                return
            }
        }
    }

    /// The replaced code, as it was (its placeholders are the module's own).
    enum CharacterRedaction {
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
                    return nested.isEmpty ? String(piece) : scrub(String(piece), secrets: nested)
                }
                return value.isEmpty ? String(piece) : String(piece[..<piece.utf8.index(after: equals)]) + Redaction.placeholder(for: Array(value.utf8))
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
               decoded.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
                found += secrets(in: "http://nested/" + String(decoding: decoded, as: UTF8.self), depth: depth)
            }
            return found
        }

        static func scrub(_ text: String, secrets: [String]) -> String {
            var result = text
            let encoded = text.utf8.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "+") }
            let forms = secrets.filter { !$0.isEmpty }.flatMap { secret in (encoded ? computeForms(of: secret) : [secret]).map { ($0, secret) } }
            for (form, secret) in forms.sorted(by: { $0.0.utf8.count > $1.0.utf8.count }) where result.containsBytes(form) {
                result = result.replacingOccurrences(of: form, with: Redaction.placeholder(for: Array(secret.utf8)))
            }
            return result
        }

        static func computeForms(of secret: String) -> [String] {
            var forms: [String] = [secret]
            for _ in 0..<2 {
                forms += forms.flatMap(percentForms)
            }
            forms += forms.map(Redaction.jsonEscaped)  // unchanged by the rewrite: the real one
            var seen = Set<String>()
            return forms.filter { seen.insert($0).inserted }
        }

        static func percentForms(_ text: String) -> [String] {
            let percent = text.utf8.map { byte -> String in
                let unreserved = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "-._~".utf8.contains(byte)
                return unreserved ? String(UnicodeScalar(byte)) : "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }.joined()
            guard percent != text else { return [] }
            let form = percent.replacingOccurrences(of: "%20", with: "+")
            return [percent, lowercasedEscapes(percent), form, lowercasedEscapes(form)]
        }

        static func lowercasedEscapes(_ text: String) -> String {
            var result = ""
            var characters = text[...]
            while let first = characters.first {
                if first == "%", characters.count >= 3 {
                    result += "%" + characters.dropFirst().prefix(2).lowercased()
                    characters = characters.dropFirst(3)
                } else {
                    result.append(first)
                    characters = characters.dropFirst()
                }
            }
            return result
        }

        static func scrubText(_ text: String, secrets: [String]) -> String {
            var result = scrub(text, secrets: secrets)
            for name in Redaction.sensitiveParameters {
                result = hideValues(after: name + "=", in: result)
            }
            for scheme in ["Basic ", "basic ", "BASIC ", "Bearer ", "bearer ", "BEARER "] {
                result = hideValues(after: scheme, in: result, when: isCredential)
            }
            return result
        }

        static func isCredential(_ value: Substring) -> Bool {
            value.count >= 8 && value.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "-._~+/=".utf8.contains(byte)
            } && value.contains(where: { $0.isNumber || $0 == "=" || $0 == "+" || $0 == "/" || $0 == "-" || $0 == "_" })
        }

        static func hideValues(after marker: String, in text: String, when shouldHide: (Substring) -> Bool = { _ in true }) -> String {
            guard text.containsBytes(marker) else { return text }
            var output = ""
            var rest = text[...]
            while let range = rest.byteRange(of: marker) {
                let before = rest[..<range.lowerBound]
                output += before
                output += marker
                let boundary = before.last.map { !($0.isLetter || $0.isNumber || $0 == "_") } ?? true
                var end = range.upperBound
                while end < rest.endIndex, !"&\"'# \t\r\n<>,;)]}\\".contains(rest[end]) { end = rest.index(after: end) }
                let value = rest[range.upperBound..<end]
                if boundary, !value.isEmpty, !value.hasPrefix("‹redacted"), shouldHide(value) {
                    output += Redaction.placeholder(for: Array(value.utf8))
                } else {
                    output += value
                }
                rest = rest[end...]
            }
            return output + rest
        }
    }
}
