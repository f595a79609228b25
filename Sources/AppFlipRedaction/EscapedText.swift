import AppFlipBase

/// Text read with its escapes decoded, each decoded byte remembering which bytes of the original text it came from,
/// so a secret found in the decoded reading is hidden where it stands in the original.
///
/// A reading decodes one kind of escape a server or an app may echo a value in: percent-encoding (`%HH`, either hex
/// case; `+` reads as a space or as itself), backslash escapes (JSON's: `\uXXXX` with surrogate pairs, `\/`, `\"`,
/// `\\`, `\n`, `\r`, `\t`, `\b`, `\f`; and those a Python `repr` of bytes or text adds: `\xHH`, `\'`,
/// `\UXXXXXXXX`), HTML character references (`&#NN;`, `&#xHH;`, and the named ones for ASCII punctuation and
/// Latin-1), or line breaks, read as nothing (a value an app printed across two lines; one a JSON string holds as
/// `\n` is a line break once its backslash escapes are decoded). One kind at a time, as
/// encoders compose: a JSON-escaped secret holding `%25` is read with its JSON escapes decoded and its `%25` as
/// written. Decoding a reading again finds a value encoded twice (`%252B`, a percent-encoded value in JSON, a value
/// split by an escaped `\n`).
struct EscapedText {
    /// A kind of escape.
    enum Kind: CaseIterable {
        case percent, backslash, html, lineBreak

        /// The byte that starts this kind's escapes (and `+`, a space in a form, for percent).
        func isTrigger(_ byte: UInt8) -> Bool {
            switch self {
            case .percent: byte == UInt8(ascii: "%") || byte == UInt8(ascii: "+")
            case .backslash: byte == UInt8(ascii: "\\")
            case .html: byte == UInt8(ascii: "&")
            case .lineBreak: byte == 0x0A || byte == 0x0D
            }
        }
    }

    /// The decoded bytes.
    private(set) var bytes: [UInt8] = []
    /// For each decoded byte, a second byte it may stand for (`+` read as a space may be a plus), or 0.
    private(set) var alternatives: [UInt8] = []
    /// For each decoded byte, where its source starts and ends in the original text (byte offsets).
    private(set) var starts: [Int32] = []
    private(set) var ends: [Int32] = []

    var count: Int { bytes.count }

    /// The original text read as it is.
    init(original: UnsafeBufferPointer<UInt8>) {
        bytes = Array(original)
        alternatives = Array(repeating: 0, count: original.count)
        starts = (0..<Int32(original.count)).map { $0 }
        ends = (1..<Int32(original.count + 1)).map { $0 }
    }

    private init() {}

    /// The kinds of escape these bytes may hold.
    static func kinds(in bytes: some Collection<UInt8>) -> [Kind] {
        var (percent, backslash, html, lineBreak) = (false, false, false, false)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "+"): percent = true
            case UInt8(ascii: "\\"): backslash = true
            case UInt8(ascii: "&"): html = true
            case 0x0A, 0x0D: lineBreak = true
            default: continue
            }
        }
        // Most texts hold no escape: nothing allocated for them.
        guard percent || backslash || html || lineBreak else { return [] }
        return [percent ? Kind.percent : nil, backslash ? .backslash : nil, html ? .html : nil, lineBreak ? .lineBreak : nil].compactMap { $0 }
    }

    /// The kinds of escape this reading may hold.
    var kinds: [Kind] { Self.kinds(in: bytes) }

    /// This reading with its escapes of `kind` decoded once; nil when it holds none.
    func decoded(_ kind: Kind) -> EscapedText? {
        var result = EscapedText()
        result.bytes.reserveCapacity(count)
        result.alternatives.reserveCapacity(count)
        result.starts.reserveCapacity(count)
        result.ends.reserveCapacity(count)
        var changed = false
        var index = 0
        while index < count {
            if kind.isTrigger(bytes[index]), let (decoded, length) = escape(kind, at: index) {
                let (start, end) = (starts[index], ends[index + length - 1])
                for byte in decoded {
                    result.append(
                        byte, alternative: decoded == [UInt8(ascii: " ")] && length == 1 ? UInt8(ascii: "+") : 0,
                        start: start, end: end)
                }
                changed = true
                index += length
            } else {
                result.append(bytes[index], alternative: alternatives[index], start: starts[index], end: ends[index])
                index += 1
            }
        }
        return changed ? result : nil
    }

    /// Whether an escape of `kind` here takes in a byte that decoding made (a value escaped twice over, such as a
    /// JSON escape whose backslash's quote was an HTML reference): only then does decoding `kind` again find what
    /// decoding it in the original did not. A scan that allocates nothing.
    func hasEscapeOverDecodedBytes(_ kind: Kind) -> Bool {
        var index = 0
        while index < count {
            if kind.isTrigger(bytes[index]), let (_, length) = escape(kind, at: index) {
                if (index..<(index + length)).contains(where: { ends[$0] - starts[$0] > 1 }) { return true }
                index += length
            } else {
                index += 1
            }
        }
        return false
    }

    /// Whether the decoded byte at `index` is `byte`, either as read or as the byte it may stand for.
    func matches(_ byte: UInt8, at index: Int, foldingCase: Bool) -> Bool {
        let read = bytes[index]
        if read == byte || (alternatives[index] != 0 && alternatives[index] == byte) { return true }
        return foldingCase && read.asciiLowercased == byte
    }

    private mutating func append(_ byte: UInt8, alternative: UInt8, start: Int32, end: Int32) {
        bytes.append(byte)
        alternatives.append(alternative)
        starts.append(start)
        ends.append(end)
    }

    // MARK: - Escapes

    /// The bytes an escape of `kind` starting at `index` stands for and how many bytes of this reading it takes, or nil.
    private func escape(_ kind: Kind, at index: Int) -> ([UInt8], Int)? {
        switch kind {
        case .percent:
            if bytes[index] == UInt8(ascii: "+") { return ([UInt8(ascii: " ")], 1) }  // a space, or a plus (the alternative)
            guard index + 2 < count, let high = bytes[index + 1].hexDigitValue, let low = bytes[index + 2].hexDigitValue else { return nil }
            return ([high << 4 | low], 3)
        case .backslash:
            return backslashEscape(at: index)
        case .html:
            return characterReference(at: index)
        case .lineBreak:
            return ([], 1)
        }
    }

    /// A JSON string escape (RFC 8259 §7): `\uXXXX` (a surrogate pair read as one scalar) or a one-letter escape; or
    /// one Python's `repr` writes besides: `\xHH` (a byte of a bytes object, or a character below U+0100), `\'`,
    /// `\UXXXXXXXX`.
    private func backslashEscape(at index: Int) -> ([UInt8], Int)? {
        guard index + 1 < count else { return nil }
        switch bytes[index + 1] {
        case UInt8(ascii: "/"), UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "'"): return ([bytes[index + 1]], 2)
        case UInt8(ascii: "x"):
            // Read as the byte itself: a bytes `repr` writes a UTF-8 value's non-ASCII bytes so, one by one (for the
            // ASCII control characters a text `repr` escapes, the byte and the character are the same).
            guard let value = hexNumber(from: index + 2, digits: 2) else { return nil }
            return ([UInt8(value)], 4)
        case UInt8(ascii: "U"):
            guard let value = hexNumber(from: index + 2, digits: 8) else { return nil }
            return Unicode.Scalar(value).map { (Array(String($0).utf8), 10) }
        case UInt8(ascii: "n"): return ([0x0A], 2)
        case UInt8(ascii: "r"): return ([0x0D], 2)
        case UInt8(ascii: "t"): return ([0x09], 2)
        case UInt8(ascii: "b"): return ([0x08], 2)
        case UInt8(ascii: "f"): return ([0x0C], 2)
        case UInt8(ascii: "u"):
            guard let unit = hexNumber(from: index + 2, digits: 4) else { return nil }
            if (0xD800...0xDBFF).contains(unit), index + 11 < count, bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
                let low = hexNumber(from: index + 8, digits: 4), (0xDC00...0xDFFF).contains(low)
            {
                let scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                return Unicode.Scalar(scalar).map { (Array(String($0).utf8), 12) }
            }
            return Unicode.Scalar(unit).map { (Array(String($0).utf8), 6) }
        default:
            return nil
        }
    }

    /// An HTML character reference: `&#NN;`, `&#xHH;` (the `;` may be left out, as browsers allow) or a named one.
    private func characterReference(at index: Int) -> ([UInt8], Int)? {
        guard index + 2 < count else { return nil }
        if bytes[index + 1] == UInt8(ascii: "#") {
            let hex = bytes[index + 2] | 0x20 == UInt8(ascii: "x")
            var cursor = index + (hex ? 3 : 2)
            var value: UInt32 = 0
            let first = cursor
            while cursor < count, cursor - first < 8 {
                let digit: UInt8? =
                    hex
                    ? bytes[cursor].hexDigitValue
                    : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[cursor]) ? bytes[cursor] - UInt8(ascii: "0") : nil
                guard let digit else { break }
                value = value * (hex ? 16 : 10) + UInt32(digit)
                cursor += 1
            }
            guard cursor > first, let scalar = Unicode.Scalar(value) else { return nil }
            if cursor < count, bytes[cursor] == UInt8(ascii: ";") { cursor += 1 }
            return (Array(String(scalar).utf8), cursor - index)
        }
        var cursor = index + 1
        while cursor < count, cursor - index <= HTMLNamedReferences.longestName, Self.isASCIILetterOrDigit(bytes[cursor]) { cursor += 1 }
        guard cursor < count, bytes[cursor] == UInt8(ascii: ";"), cursor > index + 1,
            let scalar = HTMLNamedReferences.scalar(named: bytes[(index + 1)..<cursor])
        else { return nil }
        return (Array(String(scalar).utf8), cursor + 1 - index)
    }

    private func hexNumber(from index: Int, digits: Int) -> UInt32? {
        guard index + digits <= count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<digits {
            guard let digit = bytes[index + offset].hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}
