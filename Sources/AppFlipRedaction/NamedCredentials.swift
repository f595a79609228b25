import AppFlipBase

/// Credentials recognisable in free text without knowing their values, found in one pass over the bytes:
///
/// - `name=value` where the name is sensitive (`Redaction.sensitiveParameters`, without case; after `%26` or `%3F`,
///   an escaped `&` or `?`, too): the value runs to the first of `&"'# \t\r\n<>,;)]}\`;
/// - a JSON member of a sensitive name with a string value (`"access_token" : "…"`);
/// - the credentials after an HTTP authentication scheme (`Basic …`, `Bearer …`, any case): an RFC 7235 token68
///   of at least 8 characters with a digit or a symbol in it, so "a Bearer token" in prose stays;
/// - a URL's userinfo password (`https://user:password@host`, RFC 3986 §3.2.1): the user name stays.
enum NamedCredentials {
    /// `text` with each such credential replaced by its placeholder; values already hidden stay as they are.
    static func hide(in text: String) -> String {
        let remembered = text.utf8.count <= TextTable.longest
        if remembered, clean.withLock({ $0.number(of: text) }) != nil { return text }
        guard let hidden = hidden(in: text, userinfoOnly: false) else {
            if remembered { clean.withLock { _ = $0.keep(text) } }
            return text
        }
        return hidden
    }

    /// Texts `hide(in:)` found no credential in, remembered for the next time: a check's expectations and many of its
    /// observations are said again in every case (`TextTable` bounds how many are kept). What is hidden depends on the
    /// text alone, so a remembered text needs no second look.
    private static let clean = Locked(TextTable())

    /// `text` with a URL's userinfo password hidden (a URL's scheme and authority, where nothing else is looked for).
    static func hideUserinfoPassword(in text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "@")) else { return text }
        return hide(in: text, userinfoOnly: true)
    }

    /// The userinfo passwords of the URLs in `text`, as written.
    static func userinfoPasswords(in text: String) -> [String] {
        guard text.utf8.contains(UInt8(ascii: "@")) else { return [] }
        var text = text
        return text.withUTF8 { bytes in
            stretches(in: bytes, userinfoOnly: true).map { String(decoding: bytes[$0], as: UTF8.self) }
        }
    }

    private static func hide(in text: String, userinfoOnly: Bool) -> String {
        hidden(in: text, userinfoOnly: userinfoOnly) ?? text
    }

    /// `text` with its credentials hidden, or nil when it has none.
    private static func hidden(in text: String, userinfoOnly: Bool) -> String? {
        var copy = text
        let hidden: String? = copy.withUTF8 { bytes in
            let found = stretches(in: bytes, userinfoOnly: userinfoOnly)
            guard !found.isEmpty else { return nil }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            var copied = 0
            for stretch in found where stretch.lowerBound >= copied {
                output += bytes[copied..<stretch.lowerBound]
                output += Redaction.placeholder(for: bytes[stretch]).utf8
                copied = stretch.upperBound
            }
            output += bytes[copied...]
            return String(decoding: output, as: UTF8.self)
        }
        return hidden
    }

    /// The stretches of `bytes` that are credentials, in order.
    private static func stretches(in bytes: UnsafeBufferPointer<UInt8>, userinfoOnly: Bool) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var index = 0
        let startClasses = Self.startClasses
        while index < bytes.count {
            // Most bytes start nothing: skipped without the look-ups below (a check's prose has a space every few bytes,
            // and only a space after `basic` or `bearer` can start credentials).
            let byte = bytes[index]
            guard startClasses[Int(byte)] != 0, byte == UInt8(ascii: "@") || (!userinfoOnly && mayStart(byte, at: index, in: bytes)) else {
                index += 1
                continue
            }
            let stretch: Range<Int>? =
                switch bytes[index] {
                case UInt8(ascii: "="): parameterValue(equals: index, in: bytes)
                case UInt8(ascii: "\""): jsonValue(quote: index, in: bytes)
                case UInt8(ascii: " "): schemeCredentials(space: index, in: bytes)
                case UInt8(ascii: "@"): userinfoPassword(at: index, in: bytes)
                default: nil
                }
            if let stretch, !stretch.isEmpty, !isPlaceholder(bytes[stretch]), stretch.lowerBound >= (found.last?.upperBound ?? 0) {
                found.append(stretch)
                index = max(index + 1, stretch.upperBound)  // a userinfo password ends at the '@' that found it
            } else {
                index += 1
            }
        }
        return found
    }

    /// 1 for the bytes a stretch may start at (`= " @` and a space), 0 for the rest: one look-up a byte.
    private static let startClasses: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for byte in "=\"@ ".utf8 { table[Int(byte)] = 1 }
        return table
    }()

    /// Whether a stretch may start at `index`: a `=` or a `"`, or a space after a word ending as `basic` or `bearer`
    /// does (any case).
    private static func mayStart(_ byte: UInt8, at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch byte {
        case UInt8(ascii: "="), UInt8(ascii: "\""): true
        case UInt8(ascii: " "): index >= 5 && (bytes[index - 1] | 0x20 == UInt8(ascii: "c") || bytes[index - 1] | 0x20 == UInt8(ascii: "r"))
        default: false
        }
    }

    /// The value after a sensitive `name=`.
    private static func parameterValue(equals: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var start = equals
        while start > 0, isNameByte(bytes[start - 1]) { start -= 1 }
        var name = bytes[start..<equals]
        // `%26code=` and `%3Fcode=`: the name follows an escaped delimiter whose hex digits the walk took in.
        if start > 0, bytes[start - 1] == UInt8(ascii: "%"), name.count > 2 {
            let escape = (name[start], name[start + 1] | 0x20)
            if escape == (UInt8(ascii: "2"), UInt8(ascii: "6")) || escape == (UInt8(ascii: "3"), UInt8(ascii: "f")) { name = name.dropFirst(2) }
        }
        guard !name.isEmpty, Redaction.isSensitive(decoded: name) else { return nil }
        return (equals + 1)..<valueEnd(from: equals + 1, in: bytes)
    }

    /// The string value of a JSON member of a sensitive name whose opening quote is at `quote`.
    private static func jsonValue(quote: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var close = quote + 1
        while close < bytes.count, close - quote <= longestName + 1, isNameByte(bytes[close]) { close += 1 }
        guard close < bytes.count, bytes[close] == UInt8(ascii: "\""), close > quote + 1,
            Redaction.isSensitive(decoded: bytes[(quote + 1)..<close])
        else { return nil }
        var cursor = close + 1
        while cursor < bytes.count, isJSONSpace(bytes[cursor]) { cursor += 1 }
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ":") else { return nil }
        cursor += 1
        while cursor < bytes.count, isJSONSpace(bytes[cursor]) { cursor += 1 }
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") else { return nil }
        let start = cursor + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
        return start..<min(end, bytes.count)
    }

    /// The credentials after `Basic ` or `Bearer ` (the scheme's space at `space`).
    private static func schemeCredentials(space: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var start = space
        while start > 0, isLetter(bytes[start - 1]) { start -= 1 }
        let word = bytes[start..<space]
        guard word.count == 5 || word.count == 6,
            word.elementsEqual("basic".utf8, by: { $0 | 0x20 == $1 }) || word.elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 })
        else { return nil }
        let value = (space + 1)..<valueEnd(from: space + 1, in: bytes)
        return isToken68Credential(bytes[value]) ? value : nil
    }

    /// The password of a URL's userinfo whose `@` is at `at`: back to the `:` after the user name, within the
    /// authority that `://` opens.
    private static func userinfoPassword(at: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var start = at
        while start > 0, !endsAuthority(bytes[start - 1]) { start -= 1 }
        guard start >= 3, bytes[start - 1] == UInt8(ascii: "/"), bytes[start - 2] == UInt8(ascii: "/"), bytes[start - 3] == UInt8(ascii: ":"),
            let colon = bytes[start..<at].firstIndex(of: UInt8(ascii: ":"))
        else { return nil }
        return (colon + 1)..<at
    }

    /// RFC 7235 token68 of at least 8 characters with a digit or a symbol: a credential, not a word of prose.
    private static func isToken68Credential(_ value: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        value.count >= 8 && value.allSatisfy { isLetter($0) || isDigit($0) || "-._~+/=".utf8.contains($0) }
            && value.contains { isDigit($0) || "=+/-_".utf8.contains($0) }
    }

    private static func valueEnd(from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var end = start
        while end < bytes.count, !isValueEnd(bytes[end]) { end += 1 }
        return end
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

    /// A byte that ends a URL's authority, or the URL, in free text.
    private static func endsAuthority(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"),
            UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "`"):
            true
        default:
            false
        }
    }

    private static let longestName = Redaction.sensitiveParameters.map(\.utf8.count).max() ?? 0

    private static func isPlaceholder(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        bytes.starts(with: placeholderMark)
    }

    private static let placeholderMark = Array("‹redacted".utf8)

    private static func isNameByte(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") }
    private static func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    private static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }
}
