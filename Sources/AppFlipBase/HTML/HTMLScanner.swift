/// A bounded, tolerant HTML tokenizer for the pages a conformance run reads (sign-in, consent, error pages).
///
/// It yields start tags with their attributes, end tags, and text; comments and doctypes are skipped, and the
/// content of `script`, `style` and `textarea` comes back as one raw text token. It never fails: malformed markup
/// ends a token early rather than throwing. Work is bounded by `limits`, so a hostile page cannot cost more than
/// a fixed amount of time or memory.
package struct HTMLScanner {
    package struct Limits: Sendable {
        package var maximumBytes = 1 << 20
        package var maximumTokens = 50_000
        package var maximumAttributes = 256

        package init() {}
    }

    package enum Token: Sendable {
        /// A start tag: lower-cased name, attributes in order (lower-cased names, entity-decoded values).
        case start(name: String, attributes: [(name: String, value: String)])
        case end(name: String)
        case text(String)
    }

    /// Whether an element's content is raw text up to its end tag.
    package static func isRawTextElement(_ name: String) -> Bool {
        switch name {
        case "script", "style", "textarea", "title": true
        default: false
        }
    }

    /// Tokenizes `bytes` (decoded as UTF-8, invalid sequences replaced) within `limits`. Scanned as UTF-8 bytes: every
    /// delimiter is ASCII, and no byte of a multi-byte sequence is.
    package static func tokens(_ bytes: [UInt8], limits: Limits = Limits()) -> [Token] {
        // Scanned in the decoded text's own memory: no bounds-checked array access and no reference counting per byte.
        Array(String(decoding: bytes.prefix(limits.maximumBytes), as: UTF8.self).utf8).withUnsafeBufferPointer { scan($0, limits: limits) }
    }

    private static func string(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: text[range], as: UTF8.self)
    }

    /// A tag or attribute name lower-cased: ASCII byte by byte (names are ASCII in practice), others by lowercased().
    private static func lowercasedName(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        guard text[range].allSatisfy({ $0 < 0x80 }) else { return string(text, range).lowercased() }
        return String(unsafeUninitializedCapacity: range.count) { buffer in
            for (offset, byte) in text[range].enumerated() { buffer[offset] = byte.asciiLowercased }
            return range.count
        }
    }

    /// Text and attribute values with their character references replaced, made a string once.
    private static func decoded(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        text[range].contains(UInt8(ascii: "&")) ? decodeEntities(bytes: text[range]) : string(text, range)
    }

    /// A start tag's attributes, from `cursor` (just after its name) to its `>`, where `cursor` is left: names
    /// lower-cased, values quoted, unquoted or absent, character references replaced; at most `maximumAttributes`.
    private static func attributes(_ text: UnsafeBufferPointer<UInt8>, cursor: inout Int, limits: Limits) -> [(name: String, value: String)] {
        var attributes: [(name: String, value: String)] = []
        while cursor < text.count, text[cursor] != UInt8(ascii: ">") {
            if isSpace(text[cursor]) || text[cursor] == UInt8(ascii: "/") {
                cursor += 1
                continue
            }
            let attributeStart = cursor
            while cursor < text.count, !isSpace(text[cursor]), text[cursor] != UInt8(ascii: "="), text[cursor] != UInt8(ascii: ">"),
                text[cursor] != UInt8(ascii: "/")
            { cursor += 1 }
            let attributeName = lowercasedName(text, attributeStart..<cursor)
            while cursor < text.count, isSpace(text[cursor]) { cursor += 1 }
            var value = cursor..<cursor
            if cursor < text.count, text[cursor] == UInt8(ascii: "=") {
                cursor += 1
                while cursor < text.count, isSpace(text[cursor]) { cursor += 1 }
                if cursor < text.count, text[cursor] == UInt8(ascii: "\"") || text[cursor] == UInt8(ascii: "'") {
                    let quote = text[cursor]
                    let valueStart = cursor + 1
                    cursor = valueStart
                    while cursor < text.count, text[cursor] != quote { cursor += 1 }
                    value = valueStart..<min(cursor, text.count)
                    if cursor < text.count { cursor += 1 }
                } else {
                    let valueStart = cursor
                    while cursor < text.count, !isSpace(text[cursor]), text[cursor] != UInt8(ascii: ">") { cursor += 1 }
                    value = valueStart..<cursor
                }
            }
            if !attributeName.isEmpty, attributes.count < limits.maximumAttributes {
                attributes.append((attributeName, decoded(text, value)))
            }
        }
        return attributes
    }

    private static func scan(_ text: UnsafeBufferPointer<UInt8>, limits: Limits) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        var textStart = 0
        func flushText(upTo end: Int) {
            if end > textStart { tokens.append(.text(decoded(text, textStart..<end))) }
        }
        while index < text.count, tokens.count < limits.maximumTokens {
            guard text[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            // Comments, doctypes and processing instructions.
            if matches(text, index, "<!--") {
                flushText(upTo: index)
                index = find(text, "-->", from: index + 4).map { $0 + 3 } ?? text.count
                textStart = index
                continue
            }
            if matches(text, index, "<!") || matches(text, index, "<?") {
                flushText(upTo: index)
                index = find(text, ">", from: index + 2).map { $0 + 1 } ?? text.count
                textStart = index
                continue
            }
            let isEnd = index + 1 < text.count && text[index + 1] == UInt8(ascii: "/")
            let nameStart = index + (isEnd ? 2 : 1)
            guard nameStart < text.count, startsName(text, at: nameStart) else {
                index += 1  // a lone '<' is text
                continue
            }
            flushText(upTo: index)
            var cursor = nameStart
            while cursor < text.count, !isSpace(text[cursor]), text[cursor] != UInt8(ascii: ">"), text[cursor] != UInt8(ascii: "/") { cursor += 1 }
            let name = lowercasedName(text, nameStart..<cursor)
            if isEnd {
                index = find(text, ">", from: cursor).map { $0 + 1 } ?? text.count
                tokens.append(.end(name: name))
                textStart = index
                continue
            }
            let attributes = Self.attributes(text, cursor: &cursor, limits: limits)
            index = min(cursor + 1, text.count)
            tokens.append(.start(name: name, attributes: attributes))
            textStart = index
            if isRawTextElement(name) {
                // Raw text up to the matching end tag, whatever it contains.
                let end = findEndTag(text, name, from: index) ?? text.count
                if end > index {
                    tokens.append(.text(name == "textarea" || name == "title" ? decoded(text, index..<end) : string(text, index..<end)))
                }
                index = end
                textStart = end
            }
        }
        if tokens.count < limits.maximumTokens { flushText(upTo: text.count) }
        return tokens
    }

    /// Replaces the character references a page commonly uses: named basics and numeric forms. Read as UTF-8 bytes
    /// (every hidden field's value of a sign-in page passes here): a reference is `&`, a name or number, and `;`
    /// within the next 12 bytes; anything else keeps its `&`.
    package static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        return Array(text.utf8).withUnsafeBufferPointer { decodeEntities(bytes: $0[...]) }
    }

    /// `decodeEntities(_:)` of the text these bytes (valid UTF-8) spell.
    package static func decodeEntities(bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "&") else {
                result.append(bytes[index])
                index += 1
                continue
            }
            let after = index + 1
            if let semicolon = bytes[after..<min(after + 12, bytes.endIndex)].firstIndex(of: UInt8(ascii: ";")),
                let replacement = replacement(for: String(decoding: bytes[after..<semicolon], as: UTF8.self))
            {
                result += replacement.utf8
                index = semicolon + 1
            } else {
                result.append(UInt8(ascii: "&"))
                index = after
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// What a character reference's name or number (between `&` and `;`) stands for, or nil.
    private static func replacement(for entity: String) -> String? {
        switch entity {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return "\u{A0}"
        default:
            if entity.hasPrefix("#x") || entity.hasPrefix("#X"), let value = UInt32(entity.dropFirst(2), radix: 16) {
                return Unicode.Scalar(value).map { String(Character($0)) }
            } else if entity.hasPrefix("#"), let value = UInt32(entity.dropFirst()) {
                return Unicode.Scalar(value).map { String(Character($0)) }
            }
            return nil
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == 0x0C
    }

    /// Whether the character at `index` (valid UTF-8) is alphabetic: a tag name starts with a letter.
    private static func startsName(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let lead = text[index]
        if lead < 0x80 { return (lead | 0x20) >= UInt8(ascii: "a") && (lead | 0x20) <= UInt8(ascii: "z") }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        let scalar = String(decoding: text[index..<min(index + length, text.count)], as: UTF8.self).unicodeScalars.first
        return scalar?.properties.isAlphabetic ?? false
    }

    private static func matches(_ text: UnsafeBufferPointer<UInt8>, _ index: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= text.count else { return false }
        return literal.withUTF8Buffer { needle in (0..<count).allSatisfy { text[index + $0] == needle[$0] } }
    }

    private static func find(_ text: UnsafeBufferPointer<UInt8>, _ literal: StaticString, from start: Int) -> Int? {
        var index = start
        while index < text.count {
            if matches(text, index, literal) { return index }
            index += 1
        }
        return nil
    }

    /// The index of `</name` (ASCII letters in any case: `name` is one of the raw-text elements) at or after `start`.
    private static func findEndTag(_ text: UnsafeBufferPointer<UInt8>, _ name: String, from start: Int) -> Int? {
        let needle = Array(("</" + name).utf8)
        var index = start
        while index + needle.count <= text.count {
            if text[index] == UInt8(ascii: "<"), (0..<needle.count).allSatisfy({ text[index + $0].asciiLowercased == needle[$0] }) {
                return index
            }
            index += 1
        }
        return nil
    }
}
