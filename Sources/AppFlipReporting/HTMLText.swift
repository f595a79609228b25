import AppFlipBase
import AppFlipModel

/// Text made safe for an HTML page: everything a target wrote is text, never markup. Every character that could end
/// a text node or an attribute value (`& < > " '`) is a character reference; control characters other than tab and
/// newline are dropped; links go only where `HTMLText.href` allows.
package enum HTMLText {
    /// `value` as the content of an element or a double-quoted attribute.
    package static func text(_ value: String) -> String {
        // Most text (IDs, requirement lists, the suite's words) has nothing to escape: returned as it is, read as bytes.
        // 0xC2 may begin a C1 control (U+0080–U+009F), which the scalar reading drops.
        if value.utf8.withContiguousStorageIfAvailable(isPlain) ?? Array(value.utf8).withUnsafeBufferPointer(isPlain) {
            return value
        } else if let plain = value.utf8.withContiguousStorageIfAvailable(isPlainButForBidiLeads), plain, !hasBidiControl(value) {
            return value
        }
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                // C0 and C1 controls (and DEL) have no place in a page; U+2028/2029 are line breaks to a script reader.
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { continue }
                // A bidirectional control is named, never obeyed: the browser would reorder the text around it.
                if TerminalText.isBidiControl(scalar) {
                    result += "&lt;U+" + String(scalar.value, radix: 16, uppercase: true) + "&gt;"
                    continue
                }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `text` passes `bytes` as they are: no byte it changes (`notPlain`) and none that may begin a
    /// bidirectional control (0xE2, 0xD8), read in one pass.
    private static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        classes.withUnsafeBufferPointer { table in !bytes.contains { table[Int($0)] != 0 } }
    }

    /// Whether `value` is printable ASCII (space to `~`) without `& < > " '`: what `text` returns as it is, and what
    /// compares equal to another string only byte for byte.
    package static func isPlainASCII(_ value: String) -> Bool {
        value.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 &- 0x20 < 0x5F && !($0 < 64 && plainASCIIExceptions >> UInt64($0) & 1 != 0) }
        } ?? value.utf8.allSatisfy { $0 &- 0x20 < 0x5F && !($0 < 64 && plainASCIIExceptions >> UInt64($0) & 1 != 0) }
    }

    /// `"`, `&`, `'`, `<` and `>`, one bit each: the printable ASCII `text` escapes.
    private static let plainASCIIExceptions: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E

    /// Whether `bytes` hold none that `text` changes, bidirectional controls aside (those are looked for apart). A
    /// 0xC2 lead passes when its character is U+00A0 or above (`§`, a no-break space, `©`: every catalog citation
    /// has a `§`), not a C1 control.
    private static func isPlainButForBidiLeads(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        classes.withUnsafeBufferPointer { table in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if table[Int(byte)] == notPlain {
                    guard byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] >= 0xA0 else { return false }
                }
                index += 1
            }
            return true
        }
    }

    /// Each byte's class: 0 passes as it is; `notPlain` is one `text` changes (controls, DEL, a C1 control's lead
    /// byte, and `& < > " '`); `bidiLead` may begin a bidirectional control. A table: every cell of every row of
    /// report.html is read here.
    private static let classes: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for byte in 0..<0x20 { table[byte] = notPlain }
        for byte in [0x7F, 0xC2] + "&<>\"'".utf8.map(Int.init) { table[byte] = notPlain }
        for byte in [0xE2, 0xD8] { table[byte] = bidiLead }
        return table
    }()
    private static let notPlain: UInt8 = 1
    private static let bidiLead: UInt8 = 2

    /// Whether `value` holds a bidirectional control (read as bytes: most text holds no byte that can begin one).
    private static func hasBidiControl(_ value: String) -> Bool {
        guard value.utf8.contains(where: { $0 == 0xE2 || $0 == 0xD8 }) else { return false }
        return value.unicodeScalars.contains(where: TerminalText.isBidiControl)
    }

    /// `value` cut to `limit` characters, saying so.
    package static func cut(_ value: String, limit: Int) -> String {
        value.count <= limit ? value : String(value.prefix(limit)) + "… [truncated]"
    }

    /// The URL as an `href` value when the page may link to it: an https URL (the catalog's sources) or one of the
    /// page's own anchors (`#…`); nil for anything else (`javascript:`, `data:`, relative paths, other schemes).
    package static func href(_ url: String) -> String? {
        if url.hasPrefix("#"), url.dropFirst().allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) { return url }
        guard url.lowercased().hasPrefix("https://"),
            !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0 == "\"" || $0 == "<" || $0 == ">" || $0 == "\\" })
        else {
            return nil
        }
        return text(url)
    }

    /// `text`'s escapes read back (for messages that quote an attribute the page wrote).
    package static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }
}
