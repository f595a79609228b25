import AppFlipBase

/// The values that stand where a secret would stand in an adapter's answer, found whether or not the answer is usable.
///
/// An answer the contract cannot use (no `finished`, a `result_code` given as a string, an `AUTHORIZATION_CODE` of
/// another type, a line cut short, a repeated member) may still carry a live code: what the suite knows to hide must
/// not depend on the answer parsing. So the answer is read by a tolerant JSON scan that never fails: it walks string
/// and number tokens with a stack of objects and arrays, reads on past anything that is not JSON, and takes
///
/// - every value under a member whose name says it is a credential (`Redaction.isCredentialName`: `code`,
///   `AUTHORIZATION_CODE`, `access_token`, `authorization`, …), at any depth, of any type (a string, a number, each
///   element of an array, each value of an object, except an object's `type` tag, which names the contract's type),
///   and, for a value with an authentication scheme (`Basic …`), its credentials alone too;
/// - the credentials of every URL in any string value (`url`, a URL nested in another, as `Redaction.secrets(in:)`).
///
/// The same rule for every adapter contract and every transport (stdio, HTTP).
package enum SecretPositions {
    /// The secrets in `answer`, each once, in the order met; with `url` (the URL the answer was read to open), that
    /// URL's credentials too (`Redaction.secrets(in:)`), found again only when the answer does not hold it as one of
    /// its strings (an answer of another form, or one cut short): the scan reads every string's URL credentials already.
    package static func inAnswer(_ answer: String, url: String? = nil) -> [String] {
        var found: [String] = []
        var text = answer
        var covered = url == nil
        text.withUTF8 { bytes in
            var scan = Scan(bytes: bytes)
            scan.run({ found.append($0) }, string: { value in if !covered, value == url { covered = true } })
        }
        if !covered, let url { found = Redaction.secrets(in: url) + found }
        var seen = Set<String>()
        return found.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    private struct Frame {
        var isObject: Bool
        /// Whether this container's values are credentials (a credential-named member opened it, or an enclosing one).
        var secret: Bool
        /// The name of the member whose value comes next (objects only).
        var name: String?
    }

    private struct Scan {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0
        var stack: [Frame] = []
        /// Set after a credential-named member's ':' at the top of the stack: its value is a credential.
        var pendingSecret = false

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// Whether the value about to be read is a credential.
        var valueIsSecret: Bool {
            guard let frame = stack.last else { return false }
            if frame.isObject, frame.name == "type" { return false }
            return pendingSecret || frame.secret
        }

        mutating func run(_ collect: (String) -> Void, string visit: (String) -> Void = { _ in }) {
            while offset < bytes.count {
                let byte = bytes[offset]
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    stack.append(Frame(isObject: byte == UInt8(ascii: "{"), secret: valueIsSecret))
                    pendingSecret = false
                    offset += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if !stack.isEmpty { stack.removeLast() }
                    pendingSecret = false
                    offset += 1
                case UInt8(ascii: ","):
                    if let last = stack.indices.last { stack[last].name = nil }
                    pendingSecret = false
                    offset += 1
                case UInt8(ascii: "\""):
                    let value = string()
                    if isName() {
                        if let last = stack.indices.last, stack[last].isObject { stack[last].name = value }
                        pendingSecret = Redaction.isCredentialName(value)
                        continue
                    }
                    visit(value)
                    if valueIsSecret { secret(value, collect) }
                    for nested in Redaction.secrets(in: value) { collect(nested) }
                    pendingSecret = false
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    let start = offset
                    while offset < bytes.count, Self.isNumberByte(bytes[offset]) { offset += 1 }
                    if valueIsSecret { collect(String(decoding: bytes[start..<offset], as: UTF8.self)) }
                    pendingSecret = false
                default:
                    offset += 1
                }
            }
        }

        /// A credential's value, and the credentials after its scheme when it has one (`Bearer abc…`).
        private func secret(_ value: String, _ collect: (String) -> Void) {
            collect(value)
            if let space = value.firstIndex(of: " "), value[..<space].allSatisfy(\.isLetter) {
                let credentials = value[space...].drop { $0 == " " }
                if !credentials.isEmpty { collect(String(credentials)) }
            }
        }

        /// Whether a ':' follows (after white space): the string just read was a member's name. Consumes the ':'.
        private mutating func isName() -> Bool {
            var cursor = offset
            while cursor < bytes.count, bytes[cursor] == 0x20 || bytes[cursor] == 0x09 || bytes[cursor] == 0x0A || bytes[cursor] == 0x0D {
                cursor += 1
            }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ":") else { return false }
            offset = cursor + 1
            return true
        }

        /// The string whose opening quote is at `offset`, its escapes decoded; to the end of the text when not closed.
        private mutating func string() -> String {
            offset += 1
            // Most strings hold no escape: read in place.
            var end = offset
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
            if end == bytes.count || bytes[end] == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
                offset = min(end + 1, bytes.count)
                return text
            }
            var text: [UInt8] = []
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                if byte == UInt8(ascii: "\"") { break }
                guard byte == UInt8(ascii: "\\"), offset < bytes.count else {
                    text.append(byte)
                    continue
                }
                let escaped = bytes[offset]
                offset += 1
                switch escaped {
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "u"):
                    text += unicodeEscape()
                default: text.append(escaped)
                }
            }
            return String(decoding: text, as: UTF8.self)
        }

        /// The character of a `\uXXXX` escape (a surrogate pair read as one), as UTF-8; nothing when malformed.
        private mutating func unicodeEscape() -> [UInt8] {
            guard var scalar = hex4() else { return [] }
            if (0xD800...0xDBFF).contains(scalar), offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                bytes[offset + 1] == UInt8(ascii: "u")
            {
                offset += 2
                guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return [] }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            return Unicode.Scalar(scalar).map { Array(String($0).utf8) } ?? []
        }

        private mutating func hex4() -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for index in offset..<(offset + 4) {
                guard let digit = bytes[index].hexDigitValue else { return nil }
                value = value << 4 | UInt32(digit)
            }
            offset += 4
            return value
        }

        private static func isNumberByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e")
        }
    }
}
