import AppFlipBase
import Foundation

/// Hides secrets in text that leaves the suite: every known secret value, in every encoding a server or an app may
/// echo it in, and every credential recognisable by its name (`code=…`, `"access_token": "…"`, `Bearer …`,
/// `https://user:password@…`). The one redaction every report, console line and message goes through.
///
/// A value is found raw, escaped (percent either case, `+` for a space, JSON `\u` escapes, HTML character
/// references, in any mixture and up to twice over: `EscapedText`), in hex (either case) and in base64 or base64url
/// at any alignment inside a longer encoded string (`SecretNeedles`). A value cut short is hidden too: its first
/// 12 bytes anywhere, or its first 3 where a truncation mark (`…`) follows, so text cut before it is redacted (a
/// handler's output kept to a bound) shows no part of a secret at the cut; `excerpt` redacts whole, then cuts.
package struct Redactor: Sendable {
    /// One byte string to look for, and the secret it gives away.
    private struct Entry: Sendable {
        var bytes: [UInt8]
        var foldsCase: Bool
        var isBase64: Bool
        /// Not a secret's form but a run of the characters no escaper changes (ASCII letters, digits, `-._~`) one
        /// has: found raw, it says an escaped form may be there, so the text's escapes are worth decoding.
        var isAnchor = false
        var secret: Int
    }

    private var secrets: [[UInt8]] = []
    private var known: Set<ByteKey> = []
    private var entries: [Entry] = []
    /// The needles by their first two bytes, and a bit a two-byte key to skip most positions with one test.
    private var byPrefix: [UInt16: [Int32]] = [:]
    /// Empty until the first needle: a case's outcome starts with an empty redactor, and most never add to it.
    private var filter: [UInt64] = []
    /// A bit a byte that begins some needle's two-byte key: most bytes of most texts begin none, and are passed with one
    /// test. Empty until the first needle, like `filter`.
    private var starts: [UInt64] = []
    /// Set when a form of a secret has no run of four characters no escaper changes to find it by raw: then any text
    /// with escapes is decoded.
    private var anchorless = false
    /// A bit a byte that some needle holds (either case, for a needle found without case), or that an escape is
    /// written with: a line break between two bytes of which one is none of these splits no secret, and a text is
    /// read without its line breaks only where some break may (`breaksMaySplitASecret`). Empty until the first needle.
    private var inNeedles: [UInt64] = []

    /// A partial match this long is hidden wherever it stands (a secret cut short).
    static let hiddenPrefix = 12
    /// A partial match this long is hidden where the text ends or a truncation mark follows.
    static let hiddenPrefixAtEdge = 3

    package init(secrets: [String] = []) {
        add(secrets)
    }

    /// How many secrets it looks for.
    package var secretCount: Int { secrets.count }

    /// A redactor of the secrets added after the first `count` alone: what a text redacted before them still needs.
    package func secrets(after count: Int) -> Redactor {
        Redactor(secrets: secrets[min(count, secrets.count)...].map { String(decoding: $0, as: UTF8.self) })
    }

    /// Looks for `more` secrets besides.
    package mutating func add(_ more: [String]) {
        add(more.compactMap(PreparedSecret.init))
    }

    /// Looks for secrets besides whose forms were worked out already (`PreparedSecret`).
    package mutating func add(_ more: [PreparedSecret]) {
        for secret in more {
            guard known.insert(ByteKey(secret.text)).inserted else { continue }
            let index = secrets.count
            secrets.append(secret.bytes)
            for form in secret.forms {
                insert(Entry(bytes: form.needle.bytes, foldsCase: form.needle.foldsCase, isBase64: form.needle.isBase64, secret: index))
                switch form.anchor {
                case .unescaped: continue  // escaping leaves it as it is
                case .run(let anchor): insert(Entry(bytes: anchor, foldsCase: form.needle.foldsCase, isBase64: false, isAnchor: true, secret: index))
                case .none: anchorless = true
                }
            }
        }
    }

    private mutating func insert(_ entry: Entry) {
        let number = Int32(entries.count)
        if entries.isEmpty {
            // A secret brings several forms (raw, encoded, escaped), each up to four keys: room for a few at once.
            entries.reserveCapacity(16)
            byPrefix.reserveCapacity(64)
        }
        entries.append(entry)
        if filter.isEmpty {
            filter = [UInt64](repeating: 0, count: Self.filterWords)
            starts = [UInt64](repeating: 0, count: 4)
            inNeedles = [UInt64](repeating: 0, count: 4)
            // An escape cut by a line break (`%2` then `F`) is read whole once the break is read as nothing.
            for byte in "%+\\&#;0123456789abcdefABCDEFxuU".utf8 { inNeedles[Int(byte >> 6)] |= 1 << UInt64(byte & 63) }
        }
        if !entry.isAnchor {
            for byte in entry.bytes {
                inNeedles[Int(byte >> 6)] |= 1 << UInt64(byte & 63)
                if let upper = Self.upper(byte, foldsCase: entry.foldsCase) { inNeedles[Int(upper >> 6)] |= 1 << UInt64(upper & 63) }
            }
        }
        func add(_ high: UInt8, _ low: UInt8) {
            let key = UInt16(high) << 8 | UInt16(low)
            byPrefix[key, default: []].append(number)
            let slot = Self.filterSlot(key)
            filter[slot >> 6] |= 1 << UInt64(slot & 63)
            starts[Int(high >> 6)] |= 1 << UInt64(high & 63)
        }
        // Every case of the first two bytes, for hex (each case's fresh code is inserted: nothing is allocated here).
        let (first, second) = (entry.bytes[0], entry.bytes[1])
        let firstUpper = Self.upper(first, foldsCase: entry.foldsCase)
        let secondUpper = Self.upper(second, foldsCase: entry.foldsCase)
        add(first, second)
        if let firstUpper { add(firstUpper, second) }
        if let secondUpper { add(first, secondUpper) }
        if let firstUpper, let secondUpper { add(firstUpper, secondUpper) }
    }

    /// The filter's size in words: 4,096 bits, a two-byte key folded onto 12 of them (`filterSlot`). A key's bit
    /// only lets `byPrefix` be asked, which decides, so keys that share a bit cost a look-up and never a match; a
    /// filter of every key's own bit (65,536 bits) was 8 KiB cleared for every case that learns a secret.
    private static let filterWords = 64

    /// A two-byte key's bit in the filter: its first byte's 8 bits shifted over its second's, 12 bits in all.
    @inline(__always)
    private static func filterSlot(_ key: UInt16) -> Int { Int(((key >> 8) << 4 ^ (key & 0xFF)) & 0xFFF) }

    /// The upper-case form of a lower-case ASCII letter of a needle found without case, or nil.
    private static func upper(_ byte: UInt8, foldsCase: Bool) -> UInt8? {
        foldsCase && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 0x20 : nil
    }

    /// An ASCII letter or digit, or `-._~`: what percent-encoding leaves as it is (RFC 3986's unreserved characters),
    /// and JSON and HTML escapers too.
    static func isUnescaped(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    static func longestUnescapedRun(_ bytes: [UInt8]) -> [UInt8] {
        var best = 0..<0
        var start = 0
        for (index, byte) in bytes.enumerated() where !isUnescaped(byte) {
            if index - start > best.count { best = start..<index }
            start = index + 1
        }
        if bytes.count - start > best.count { best = start..<bytes.count }
        return Array(bytes[best])
    }

    /// A secret's needles, worked out once per process (every case of a run hides the configured secrets). The memo
    /// holds at most `memoLimit` secrets: a run's own secrets are a handful, while every code a target issues is a
    /// secret seen once, and a memo of thousands of those would only hold memory.
    static func needles(of secret: String, bytes: [UInt8]) -> [SecretNeedles.Needle] {
        let key = ByteKey(secret)
        if let known = needlesBySecret.withLock({ $0[key] }) { return known }
        let needles = SecretNeedles(secret: bytes).needles
        needlesBySecret.withLock { memo in
            if memo.count >= Self.memoLimit { memo.removeAll(keepingCapacity: true) }
            memo[key] = needles
        }
        return needles
    }

    private static let needlesBySecret = Locked<[ByteKey: [SecretNeedles.Needle]]>([:])
    private static let memoLimit = 256

    // MARK: - Redacting

    /// `text` with every secret and every named credential hidden; `acrossLines: false` for lines joined only to be
    /// redacted in one call (header lines), where no value runs from one line into the next.
    package func redact(_ text: String, acrossLines: Bool) -> String {
        NamedCredentials.hide(in: hideSecrets(in: text, acrossLines: acrossLines))
    }

    /// `text` with every secret (one split across lines too) and every named credential hidden.
    package func redact(_ text: String) -> String {
        redact(text, acrossLines: true)
    }

    /// `text` redacted whole, then cut to `limit` UTF-8 bytes (never inside a placeholder), saying how much was cut.
    package func excerpt(_ text: String, limit: Int) -> String {
        Excerpt.bounded(redact(text), limit: limit)
    }

    /// `text` with every occurrence of a known secret, in any encoding, replaced by the secret's placeholder.
    package func hideSecrets(in text: String, acrossLines: Bool = true) -> String {
        guard !entries.isEmpty, !text.isEmpty else { return text }
        var bytes = text
        let redacted: String? = bytes.withUTF8 { original in
            var anchored = false
            var found = matches(in: RawReading(bytes: original), original: original, anchored: &anchored)
            var kinds = EscapedText.kinds(in: original).filter {
                $0 != .lineBreak || (acrossLines && breaksMaySplitASecret(original))
            }
            // Escapes are decoded only where a form of a secret may hide behind them: a run of its characters that no
            // escaper changes is there as written, some form has no such run, such characters are escaped
            // themselves, or the text was cut (a secret's first few characters may be all that is left of it). A
            // value split across lines has no such sign (its anchor is split too): line breaks are read wherever one
            // may split a secret, and escapes are decoded where a JSON string holds one (`\n`, `\r`).
            if !kinds.isEmpty, !(anchored || anchorless || Self.isCut(original) || Self.escapesUnescaped(original) || Self.escapesLineBreak(original))
            {
                kinds = kinds.filter { $0 == .lineBreak }
            }
            if !kinds.isEmpty {
                // Each kind of escape decoded, then each kind again in what that gave (a value encoded twice, such as
                // a percent-encoded value in JSON, or split by an escaped line break): every reading searched.
                let text = EscapedText(original: original)
                for kind in kinds {
                    guard let once = text.decoded(kind) else { continue }
                    found += matches(in: once, original: original, anchored: &anchored)
                    for again in once.kinds where again == .lineBreak ? acrossLines && kind != .lineBreak : once.hasEscapeOverDecodedBytes(again) {
                        guard let twice = once.decoded(again) else { continue }
                        found += matches(in: twice, original: original, anchored: &anchored)
                    }
                }
            }
            return found.isEmpty ? nil : replacing(found, in: original)
        }
        return redacted ?? text
    }

    /// A stretch of the original text that gives a secret away.
    private struct Match {
        var start: Int
        var end: Int
        var secret: Int
    }

    /// The matches in `reading`; `anchored` is set when an anchor was found.
    private func matches(in reading: some ByteReading, original: UnsafeBufferPointer<UInt8>, anchored: inout Bool) -> [Match] {
        var found: [Match] = []
        let count = reading.count
        guard count >= 2 else { return found }
        for index in 0..<(count - 1) {
            let first = reading.byte(index)
            let second = reading.byte(index + 1)
            var key = UInt16(first) << 8 | UInt16(second)
            let alternatives = (reading.alternative(index), reading.alternative(index + 1))
            if starts[Int(first >> 6)] & (1 << UInt64(first & 63)) != 0,
                case let slot = Self.filterSlot(key), filter[slot >> 6] & (1 << UInt64(slot & 63)) != 0
            {
                collect(byPrefix[key], at: index, in: reading, original: original, into: &found, anchored: &anchored)
            }
            if alternatives != (0, 0) {
                // A '+' may be a space or a plus: the other readings of the pair are keys too.
                for high in [first, alternatives.0] where high != 0 {
                    for low in [second, alternatives.1] where low != 0 && (high, low) != (first, second) {
                        key = UInt16(high) << 8 | UInt16(low)
                        collect(byPrefix[key], at: index, in: reading, original: original, into: &found, anchored: &anchored)
                    }
                }
            }
        }
        return found
    }

    private func collect(
        _ candidates: [Int32]?, at index: Int, in reading: some ByteReading, original: UnsafeBufferPointer<UInt8>,
        into found: inout [Match], anchored: inout Bool
    ) {
        guard let candidates else { return }
        for candidate in candidates {
            let entry = entries[Int(candidate)]
            var length = 0
            while length < entry.bytes.count, index + length < reading.count,
                reading.matches(entry.bytes[length], at: index + length, foldingCase: entry.foldsCase)
            {
                length += 1
            }
            if entry.isAnchor {
                if length == entry.bytes.count { anchored = true }
                continue
            }
            guard length >= 2 else { continue }
            var end = reading.end(index + length - 1)
            let whole = length == entry.bytes.count
            guard whole || length >= Self.hiddenPrefix || (length >= Self.hiddenPrefixAtEdge && Self.isEdge(end, in: original)) else { continue }
            // A value cut short may end inside a character: the rest of that character goes with it.
            while end < original.count, original[end] & 0xC0 == 0x80 { end += 1 }
            var start = reading.start(index)
            if entry.isBase64 {
                // The characters at either end carry some of the secret's bits too, and padding follows the last.
                if start > 0, Self.isBase64Character(original[start - 1]) { start -= 1 }
                if end < original.count, Self.isBase64Character(original[end]) { end += 1 }
                while end < original.count, original[end] == UInt8(ascii: "=") { end += 1 }
            }
            found.append(Match(start: start, end: end, secret: entry.secret))
        }
    }

    /// Whether some line break (a run of CR and LF) stands between two bytes that could both be part of a secret's
    /// form: only across such a break can the text read without its breaks show a secret its raw reading does not (a
    /// transcript's breaks, followed by its indent, never do).
    private func breaksMaySplitASecret(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func isBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }
        func inNeedle(_ byte: UInt8) -> Bool { inNeedles[Int(byte >> 6)] & (1 << UInt64(byte & 63)) != 0 }
        var index = 0
        while index < bytes.count {
            guard isBreak(bytes[index]) else {
                index += 1
                continue
            }
            let before = index > 0 ? bytes[index - 1] : nil
            while index < bytes.count, isBreak(bytes[index]) { index += 1 }
            if let before, index < bytes.count, inNeedle(before), inNeedle(bytes[index]) { return true }
        }
        return false
    }

    /// Whether the text holds a line break as a JSON string writes one (`\n`, `\r`).
    private static func escapesLineBreak(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 2 else { return false }
        return (0..<(bytes.count - 1)).contains {
            bytes[$0] == UInt8(ascii: "\\") && (bytes[$0 + 1] == UInt8(ascii: "n") || bytes[$0 + 1] == UInt8(ascii: "r"))
        }
    }

    /// Whether the text holds a truncation mark (`…`).
    private static func isCut(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 3 else { return false }
        return (0..<(bytes.count - 2)).contains { isEllipsis(at: $0, in: bytes) }
    }

    /// Whether `…` (U+2026, E2 80 A6) starts at `index`.
    private static func isEllipsis(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        index + 2 < bytes.count && bytes[index] == 0xE2 && bytes[index + 1] == 0x80 && bytes[index + 2] == 0xA6
    }

    /// Whether the text escapes a character no escaper needs to (`%61`, `&#97;`, `&#x61;`, `\u0061`): only one that
    /// escapes everything does, which leaves no run of a secret to find it by.
    static func escapesUnescaped(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index + 2 < bytes.count {
            defer { index += 1 }
            var value: UInt32?
            switch bytes[index] {
            case UInt8(ascii: "%"):
                if let high = bytes[index + 1].hexDigitValue, let low = bytes[index + 2].hexDigitValue { value = UInt32(high << 4 | low) }
            case UInt8(ascii: "\\") where bytes[index + 1] == UInt8(ascii: "u") && index + 5 < bytes.count:
                value = (2...5).reduce(UInt32(0)) { total, offset in
                    bytes[index + offset].hexDigitValue.map { total << 4 | UInt32($0) } ?? UInt32.max >> 4
                }
            case UInt8(ascii: "&") where bytes[index + 1] != UInt8(ascii: "#"):
                // A named reference for such a character (`&period;`, `&lowbar;`).
                var end = index + 1
                while end < bytes.count, end - index <= HTMLNamedReferences.longestName + 1, bytes[end] != UInt8(ascii: ";") { end += 1 }
                if end < bytes.count, bytes[end] == UInt8(ascii: ";"), let scalar = HTMLNamedReferences.scalar(named: bytes[(index + 1)..<end]) {
                    value = scalar.value
                }
            case UInt8(ascii: "&") where bytes[index + 1] == UInt8(ascii: "#"):
                let hex = bytes[index + 2] | 0x20 == UInt8(ascii: "x")
                var cursor = index + (hex ? 3 : 2)
                var number: UInt32 = 0
                while cursor < bytes.count, cursor - index < 10,
                    let digit = hex
                        ? bytes[cursor].hexDigitValue
                        : ((UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[cursor]) ? bytes[cursor] - UInt8(ascii: "0") : nil)
                {
                    number = number * (hex ? 16 : 10) + UInt32(digit)
                    cursor += 1
                }
                value = number
            default:
                continue
            }
            if let value, value < 0x80, isUnescaped(UInt8(value)) { return true }
        }
        return false
    }

    private static func isBase64Character(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// Whether a truncation mark (`…`, after at most three spaces or line breaks) follows `offset`: every cut the suite
    /// makes leaves one (`Excerpt.bounded`, `ByteText.display`, a kept raw answer, a handler's standard error). The
    /// plain end of a text is no cut: "… body bytes" must not lose its "tes" to a secret that starts so.
    private static func isEdge(_ offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        // The mark may stand after a space or on a line of its own (after a line break of either kind, or a value
        // split across lines and cut right after the break).
        var at = offset
        while at < text.count, at - offset < 3, [UInt8(ascii: " "), 0x0A, 0x0D].contains(text[at]) { at += 1 }
        return isEllipsis(at: at, in: text)
    }

    /// The original with each matched stretch (overlapping ones joined) replaced by its secret's placeholder.
    private func replacing(_ found: [Match], in original: UnsafeBufferPointer<UInt8>) -> String {
        let sorted = found.sorted { $0.start != $1.start ? $0.start < $1.start : $0.end > $1.end }
        var output: [UInt8] = []
        output.reserveCapacity(original.count)
        var copied = 0
        var index = 0
        while index < sorted.count {
            var joined = sorted[index]
            index += 1
            while index < sorted.count, sorted[index].start < joined.end {
                joined.end = max(joined.end, sorted[index].end)
                index += 1
            }
            guard joined.start >= copied else { continue }
            output += original[copied..<joined.start]
            output += Redaction.placeholder(for: secrets[joined.secret]).utf8
            copied = joined.end
        }
        output += original[copied...]
        return String(decoding: output, as: UTF8.self)
    }
}

/// Bytes read one at a time, each standing for a stretch of the original text.
protocol ByteReading {
    var count: Int { get }
    func byte(_ index: Int) -> UInt8
    /// A second byte the byte at `index` may stand for, or 0.
    func alternative(_ index: Int) -> UInt8
    func matches(_ byte: UInt8, at index: Int, foldingCase: Bool) -> Bool
    /// Where the byte at `index` comes from in the original text (byte offsets, end exclusive).
    func start(_ index: Int) -> Int
    func end(_ index: Int) -> Int
}

/// The original text, each byte standing for itself.
private struct RawReading: ByteReading {
    let bytes: UnsafeBufferPointer<UInt8>
    var count: Int { bytes.count }
    func byte(_ index: Int) -> UInt8 { bytes[index] }
    func alternative(_ index: Int) -> UInt8 { 0 }
    func matches(_ byte: UInt8, at index: Int, foldingCase: Bool) -> Bool {
        bytes[index] == byte || (foldingCase && bytes[index].asciiLowercased == byte)
    }
    func start(_ index: Int) -> Int { index }
    func end(_ index: Int) -> Int { index + 1 }
}

extension EscapedText: ByteReading {
    func byte(_ index: Int) -> UInt8 { bytes[index] }
    func alternative(_ index: Int) -> UInt8 { alternatives[index] }
    func start(_ index: Int) -> Int { Int(starts[index]) }
    func end(_ index: Int) -> Int { Int(ends[index]) }
}
