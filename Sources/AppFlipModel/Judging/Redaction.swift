import AppFlipDigest
import Foundation
import AppFlipSyntax

/// Hides credentials (authorization codes, tokens, secrets, verifiers) in anything written to a report or console.
///
/// A hidden value shows as its length and a short SHA-256 fingerprint, so a reviewer can tell two values apart
/// or correlate them without seeing them.
public enum Redaction {
    /// Parameter names whose values are credentials.
    public static let sensitiveParameters: Set<String> = [
        "code", "access_token", "refresh_token", "id_token", "client_secret", "code_verifier", "password", "token",
    ]

    /// `‹redacted 22 chars sha256:1a2b3c4d›`.
    public static func placeholder<Bytes: Collection>(for value: Bytes) -> String where Bytes.Element == UInt8 {
        "‹redacted \(value.count) chars sha256:\(SHA256.hexDigest(value).prefix(8))›"
    }

    /// The URL with the value of every sensitive query or fragment parameter replaced by a placeholder.
    public static func redact(url: String) -> String {
        let parts = URLParts(url)
        var result = String(parts.base)
        if let query = parts.query { result += "?" + redact(query: query) }
        if let fragment = parts.fragment { result += "#" + redact(query: fragment) }
        return result
    }

    /// A query (or fragment in query form) with sensitive values replaced.
    public static func redact(query: Substring) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { piece -> String in
            guard let equals = piece.firstIndex(of: "=") else { return String(piece) }
            let name = FormEncoding.decode(piece[..<equals]).map { String(decoding: $0, as: UTF8.self) } ?? ""
            guard sensitiveParameters.contains(name.lowercased()) else { return String(piece) }
            let value = piece[piece.index(after: equals)...]
            return value.isEmpty ? String(piece) : String(piece[...equals]) + placeholder(for: Array(value.utf8))
        }.joined(separator: "&")
    }

    /// The raw and decoded values of sensitive parameters in `url`, for scrubbing other evidence (logs).
    public static func secrets(in url: String) -> [String] {
        let parts = URLParts(url)
        var found: [String] = []
        for parameter in parts.parameters + (parts.fragment.map { QueryParameter.parse(query: $0) } ?? []) {
            guard let name = parameter.nameText, sensitiveParameters.contains(name.lowercased()),
                  let raw = parameter.rawValue, raw.count >= 4 else { continue }
            found.append(String(raw))
            if let decoded = parameter.value, let text = String(validating: decoded, as: UTF8.self), text != String(raw) {
                found.append(text)
            }
        }
        return found
    }

    /// `text` with every occurrence of each secret replaced by its placeholder.
    public static func scrub(_ text: String, secrets: [String]) -> String {
        var result = text
        for secret in secrets.sorted(by: { $0.count > $1.count }) where !secret.isEmpty {
            result = result.replacingOccurrences(of: secret, with: placeholder(for: Array(secret.utf8)))
        }
        return result
    }
}

extension Redaction {
    /// Free text (a log, a raw answer) with `name=value` credential pairs hidden wherever they appear,
    /// and with every known secret hidden too.
    public static func scrubText(_ text: String, secrets: [String] = []) -> String {
        var result = scrub(text, secrets: secrets)
        for name in sensitiveParameters {
            result = hideValues(after: name + "=", in: result)
        }
        return result
    }

    private static func hideValues(after marker: String, in text: String) -> String {
        guard text.contains(marker) else { return text }
        var output = ""
        var rest = text[...]
        while let range = rest.range(of: marker) {
            let before = rest[..<range.lowerBound]
            output += before
            output += marker
            // Only a whole parameter name counts: `xcode=` is not `code=`.
            let boundary = before.last.map { !($0.isLetter || $0.isNumber || $0 == "_") } ?? true
            var end = range.upperBound
            while end < rest.endIndex, !"&\"'# \t\r\n<>,;)]}\\".contains(rest[end]) { end = rest.index(after: end) }
            let value = rest[range.upperBound..<end]
            if boundary, !value.isEmpty, !value.hasPrefix("‹redacted") {
                output += placeholder(for: Array(value.utf8))
            } else {
                output += value
            }
            rest = rest[end...]
        }
        return output + rest
    }
}
