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

    /// Tokenizes `bytes` (decoded as UTF-8, invalid sequences replaced) within `limits`. Scanned as UTF-8 bytes: every
    /// delimiter is ASCII, and no byte of a multi-byte sequence is.
    package static func tokens(_ bytes: [UInt8], limits: Limits = Limits()) -> [Token] {
        var list = TokenList()
        read(bytes, limits: limits, into: &list)
        return list.tokens
    }

    /// Hands the tokens of `bytes` to `reader` as `tokens(_:limits:)` finds them, without making the strings the
    /// reader says it would ignore. Limits count every token, made or not.
    package static func read<Reader: HTMLTokenReader>(_ bytes: [UInt8], limits: Limits = Limits(), into reader: inout Reader) {
        // Scanned in the decoded text's own memory: no bounds-checked array access and no reference counting per byte.
        var text = String(decoding: bytes.prefix(limits.maximumBytes), as: UTF8.self)
        text.withUTF8 { scan($0, limits: limits, into: &reader) }
    }

    /// A reader that keeps every token.
    private struct TokenList: HTMLTokenReader {
        var tokens: [Token] = []
        var readsText: Bool { true }
        func readsAttributes(of name: String) -> Bool { true }
        mutating func start(_ name: String, _ attributes: [(name: String, value: String)]) {
            tokens.append(.start(name: name, attributes: attributes))
        }
        mutating func end(_ name: String) { tokens.append(.end(name: name)) }
        mutating func text(_ text: String) { tokens.append(.text(text)) }
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
    /// Unless `making`, the tag is only passed over and the list stays empty.
    private static func attributes(
        _ text: UnsafeBufferPointer<UInt8>, cursor: inout Int, limits: Limits, making: Bool
    ) -> [(name: String, value: String)] {
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
            let name = attributeStart..<cursor
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
            // A name is never empty once lower-cased unless it was empty (a lone `=`).
            if making, !name.isEmpty, attributes.count < limits.maximumAttributes {
                if attributes.isEmpty { attributes.reserveCapacity(4) }
                attributes.append((lowercasedName(text, name), decoded(text, value)))
            }
        }
        return attributes
    }

    /// The elements whose content is raw text up to their end tag, and whether its character references are replaced.
    private enum RawText {
        case plain, decoded

        /// What `name` (lower-cased) holds, nil for an element with ordinary content; looked at by length first.
        init?(_ name: String) {
            switch name.utf8.count {
            case 5 where name == "title": self = .decoded
            case 5 where name == "style": self = .plain
            case 6 where name == "script": self = .plain
            case 8 where name == "textarea": self = .decoded
            default: return nil
            }
        }
    }

    private static func scan<Reader: HTMLTokenReader>(_ text: UnsafeBufferPointer<UInt8>, limits: Limits, into reader: inout Reader) {
        var count = 0
        var index = 0
        var textStart = 0
        func flushText(upTo end: Int) {
            guard end > textStart else { return }
            count += 1
            if reader.readsText { reader.text(decoded(text, textStart..<end)) }
        }
        while index < text.count, count < limits.maximumTokens {
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
                count += 1
                reader.end(name)
                textStart = index
                continue
            }
            let attributes = Self.attributes(text, cursor: &cursor, limits: limits, making: reader.readsAttributes(of: name))
            index = min(cursor + 1, text.count)
            count += 1
            reader.start(name, attributes)
            textStart = index
            if let raw = RawText(name) {
                // Raw text up to the matching end tag, whatever it contains.
                let end = findEndTag(text, name, from: index) ?? text.count
                if end > index {
                    count += 1
                    if reader.readsText { reader.text(raw == .decoded ? decoded(text, index..<end) : string(text, index..<end)) }
                }
                index = end
                textStart = end
            }
        }
        if count < limits.maximumTokens { flushText(upTo: text.count) }
    }

    /// Replaces the character references a page commonly uses: named basics and numeric forms. Read as UTF-8 bytes
    /// (every hidden field's value of a sign-in page passes here): a reference is `&`, a name or number, and `;`
    /// within the next 12 bytes; anything else keeps its `&`.
    package static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        return Array(text.utf8).withUnsafeBufferPointer { decodeEntities(bytes: $0[...]) }
    }

    /// `decodeEntities(_:)` of the text these bytes (valid UTF-8) spell. The text between references is copied a run
    /// at a time.
    package static func decodeEntities(bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        var run = index
        while index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "&") else {
                index += 1
                continue
            }
            let after = index + 1
            if let semicolon = bytes[after..<min(after + 12, bytes.endIndex)].firstIndex(of: UInt8(ascii: ";")),
                let replacement = replacement(for: bytes[after..<semicolon])
            {
                result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                result.append(contentsOf: replacement.utf8)
                index = semicolon + 1
                run = index
            } else {
                index = after
            }
        }
        result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<bytes.endIndex]))
        return String(decoding: result, as: UTF8.self)
    }

    /// What a character reference's name or number (the bytes between `&` and `;`) stands for, or nil. The named
    /// ones are told by their bytes; a number is read from its text.
    private static func replacement(for entity: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        func spells(_ name: StaticString) -> Bool {
            name.withUTF8Buffer { entity.elementsEqual($0) }
        }
        switch entity.count {
        case 2 where spells("lt"): return "<"
        case 2 where spells("gt"): return ">"
        case 3 where spells("amp"): return "&"
        case 4 where spells("quot"): return "\""
        case 4 where spells("apos"): return "'"
        case 4 where spells("nbsp"): return "\u{A0}"
        default: break
        }
        guard entity.first == UInt8(ascii: "#") else { return nil }
        let number = String(decoding: entity.dropFirst(), as: UTF8.self)
        let value = number.hasPrefix("x") || number.hasPrefix("X") ? UInt32(number.dropFirst(), radix: 16) : UInt32(number)
        return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
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
