import AppFlipDigest
import Foundation
import AppFlipSyntax

/// Hides credentials (authorization codes, tokens, secrets, verifiers) in anything written to a report or console.
///
/// A hidden value shows as its length and a short SHA-256 fingerprint, so a reviewer can tell two values apart
/// or correlate them without seeing them.
package enum Redaction {
    /// Parameter names whose values are credentials.
    package static let sensitiveParameters: Set<String> = [
        "code", "access_token", "refresh_token", "id_token", "client_secret", "code_verifier", "password", "token",
    ]

    /// `‹redacted 22 chars sha256:1a2b3c4d›`.
    package static func placeholder<Bytes: Collection>(for value: Bytes) -> String where Bytes.Element == UInt8 {
        // One case shows the same code in its evidence, its summary and several checks: it is hashed once.
        let key = MemoKey(bytes: Array(value))
        if let known = memos.withLock({ placeholders[key] }) { return known }
        let text = "‹redacted \(key.bytes.count) chars sha256:\(SHA256.hexDigest(key.bytes).prefix(8))›"
        memos.withLock {
            if placeholders.count >= 4096 { placeholders.removeAll(keepingCapacity: true) }
            placeholders[key] = text
        }
        return text
    }

    /// The URL with the value of every sensitive query or fragment parameter replaced by a placeholder.
    package static func redact(url: String) -> String {
        let parts = URLParts(url)
        var result = String(parts.base)
        if let query = parts.query { result += "?" + redact(query: query) }
        if let fragment = parts.fragment { result += "#" + redact(query: fragment) }
        return result
    }

    /// A query (or fragment in query form) with sensitive values replaced.
    package static func redact(query: Substring) -> String {
        // Every link and page hop of a case is redacted: a piece with nothing to hide is not rebuilt, and a query
        // with nothing to hide comes back as it is.
        var pieces = query.pieces(separatedBy: UInt8(ascii: "&"), omittingEmpty: false)
        var changed = false
        for index in pieces.indices {
            guard let redacted = redacted(piece: pieces[index]) else { continue }
            pieces[index] = Substring(redacted)
            changed = true
        }
        return changed ? pieces.joined(separator: "&") : String(query)
    }

    /// One `name=value` piece of a query with its credential hidden, or nil when it holds none.
    private static func redacted(piece: Substring) -> String? {
        guard let equals = piece.firstIndex(ofByte: UInt8(ascii: "=")) else { return nil }
        let afterEquals = piece.utf8.index(after: equals)
        guard isSensitive(name: piece[..<equals]) else {
            // A URL inside another parameter (`next=https://evil.example?code=…`, encoded or not, or a fragment
            // `x?code=…` whose first name swallowed the delimiter) may carry a credential of its own: hidden
            // wherever it shows in the piece.
            let nested = secrets(nestedIn: piece, depth: 1)
            return nested.isEmpty ? nil : scrub(String(piece), secrets: nested)
        }
        return afterEquals == piece.endIndex ? nil : String(piece[..<afterEquals]) + placeholder(for: Array(piece[afterEquals...].utf8))
    }

    /// Whether a parameter name, form-decoded and lower-cased, is one of `sensitiveParameters`. A plain ASCII name
    /// (no escape, no '+') is its own decoding; any other is decoded first.
    private static func isSensitive(name raw: Substring) -> Bool {
        let plain = raw.utf8.withContiguousStorageIfAvailable { name -> Bool? in
            name.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "%") && $0 != UInt8(ascii: "+") } ? isSensitive(decoded: name) : nil
        }
        if let plain, let answer = plain { return answer }
        return FormEncoding.decode(raw).map { isSensitive(decoded: $0) } ?? false
    }

    /// Whether a decoded parameter name, lower-cased, is one of `sensitiveParameters`: an ASCII name is compared
    /// byte by byte, letters without case (nothing is allocated: every parameter of every redacted URL asks); any
    /// other is lower-cased as text (a Kelvin sign lower-cases to 'k').
    private static func isSensitive(decoded name: some Collection<UInt8>) -> Bool {
        if name.allSatisfy({ $0 < 0x80 }) {
            return sensitiveNames.contains { $0.count == name.count && $0.elementsEqual(name) { $0 == $1.asciiLowercased } }
        }
        return String(validating: name, as: UTF8.self).map { sensitiveParameters.contains($0.lowercased()) } ?? false
    }

    /// `sensitiveParameters` as bytes (all lower-case ASCII).
    private static let sensitiveNames = sensitiveParameters.map { Array($0.utf8) }

    /// The raw and decoded values of sensitive parameters in `url`, for scrubbing other evidence (logs).
    package static func secrets(in url: String) -> [String] {
        secrets(in: url, depth: 0)
    }

    /// How deep URLs inside parameter values are searched (a URL in a value in a value).
    private static let nestingLimit = 3

    private static func secrets(in url: String, depth: Int) -> [String] {
        let parts = URLParts(url)
        var found: [String] = []
        for parameter in parts.parameters + (parts.fragment.map { QueryParameter.parse(query: $0) } ?? []) {
            guard let name = parameter.name, isSensitive(decoded: name) else {
                found += secrets(nestedIn: parameter.rawName + "=" + (parameter.rawValue ?? ""), depth: depth + 1)
                continue
            }
            guard let raw = parameter.rawValue else { continue }
            guard raw.count >= 4 else { continue }
            found.append(String(raw))
            if let decoded = parameter.value, let text = String(validating: decoded, as: UTF8.self), text != String(raw) {
                found.append(text)
            }
        }
        return found
    }

    /// The credentials of a URL carried inside a parameter (`name=value`), raw or percent-encoded: empty unless it
    /// holds a query or fragment delimiter (a byte scan; most parameters hold none).
    private static func secrets(nestedIn value: Substring, depth: Int) -> [String] {
        guard depth <= nestingLimit else { return [] }
        let (delimiter, escape, escapedDelimiter) = value.utf8.withContiguousStorageIfAvailable(Self.delimiters)
            ?? Array(value.utf8).withUnsafeBufferPointer(Self.delimiters)
        var found: [String] = []
        if delimiter {
            found += secrets(in: "http://nested/" + value, depth: depth)
        }
        // Decoded only when that can show a delimiter: one already there, or an escaped one.
        if escape, delimiter || escapedDelimiter, let decoded = FormEncoding.decode(value, plusIsSpace: false),
           decoded.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            found += secrets(in: "http://nested/" + String(decoding: decoded, as: UTF8.self), depth: depth)
        }
        return found
    }

    /// Whether the bytes hold a query or fragment delimiter ('?', '#'), an escape ('%'), and an escaped delimiter
    /// ("%3F", "%3f", "%23").
    private static func delimiters(_ bytes: UnsafeBufferPointer<UInt8>) -> (Bool, Bool, Bool) {
        var (delimiter, escape, escapedDelimiter) = (false, false, false)
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                delimiter = true
            } else if byte == UInt8(ascii: "%") {
                escape = true
                if index + 2 < bytes.count,
                   (bytes[index + 1] == UInt8(ascii: "3") && bytes[index + 2] | 0x20 == UInt8(ascii: "f"))
                    || (bytes[index + 1] == UInt8(ascii: "2") && bytes[index + 2] == UInt8(ascii: "3")) {
                    escapedDelimiter = true
                }
            }
        }
        return (delimiter, escape, escapedDelimiter)
    }

    /// `text` with every occurrence of each secret, in every form a server may echo it, replaced by the secret's
    /// placeholder (so equal secrets still correlate whatever form they were seen in).
    package static func scrub(_ text: String, secrets: [String]) -> String {
        var result = text
        // Encoded forms can only be present where an escape or a '+' is: most text needs the raw forms alone.
        let encoded = text.containsBytes("%") || text.containsBytes("\\") || text.containsBytes("+")
        let forms = secrets.filter { !$0.isEmpty }.flatMap { secret in (encoded ? derivedForms(of: secret) : [secret]).map { ($0, secret) } }
        // Longest first (in bytes), so a form is replaced before any shorter form inside it.
        for (form, secret) in forms.sorted(by: { $0.0.utf8.count > $1.0.utf8.count }) where result.containsBytes(form) {
            result = result.replacingOccurrences(of: form, with: placeholder(for: Array(secret.utf8)))
        }
        return result
    }

    /// A secret as it may come back: raw; percent-encoded (upper- or lower-case hex, `%20` or `+` for a space),
    /// and those encoded once more (a server that echoes a form body it received percent-encodes the secret's
    /// form encoding); each of these JSON-escaped (`\/`, `\"`, `\\`, `\u00XX`).
    package static func derivedForms(of secret: String) -> [String] {
        // A case scrubs every page and answer with the same secrets: their forms are worked out once. Keyed by bytes:
        // String equality is canonical equivalence, and a secret written with a combining accent must not be given
        // the forms of one written with the accented letter (neither would then be found in the other's bytes).
        let key = MemoKey(bytes: Array(secret.utf8))
        if let known = memos.withLock({ formsBySecret[key] }) { return known }
        let forms = computeForms(of: secret)
        memos.withLock {
            if formsBySecret.count >= 4096 { formsBySecret.removeAll(keepingCapacity: true) }
            formsBySecret[key] = forms
        }
        return forms
    }

    /// Guards the two memos below (a secret's forms, a value's placeholder), each cleared when it reaches 4,096 entries.
    private static let memos = NSLock()
    nonisolated(unsafe) private static var formsBySecret: [MemoKey: [String]] = [:]
    nonisolated(unsafe) private static var placeholders: [MemoKey: String] = [:]

    /// Bytes as a memo's key, hashed in one go (an array of bytes hashes a byte at a time).
    private struct MemoKey: Hashable {
        let bytes: [UInt8]

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    private static func computeForms(of secret: String) -> [String] {
        var forms: [String] = [secret]
        for _ in 0..<2 {
            forms += forms.flatMap(percentForms)
        }
        forms += forms.map(jsonEscaped)
        var seen = Set<String>()
        return forms.filter { seen.insert($0).inserted }
    }

    /// The three percent encodings of `text` a server may write, upper- and lower-case hex.
    private static func percentForms(_ text: String) -> [String] {
        let percent = FormEncoding.encode(text)  // every byte but the unreserved ones, upper-case hex
        guard percent != text else { return [] }
        let form = String(decoding: plusForSpace(Array(percent.utf8)), as: UTF8.self)
        return [percent, lowercasedEscapes(percent), form, lowercasedEscapes(form)]
    }

    /// Percent-encoded text with each `%20` written `+`, as a form encoder writes a space.
    private static func plusForSpace(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "2"), bytes[index + 2] == UInt8(ascii: "0") {
                result.append(UInt8(ascii: "+"))
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    /// A secret's JSON-escaped form (read by the redaction oracle test too: it was never rewritten).
    static func jsonEscaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "/": result += "\\/"
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `%2F` as `%2f`: some servers echo escapes in lower case. (Its input is percent-encoded, so ASCII.)
    private static func lowercasedEscapes(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count {
                for digit in (index + 1)...(index + 2) { bytes[digit] = bytes[digit].asciiLowercased }
                index += 3
            } else {
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Redaction {
    /// Free text (a log, a raw answer) with `name=value` credential pairs hidden wherever they appear,
    /// and with every known secret hidden too.
    package static func scrubText(_ text: String, secrets: [String] = []) -> String {
        var result = scrub(text, secrets: secrets)
        for name in sensitiveParameters {
            result = hideValues(after: name + "=", in: result)
        }
        // Credentials in headers, wherever a server echoes them: the value after an HTTP authentication scheme.
        for scheme in ["Basic ", "basic ", "BASIC ", "Bearer ", "bearer ", "BEARER "] {
            result = hideValues(after: scheme, in: result, when: isCredential)
        }
        return result
    }

    /// RFC 7235 token68 of at least 8 characters: a credential, not a word of prose ("a Bearer token").
    private static func isCredential(_ value: Substring) -> Bool {
        value.count >= 8 && value.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "-._~+/=".utf8.contains(byte)
        } && value.contains(where: { $0.isNumber || $0 == "=" || $0 == "+" || $0 == "/" || $0 == "-" || $0 == "_" })
    }

    /// A byte that ends a credential's value in free text: `&"'# \t\r\n<>,;)]}\`.
    private static func isValueEnd(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "#"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"),
             UInt8(ascii: "\n"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ")"), UInt8(ascii: "]"),
             UInt8(ascii: "}"), UInt8(ascii: "\\"):
            true
        default:
            false
        }
    }

    private static func hideValues(after marker: String, in text: String, when shouldHide: (Substring) -> Bool = { _ in true }) -> String {
        guard text.containsBytes(marker) else { return text }
        var output = ""
        var rest = text[...]
        while let range = rest.byteRange(of: marker) {
            let before = rest[..<range.lowerBound]
            output += before
            output += marker
            // Only a whole parameter name counts: `xcode=` is not `code=`.
            let boundary = before.last.map { !($0.isLetter || $0.isNumber || $0 == "_") } ?? true
            // The value runs to the first delimiter byte (each is ASCII, so a byte scan finds it).
            let bytes = rest.utf8
            let end = bytes[range.upperBound...].firstIndex(where: isValueEnd) ?? bytes.endIndex
            let value = rest[range.upperBound..<end]
            if boundary, !value.isEmpty, !value.hasPrefix("‹redacted"), shouldHide(value) {
                output += placeholder(for: Array(value.utf8))
            } else {
                output += value
            }
            rest = rest[end...]
        }
        return output + rest
    }
}
