import AppFlipBase
import AppFlipDigest
import Foundation

/// Hides credentials (authorization codes, tokens, secrets, verifiers, passwords) in anything written to a report
/// or a console: by parameter name in URLs and free text here, by value (in every encoding) in `Redactor`.
///
/// A hidden value shows as a placeholder with a fingerprint keyed for this process only (`RunKey`): equal values
/// correlate within one run's reports, and nothing else can be learnt from them (not the length, not a guess
/// confirmed offline). A run may ask for placeholders without one (`style`).
package enum Redaction {
    /// Parameter names whose values are credentials (compared form-decoded, without case).
    package static let sensitiveParameters: Set<String> = [
        "code", "access_token", "refresh_token", "id_token", "client_secret", "code_verifier", "password", "token",
        "client_assertion", "assertion", "subject_token", "actor_token", "device_code", "pwd", "passwd", "passcode",
        "secret", "api_key", "apikey", "session", "session_id", "sessionid",
    ]

    /// Whether a name (a JSON member's, a header's, an extra's) says its value is a credential: a sensitive parameter
    /// name, `authorization`, `authorization_code`, or one ending in `_token`, `_secret`, `_password`, `_key` or
    /// `_verifier`; compared without case, with `-` read as `_`.
    package static func isCredentialName(_ name: String) -> Bool {
        // Every member name of every answer asks: an ASCII name is compared byte by byte, nothing allocated.
        if let ascii = name.utf8.withContiguousStorageIfAvailable({ bytes in bytes.allSatisfy { $0 < 0x80 } ? isCredentialName(ascii: bytes) : nil }),
            let answer = ascii
        {
            return answer
        }
        let folded = String(decoding: name.utf8.map { $0 == UInt8(ascii: "-") ? UInt8(ascii: "_") : $0.asciiLowercased }, as: UTF8.self)
        return sensitiveParameters.contains(folded) || credentialNames.contains(folded)
            || credentialSuffixes.contains { folded.hasSuffix($0) }
    }

    private static let credentialNames: Set<String> = ["authorization", "proxy_authorization", "authorization_code", "auth_code", "cookie"]
    private static let credentialSuffixes = ["_token", "_secret", "_password", "_key", "_verifier"]

    /// `isCredentialName` of an ASCII name, on its bytes: the same names, `-` read as `_`, letters without case.
    private static func isCredentialName(ascii name: UnsafeBufferPointer<UInt8>) -> Bool {
        func folded(_ byte: UInt8) -> UInt8 { byte == UInt8(ascii: "-") ? UInt8(ascii: "_") : byte.asciiLowercased }
        func equals(_ candidate: [UInt8]) -> Bool {
            candidate.count == name.count && zip(candidate, name).allSatisfy { $0 == folded($1) }
        }
        func endsWith(_ suffix: [UInt8]) -> Bool {
            suffix.count <= name.count && zip(suffix, name[(name.count - suffix.count)...]).allSatisfy { $0 == folded($1) }
        }
        return credentialNameBytes.contains(where: equals) || credentialSuffixBytes.contains(where: endsWith)
    }

    /// `sensitiveNames` and `credentialNames`, and `credentialSuffixes`, as bytes (all lower-case ASCII).
    private static let credentialNameBytes = sensitiveNames + credentialNames.map { Array($0.utf8) }
    private static let credentialSuffixBytes = credentialSuffixes.map { Array($0.utf8) }

    /// `‹redacted hmac:1a2b3c4d›`: the first 32 bits of HMAC-SHA-256 of the value under this process's key; `‹redacted›`
    /// where the placeholder style in scope is `.plain` (`style`).
    package static func placeholder<Bytes: Collection>(for value: Bytes) -> String where Bytes.Element == UInt8 {
        guard style == .fingerprinted else { return "‹redacted›" }
        // One case shows the same code in its evidence, its summary and several checks: it is keyed once.
        let key = MemoKey(bytes: Array(value))
        if let known = memos.withLock({ $0.placeholders[key] }) { return known }
        let text = "‹redacted hmac:\(SHA256.hex(Array(RunKey.fingerprints.authenticationCode(for: key.bytes).prefix(4))))›"
        memos.withLock { memos in
            if memos.placeholders.count >= 4096 { memos.placeholders.removeAll(keepingCapacity: true) }
            memos.placeholders[key] = text
        }
        return text
    }

    /// How placeholders are written.
    package enum PlaceholderStyle: Sendable, Hashable {
        /// With a fingerprint (the default): equal values correlate within the reports.
        case fingerprinted
        /// `‹redacted›` alone: what a run asked for byte-identical reports (`--reproducible`) writes. A key drawn for
        /// the run would differ between two runs, and one derived from the seed (which the reports print) would let
        /// anyone holding them confirm a guessed secret. Equal values then no longer correlate.
        case plain
    }

    /// The placeholder style of the run under way, bound for a scope (`Redaction.$style.withValue(.plain) { … }`)
    /// rather than set for the process: two runs in one process (the library's test runner) each write theirs. A
    /// scope is a task, or the thread that bound it; the runner binds its worker and judging threads to the style of
    /// the thread that started the run.
    @TaskLocal package static var style = PlaceholderStyle.fingerprinted

    /// Whether `text` starts with a placeholder (a value already hidden).
    package static func isPlaceholder(_ text: Substring) -> Bool { text.hasPrefix("‹redacted") }

    /// The URL with the value of every sensitive query or fragment parameter replaced by a placeholder.
    package static func redact(url: String) -> String {
        // A case's opened URL is shown in its evidence and in the checks that quote the answer: redacted once. Only a
        // URL that had something to hide is kept (a fingerprint is what costs): a link as sent is mostly unique, and
        // has none.
        guard style == .fingerprinted else { return redactWhole(url: url) }
        let key = ByteKey(url)
        if let known = memos.withLock({ $0.redactedURLs[key] }) { return known }
        let redacted = redactWhole(url: url)
        guard redacted != url else { return redacted }
        memos.withLock { memos in
            if memos.redactedURLs.count >= 256 { memos.redactedURLs.removeAll(keepingCapacity: true) }
            memos.redactedURLs[key] = redacted
        }
        return redacted
    }

    private static func redactWhole(url: String) -> String {
        let parts = URLParts(url)
        // A URL with nothing to hide (every link as sent) comes back as it is, not rebuilt from its parts.
        let hasUserinfo = url.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: "@")) } ?? url.utf8.contains(UInt8(ascii: "@"))
        let base = hasUserinfo ? NamedCredentials.hideUserinfoPassword(in: String(parts.base)) : nil
        let query = parts.query.flatMap(redactedQuery)
        let fragment = parts.fragment.flatMap(redactedQuery)
        guard base.map({ $0 != parts.base }) == true || query != nil || fragment != nil else { return url }
        var result = base ?? String(parts.base)
        if let original = parts.query { result += "?" + (query ?? String(original)) }
        if let original = parts.fragment { result += "#" + (fragment ?? String(original)) }
        return result
    }

    /// A query (or fragment in query form) with sensitive values replaced.
    package static func redact(query: Substring) -> String {
        redactedQuery(query) ?? String(query)
    }

    /// `redact(query:)`, or nil when the query has nothing to hide.
    private static func redactedQuery(_ query: Substring) -> String? {
        switch query.utf8.withContiguousStorageIfAvailable(redactPlain(query:)) ?? .notPlain {
        case .unchanged: return nil
        case .redacted(let text): return text
        case .notPlain: break
        }
        // Every link and page hop of a case is redacted: a piece with nothing to hide is not rebuilt, and a query
        // with nothing to hide comes back as it is.
        var pieces = query.pieces(separatedBy: UInt8(ascii: "&"), omittingEmpty: false)
        var changed = false
        for index in pieces.indices {
            guard let redacted = redacted(piece: pieces[index]) else { continue }
            pieces[index] = Substring(redacted)
            changed = true
        }
        return changed ? pieces.joined(separator: "&") : nil
    }

    /// `redact(query:)` on the bytes for the common query, read in one pass with nothing allocated until a value is
    /// hidden: every name plain ASCII (no escape, no '+'), and no piece of a name that is not sensitive holds a query
    /// or fragment delimiter, raw or escaped (where a URL inside a value may carry credentials of its own). Nil for
    /// any other query, which the piece-by-piece reading handles.
    private static func redactPlain(query bytes: UnsafeBufferPointer<UInt8>) -> PlainRedaction {
        var output: [UInt8] = []
        var copied = 0
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
            let piece = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if let equals = piece.firstIndex(of: UInt8(ascii: "=")) {
                let name = UnsafeBufferPointer(rebasing: piece[..<equals])
                guard name.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "%") && $0 != UInt8(ascii: "+") }) else { return .notPlain }
                if isSensitive(decoded: name) {
                    if equals + 1 < piece.count {
                        if output.isEmpty { output.reserveCapacity(bytes.count + 32) }
                        output += bytes[copied..<(start + equals + 1)]
                        output += placeholder(for: piece[(equals + 1)...]).utf8
                        copied = end
                    }
                } else {
                    let (delimiter, _, escapedDelimiter) = delimiters(piece)
                    if delimiter || escapedDelimiter { return .notPlain }
                }
            }
            start = end + 1
        }
        guard copied > 0 else { return .unchanged }
        output += bytes[copied...]
        return .redacted(String(decoding: output, as: UTF8.self))
    }

    private enum PlainRedaction {
        case unchanged
        case redacted(String)
        /// Not a query `redactPlain` reads: read piece by piece.
        case notPlain
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
    static func isSensitive(decoded name: some Collection<UInt8>) -> Bool {
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
        // Without a query, a fragment or userinfo there is nothing to find (every string of every answer asks).
        guard url.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "@") }) else { return [] }
        let parts = URLParts(url)
        var found = NamedCredentials.userinfoPasswords(in: String(parts.base))
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
        let (delimiter, escape, escapedDelimiter) =
            value.utf8.withContiguousStorageIfAvailable(Self.delimiters)
            ?? Array(value.utf8).withUnsafeBufferPointer(Self.delimiters)
        var found: [String] = []
        if delimiter {
            found += secrets(in: "http://nested/" + value, depth: depth)
        }
        // Decoded only when that can show a delimiter: one already there, or an escaped one.
        if escape, delimiter || escapedDelimiter, let decoded = FormEncoding.decode(value, plusIsSpace: false),
            decoded.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") })
        {
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
                        || (bytes[index + 1] == UInt8(ascii: "2") && bytes[index + 2] == UInt8(ascii: "3"))
                {
                    escapedDelimiter = true
                }
            }
        }
        return (delimiter, escape, escapedDelimiter)
    }

    /// `text` with every occurrence of each secret, in any encoding, replaced by the secret's placeholder.
    package static func scrub(_ text: String, secrets: [String]) -> String {
        Redactor(secrets: secrets).hideSecrets(in: text)
    }

    /// The memos of fingerprinted placeholders and of URLs redacted with them (a run that writes plain placeholders
    /// keeps no memo: making one costs nothing).
    private struct Memos {
        /// Cleared when it reaches 4,096 entries.
        var placeholders: [MemoKey: String] = [:]
        /// URLs that had a credential to hide, redacted lately, cleared at 256.
        var redactedURLs: [ByteKey: String] = [:]
    }

    private static let memos = Locked(Memos())

    /// Bytes as a memo's key, hashed in one go (an array of bytes hashes a byte at a time).
    private struct MemoKey: Hashable, Sendable {
        let bytes: [UInt8]

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}

extension Redaction {
    /// Free text (a log, a raw answer) with every known secret and every named credential hidden.
    package static func scrubText(_ text: String, secrets: [String] = []) -> String {
        Redactor(secrets: secrets).redact(text)
    }
}
