/// Parses the project's small YAML-like case format into a `Node` tree.
///
/// The grammar (see `Conformance/FORMAT.md`): nested mappings by indentation (spaces only), lists of `- item`,
/// one-line lists `[a, "b"]`, plain, `"double"` and `'single'` quoted scalars, `|` block strings, `#` comments.
/// There are no anchors, aliases, tags, flow mappings or multi-document streams. Every error carries a location.
package struct Parser {
    /// Limits that keep a hostile file from costing unbounded time or memory.
    package struct Limits: Sendable {
        package var maximumBytes: Int
        package var maximumDepth: Int

        package init(maximumBytes: Int = 1 << 20, maximumDepth: Int = 32) {
            self.maximumBytes = maximumBytes
            self.maximumDepth = maximumDepth
        }
    }

    /// One line of the file, read as UTF-8 bytes (every character the grammar gives a meaning is ASCII, and no byte
    /// of a multi-byte sequence is one): positions in it are byte offsets, turned into character columns only where a
    /// location is made (`column(_:)`).
    private struct Line {
        var number: Int
        /// The line's bytes, without its ending, in the file's storage.
        var bytes: ArraySlice<UInt8>
        /// Leading spaces; meaningful only when the line is significant.
        var indent: Int
        /// True for lines that are blank or hold only a comment.
        var isInsignificant: Bool
        var isASCII: Bool

        var count: Int { bytes.count }

        subscript(offset: Int) -> UInt8 { bytes[bytes.startIndex + offset] }

        func slice(_ range: Range<Int>) -> ArraySlice<UInt8> {
            bytes[(bytes.startIndex + range.lowerBound)..<(bytes.startIndex + range.upperBound)]
        }

        func string(_ range: Range<Int>) -> String { String(decoding: slice(range), as: UTF8.self) }

        /// The line as text, for a diagnostic.
        var text: String { String(decoding: bytes, as: UTF8.self) }

        /// The 0-based character column of byte `offset` (the characters before it, as an editor counts them).
        func column(_ offset: Int) -> Int {
            isASCII ? offset : string(0..<min(max(offset, 0), count)).count + max(0, offset - count)
        }

        /// The character at byte `offset`, for a diagnostic that quotes it.
        func character(at offset: Int) -> String {
            let lead = self[offset]
            let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            return string(offset..<min(offset + length, count))
        }

        /// Whether every byte from `offset` on is a space.
        func isBlank(from offset: Int = 0) -> Bool { slice(min(offset, count)..<count).allSatisfy { $0 == Parser.space } }
    }

    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let hash = UInt8(ascii: "#")
    private static let dash = UInt8(ascii: "-")
    private static let doubleQuote = UInt8(ascii: "\"")
    private static let singleQuote = UInt8(ascii: "'")
    private static let backslash = UInt8(ascii: "\\")
    /// What a plain key may not hold (braces aside, allowed in a `${…}` variable), and a one-line list's plain item.
    private static let keyForbidden: [UInt8] = Array("\t#[],".utf8)
    private static let flowItemForbidden: [UInt8] = Array("[{}#\t".utf8)

    private let file: String
    private let limits: Limits
    private var lines: [Line] = []
    private var cursor = 0
    private var diagnostics: [Diagnostic] = []
    private var depth = 0

    private init(file: String, limits: Limits) {
        self.file = file
        self.limits = limits
    }

    /// Parses a whole file. Throws a `DiagnosticList` holding every error found.
    package static func parse(bytes: [UInt8], file: String, limits: Limits = Limits()) throws(DiagnosticList) -> Node {
        var parser = Parser(file: file, limits: limits)
        guard bytes.count <= limits.maximumBytes else {
            throw DiagnosticList([
                Diagnostic(
                    at: SourceLocation(file: file, line: 1, column: 1),
                    "file is \(bytes.count) bytes; the limit is \(limits.maximumBytes)")
            ])
        }
        guard let text = Parser.validUTF8(bytes, file: file, diagnostics: &parser.diagnostics) else {
            throw DiagnosticList(parser.diagnostics)
        }
        parser.split(text)
        let node = parser.parseDocument()
        if let node, !parser.diagnostics.contains(where: { $0.severity == .error }) {
            return node
        }
        throw DiagnosticList(parser.diagnostics)
    }

    /// Parses text already in memory.
    package static func parse(_ text: String, file: String, limits: Limits = Limits()) throws(DiagnosticList) -> Node {
        try parse(bytes: Array(text.utf8), file: file, limits: limits)
    }

    // MARK: - Lines

    /// The file's bytes after any byte order mark, when they are valid UTF-8; else nil, with a diagnostic at the first
    /// invalid byte.
    private static func validUTF8(_ bytes: [UInt8], file: String, diagnostics: inout [Diagnostic]) -> ArraySlice<UInt8>? {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if String(validating: body, as: UTF8.self) != nil { return body }
        // Find the first invalid byte to point at it.
        var line = 1
        var lineStart = body.startIndex
        var index = body.startIndex
        while index < body.endIndex {
            let length = Parser.validSequenceLength(body, at: index)
            if length == 0 {
                let prefix = String(decoding: body[lineStart..<index], as: UTF8.self)
                diagnostics.append(
                    Diagnostic(
                        at: SourceLocation(file: file, line: line, column: prefix.count + 1),
                        "invalid UTF-8 byte 0x\(String(body[index], radix: 16, uppercase: true))",
                        lineText: prefix))
                return nil
            }
            if body[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += length
        }
        return nil
    }

    private static func validSequenceLength(_ bytes: ArraySlice<UInt8>, at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard index + length <= bytes.endIndex else { return 0 }
        let candidate = bytes[index..<(index + length)]
        return String(validating: candidate, as: UTF8.self) == nil ? 0 : length
    }

    /// The lines as `SourceLines.split` counts them: LF and CR LF end a line.
    private mutating func split(_ text: ArraySlice<UInt8>) {
        var number = 0
        var start = text.startIndex
        while true {
            let newline = text[start...].firstIndex(of: 0x0A)
            var end = newline ?? text.endIndex
            if newline != nil, end > start, text[end - 1] == 0x0D { end -= 1 }
            number += 1
            let bytes = text[start..<end]
            var indent = 0
            while indent < bytes.count, bytes[start + indent] == Self.space { indent += 1 }
            let insignificant = indent == bytes.count || bytes[start + indent] == Self.hash
            let line = Line(
                number: number, bytes: bytes, indent: indent, isInsignificant: insignificant, isASCII: bytes.allSatisfy { $0 < 0x80 })
            if !insignificant, bytes[start + indent] == Self.tab {
                diagnostics.append(
                    diagnostic(line: number, column: line.column(indent) + 1, text: line.text, "tab character in indentation; indent with spaces"))
            }
            lines.append(line)
            guard let newline else { break }
            start = newline + 1
        }
        if lines.last?.count == 0, lines.count > 1 { lines.removeLast() }
    }

    private func diagnostic(line: Int, column: Int, text: String, _ message: String) -> Diagnostic {
        Diagnostic(at: SourceLocation(file: file, line: line, column: column), message, lineText: text)
    }

    /// An error at byte `column` of `line`.
    private mutating func error(_ line: Line, column: Int, _ message: String) {
        diagnostics.append(diagnostic(line: line.number, column: line.column(column) + 1, text: line.text, message))
    }

    /// The location of byte `column` of `line`.
    private func location(_ line: Line, column: Int) -> SourceLocation {
        SourceLocation(file: file, line: line.number, column: line.column(column) + 1)
    }

    /// Index of the next significant line at or after `from`, or nil.
    private func nextSignificant(from: Int) -> Int? {
        var index = from
        while index < lines.count {
            if !lines[index].isInsignificant { return index }
            index += 1
        }
        return nil
    }

    // MARK: - Blocks

    private mutating func parseDocument() -> Node? {
        guard let first = nextSignificant(from: 0) else {
            diagnostics.append(Diagnostic(at: SourceLocation(file: file, line: 1, column: 1), "the file is empty"))
            return nil
        }
        if lines[first].indent != 0 {
            error(lines[first], column: lines[first].indent, "the first line must not be indented")
        }
        cursor = first
        let node = parseBlock(indent: lines[first].indent, inline: nil)
        if let next = nextSignificant(from: cursor) {
            error(lines[next], column: lines[next].indent, "unexpected indentation")
        }
        return node
    }

    /// Where a block starts in the middle of a line (after `- `).
    private struct InlineStart {
        var line: Int
        var column: Int
    }

    /// Parses a mapping or a list whose entries sit at exactly `indent`.
    private mutating func parseBlock(indent: Int, inline: InlineStart?) -> Node? {
        depth += 1
        defer { depth -= 1 }
        let startLine = inline?.line ?? cursor
        let startColumn = inline?.column ?? lines[cursor].indent
        guard depth <= limits.maximumDepth else {
            error(lines[startLine], column: startColumn, "nesting deeper than \(limits.maximumDepth) levels")
            cursor = lines.count
            return nil
        }
        let characters = lines[startLine]
        let isList =
            characters[startColumn] == UInt8(ascii: "-")
            && (startColumn + 1 == characters.count || characters[startColumn + 1] == UInt8(ascii: " "))
        return isList ? parseList(indent: indent, inline: inline) : parseMapping(indent: indent, inline: inline)
    }

    private mutating func parseList(indent: Int, inline: InlineStart?) -> Node? {
        var items: [Node] = []
        var pending = inline
        let start = location(lines[inline?.line ?? cursor], column: inline?.column ?? indent)
        while true {
            let lineIndex: Int
            let dashColumn: Int
            if let current = pending {
                lineIndex = current.line
                dashColumn = current.column
                pending = nil
            } else {
                guard let next = nextSignificant(from: cursor), lines[next].indent == indent else { break }
                lineIndex = next
                dashColumn = indent
            }
            let line = lines[lineIndex]
            guard line[dashColumn] == UInt8(ascii: "-"),
                dashColumn + 1 == line.count || line[dashColumn + 1] == UInt8(ascii: " ")
            else {
                error(line, column: dashColumn, "expected a list item '- ' at this indentation")
                cursor = lineIndex + 1
                skipMoreIndented(than: indent)
                continue
            }
            cursor = lineIndex + 1
            var contentColumn = dashColumn + 1
            while contentColumn < line.count, line[contentColumn] == UInt8(ascii: " ") { contentColumn += 1 }
            if contentColumn >= line.count || line[contentColumn] == UInt8(ascii: "#") {
                // The item's value is an indented block on the following lines.
                if let next = nextSignificant(from: cursor), lines[next].indent > indent {
                    cursor = next
                    if let node = parseBlock(indent: lines[next].indent, inline: nil) { items.append(node) }
                } else {
                    error(line, column: dashColumn, "list item has no value")
                }
                continue
            }
            if startsMappingEntry(line, at: contentColumn) {
                if let node = parseBlock(indent: contentColumn, inline: InlineStart(line: lineIndex, column: contentColumn)) {
                    items.append(node)
                }
            } else if let node = parseInlineValue(line: lineIndex, column: contentColumn, parentIndent: indent) {
                items.append(node)
            }
        }
        return .sequence(Node.Sequence(items: items, location: start))
    }

    private mutating func parseMapping(indent: Int, inline: InlineStart?) -> Node? {
        var entries: [Node.Mapping.Entry] = []
        var seen: [String: SourceLocation] = [:]
        var pending = inline
        let start = location(lines[inline?.line ?? cursor], column: inline?.column ?? indent)
        while true {
            let lineIndex: Int
            let keyColumn: Int
            if let current = pending {
                lineIndex = current.line
                keyColumn = current.column
                pending = nil
            } else {
                guard let next = nextSignificant(from: cursor), lines[next].indent == indent else { break }
                lineIndex = next
                keyColumn = indent
            }
            cursor = lineIndex + 1
            let line = lines[lineIndex]
            guard let (key, valueColumn) = parseKey(line: line, column: keyColumn) else {
                skipMoreIndented(than: indent)
                continue
            }
            if let first = seen[key.text] {
                error(line, column: keyColumn, "duplicate key '\(key.text)' (first written at line \(first.line))")
                skipMoreIndented(than: indent)
                continue
            }
            seen[key.text] = key.location
            if let value = parseValue(line: lineIndex, column: valueColumn, parentIndent: indent, keyColumn: keyColumn) {
                entries.append(Node.Mapping.Entry(key: key, value: value))
            }
        }
        return .mapping(Node.Mapping(entries: entries, location: start))
    }

    private mutating func skipMoreIndented(than indent: Int) {
        while let next = nextSignificant(from: cursor), lines[next].indent > indent { cursor = next + 1 }
    }

    /// True when the text at `column` reads as `key: ...` (or `"key": ...`).
    private func startsMappingEntry(_ line: Line, at column: Int) -> Bool {
        let characters = line
        var index = column
        if characters[index] == UInt8(ascii: "\"") || characters[index] == UInt8(ascii: "'") {
            let quote = characters[index]
            index += 1
            while index < characters.count {
                if characters[index] == UInt8(ascii: "\\"), quote == UInt8(ascii: "\"") {
                    index += 2
                    continue
                }
                if characters[index] == quote {
                    if quote == UInt8(ascii: "'"), index + 1 < characters.count, characters[index + 1] == UInt8(ascii: "'") {
                        index += 2
                        continue
                    }
                    break
                }
                index += 1
            }
            index += 1
            return index < characters.count && characters[index] == UInt8(ascii: ":")
                && (index + 1 == characters.count || characters[index + 1] == UInt8(ascii: " "))
        }
        if characters[index] == UInt8(ascii: "[") || characters[index] == UInt8(ascii: "{") { return false }
        while index < characters.count {
            if characters[index] == UInt8(ascii: ":"), index + 1 == characters.count || characters[index + 1] == UInt8(ascii: " ") { return true }
            if characters[index] == UInt8(ascii: "#"), index > column, characters[index - 1] == UInt8(ascii: " ") { return false }
            index += 1
        }
        return false
    }

    /// Parses `key:` at `column`; returns the key and the column just after the colon.
    private mutating func parseKey(line: Line, column: Int) -> (Node.Scalar, Int)? {
        let characters = line
        if characters[column] == UInt8(ascii: "-"), column + 1 == characters.count || characters[column + 1] == UInt8(ascii: " ") {
            error(line, column: column, "a list item where a 'key: value' entry was expected")
            return nil
        }
        if characters[column] == UInt8(ascii: "\"") || characters[column] == UInt8(ascii: "'") {
            guard let (text, end) = parseQuoted(line: line, column: column) else { return nil }
            guard end < characters.count, characters[end] == UInt8(ascii: ":"),
                end + 1 == characters.count || characters[end + 1] == UInt8(ascii: " ")
            else {
                error(line, column: end, "expected ':' after the quoted key")
                return nil
            }
            let style: Node.Scalar.Style = characters[column] == UInt8(ascii: "\"") ? .doubleQuoted : .singleQuoted
            return (Node.Scalar(text: text, style: style, location: location(line, column: column)), end + 1)
        }
        var index = column
        while index < characters.count {
            if characters[index] == UInt8(ascii: ":"), index + 1 == characters.count || characters[index + 1] == UInt8(ascii: " ") { break }
            index += 1
        }
        guard index < characters.count else {
            error(line, column: column, "expected 'key: value'")
            return nil
        }
        let key = characters.string(column..<index).trimmingTrailingSpaces()
        if key.isEmpty {
            error(line, column: column, "empty key")
            return nil
        }
        // Braces are allowed only as part of a `${…}` variable, which a table row substitutes into keys.
        let keyBytes = Array(characters.slice(column..<index))
        func isVariableBrace(_ offset: Int) -> Bool {
            let byte = keyBytes[offset]
            if byte == UInt8(ascii: "{") { return offset > 0 && keyBytes[offset - 1] == UInt8(ascii: "$") }
            if byte == UInt8(ascii: "}") {
                return keyBytes[..<offset].lastIndex(of: UInt8(ascii: "{")).map { $0 > 0 && keyBytes[$0 - 1] == UInt8(ascii: "$") } ?? false
            }
            return false
        }
        if let offset = keyBytes.indices.first(where: {
            Self.keyForbidden.contains(keyBytes[$0])
                || ((keyBytes[$0] == UInt8(ascii: "{") || keyBytes[$0] == UInt8(ascii: "}")) && !isVariableBrace($0))
        }) {
            let bad = column + offset
            error(
                line, column: bad,
                "character '\(characters[bad] == Self.tab ? "\\t" : characters.character(at: bad))' is not allowed in a plain key; quote the key")
            return nil
        }
        return (Node.Scalar(text: key, style: .plain, location: location(line, column: column)), index + 1)
    }

    /// Parses the value after `key:` starting at `column` of line `lineIndex`.
    private mutating func parseValue(line lineIndex: Int, column: Int, parentIndent: Int, keyColumn: Int) -> Node? {
        let line = lines[lineIndex]
        var start = column
        while start < line.count, line[start] == UInt8(ascii: " ") { start += 1 }
        if start >= line.count || line[start] == UInt8(ascii: "#") {
            guard let next = nextSignificant(from: cursor), lines[next].indent > parentIndent else {
                if let next = nextSignificant(from: cursor), lines[next].indent == parentIndent,
                    lines[next][parentIndent] == UInt8(ascii: "-")
                {
                    error(lines[next], column: parentIndent, "indent the list items under '\(line.string(keyColumn..<column - 1))'")
                    skipSameIndentListItems(indent: parentIndent)
                    return nil
                }
                error(line, column: max(column - 1, 0), "expected a value after ':'")
                return nil
            }
            cursor = next
            return parseBlock(indent: lines[next].indent, inline: nil)
        }
        return parseInlineValue(line: lineIndex, column: start, parentIndent: parentIndent)
    }

    private mutating func skipSameIndentListItems(indent: Int) {
        while let next = nextSignificant(from: cursor), lines[next].indent >= indent,
            lines[next].indent > indent || lines[next][indent] == UInt8(ascii: "-")
        {
            cursor = next + 1
        }
    }

    /// A value written on the same line: a scalar, a one-line list or a block-string header.
    private mutating func parseInlineValue(line lineIndex: Int, column: Int, parentIndent: Int) -> Node? {
        let line = lines[lineIndex]
        let characters = line
        let here = location(line, column: column)
        let node: Node?
        switch Unicode.Scalar(characters[column]) {
        case "|":
            return parseBlockString(line: lineIndex, column: column, parentIndent: parentIndent)
        case ">":
            error(line, column: column, "folded block strings ('>') are not supported; use '|'")
            node = nil
        case "[":
            node = parseFlowList(line: line, column: column)
        case "{":
            error(line, column: column, "'{...}' mappings are not supported; write the entries as an indented block")
            node = nil
        case "&", "*", "!":
            error(
                line, column: column,
                "anchors, aliases and tags are not supported; quote the value if '\(characters.character(at: column))' is meant literally")
            node = nil
        case "\"", "'":
            if let (text, end) = parseQuoted(line: line, column: column), expectLineEnd(line, from: end) {
                node = .scalar(
                    Node.Scalar(
                        text: text, style: characters[column] == UInt8(ascii: "\"") ? .doubleQuoted : .singleQuoted,
                        location: here))
            } else {
                node = nil
            }
        default:
            node = parsePlain(line: line, column: column).map { .scalar($0) }
        }
        if let next = nextSignificant(from: cursor), lines[next].indent > parentIndent {
            error(lines[next], column: lines[next].indent, "unexpected indentation: the value was already given on line \(line.number)")
            skipMoreIndented(than: parentIndent)
        }
        return node
    }

    private mutating func parsePlain(line: Line, column: Int) -> Node.Scalar? {
        let characters = line
        var end = column
        while end < characters.count {
            if characters[end] == UInt8(ascii: "#"), characters[end - 1] == UInt8(ascii: " ") { break }
            if characters[end] == UInt8(ascii: "\t") {
                error(line, column: end, "tab character in a plain value; quote the value and write \\t")
                return nil
            }
            if characters[end] == UInt8(ascii: ":"), end + 1 < characters.count, characters[end + 1] == UInt8(ascii: " ") {
                error(line, column: end, "': ' inside a plain value; quote the value")
                return nil
            }
            end += 1
        }
        let text = characters.string(column..<end).trimmingTrailingSpaces()
        return Node.Scalar(text: text, style: .plain, location: location(line, column: column))
    }

    /// Requires that only spaces or a comment follow `from`.
    private mutating func expectLineEnd(_ line: Line, from: Int) -> Bool {
        var index = from
        while index < line.count, line[index] == UInt8(ascii: " ") { index += 1 }
        if index == line.count || (line[index] == UInt8(ascii: "#") && index > from) { return true }
        error(line, column: index, "unexpected text after the value")
        return false
    }

    /// Parses a quoted scalar; returns its text and the byte offset after the closing quote.
    private mutating func parseQuoted(line: Line, column: Int) -> (String, Int)? {
        let characters = line
        let quote = characters[column]
        var text: [UInt8] = []
        var index = column + 1
        while index < characters.count {
            let byte = characters[index]
            if quote == Self.singleQuote {
                if byte == Self.singleQuote {
                    if index + 1 < characters.count, characters[index + 1] == Self.singleQuote {
                        text.append(Self.singleQuote)
                        index += 2
                        continue
                    }
                    return (String(decoding: text, as: UTF8.self), index + 1)
                }
                text.append(byte)
                index += 1
                continue
            }
            if byte == Self.doubleQuote { return (String(decoding: text, as: UTF8.self), index + 1) }
            if byte == Self.backslash {
                guard index + 1 < characters.count else { break }
                let escape = characters[index + 1]
                if let replacement = Self.simpleEscapes[escape] {
                    text.append(replacement)
                    index += 2
                    continue
                }
                let width: Int? = escape == UInt8(ascii: "x") ? 2 : escape == UInt8(ascii: "u") ? 4 : escape == UInt8(ascii: "U") ? 8 : nil
                guard let width else {
                    error(line, column: index, "unknown escape '\\\(characters.character(at: index + 1))'")
                    return nil
                }
                let digitsEnd = index + 2 + width
                guard digitsEnd <= characters.count,
                    let value = UInt32(characters.string((index + 2)..<digitsEnd), radix: 16),
                    let scalar = Unicode.Scalar(value)
                else {
                    error(line, column: index, "'\\\(Character(Unicode.Scalar(escape)))' needs \(width) hexadecimal digits naming a Unicode scalar")
                    return nil
                }
                text.append(contentsOf: String(Character(scalar)).utf8)
                index = digitsEnd
                continue
            }
            text.append(byte)
            index += 1
        }
        error(line, column: column, "unterminated quoted string (quoted strings end on the line they start)")
        return nil
    }

    /// The one-character escapes of a double-quoted scalar, by the byte after the backslash.
    private static let simpleEscapes: [UInt8: UInt8] = [
        UInt8(ascii: "\\"): UInt8(ascii: "\\"), UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "/"): UInt8(ascii: "/"),
        UInt8(ascii: "n"): 0x0A, UInt8(ascii: "t"): 0x09, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "0"): 0x00, UInt8(ascii: "a"): 0x07,
        UInt8(ascii: "b"): 0x08, UInt8(ascii: "e"): 0x1B, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "v"): 0x0B, UInt8(ascii: " "): 0x20,
    ]

    private mutating func parseFlowList(line: Line, column: Int) -> Node? {
        let characters = line
        var items: [Node] = []
        var index = column + 1
        func skipSpaces() { while index < characters.count, characters[index] == UInt8(ascii: " ") { index += 1 } }
        skipSpaces()
        if index < characters.count, characters[index] == UInt8(ascii: "]") {
            guard expectLineEnd(line, from: index + 1) else { return nil }
            return .sequence(Node.Sequence(items: [], location: location(line, column: column)))
        }
        while index < characters.count {
            skipSpaces()
            guard index < characters.count else { break }
            let itemStart = index
            if characters[index] == UInt8(ascii: "\"") || characters[index] == UInt8(ascii: "'") {
                guard let (text, end) = parseQuoted(line: line, column: index) else { return nil }
                items.append(
                    .scalar(
                        Node.Scalar(
                            text: text, style: characters[itemStart] == UInt8(ascii: "\"") ? .doubleQuoted : .singleQuoted,
                            location: location(line, column: itemStart))))
                index = end
            } else {
                while index < characters.count, characters[index] != UInt8(ascii: ","), characters[index] != UInt8(ascii: "]") {
                    if Self.flowItemForbidden.contains(characters[index]) {
                        error(
                            line, column: index,
                            "character '\(characters[index] == Self.tab ? "\\t" : characters.character(at: index))' is not allowed in a one-line list item; quote the item"
                        )
                        return nil
                    }
                    index += 1
                }
                let text = characters.string(itemStart..<index).trimmingTrailingSpaces()
                if text.isEmpty {
                    error(line, column: itemStart, "empty item in a one-line list")
                    return nil
                }
                items.append(.scalar(Node.Scalar(text: text, style: .plain, location: location(line, column: itemStart))))
            }
            skipSpaces()
            guard index < characters.count else { break }
            if characters[index] == UInt8(ascii: "]") {
                guard expectLineEnd(line, from: index + 1) else { return nil }
                return .sequence(Node.Sequence(items: items, location: location(line, column: column)))
            }
            guard characters[index] == UInt8(ascii: ",") else {
                error(line, column: index, "expected ',' or ']' in a one-line list")
                return nil
            }
            index += 1
        }
        error(line, column: column, "unterminated one-line list (it must close with ']' on the same line)")
        return nil
    }

    /// Parses `|`, `|-` or `|+` and the more-indented lines after it.
    private mutating func parseBlockString(line lineIndex: Int, column: Int, parentIndent: Int) -> Node? {
        let line = lines[lineIndex]
        let characters = line
        var chomping = Self.space
        var index = column + 1
        if index < characters.count, characters[index] == Self.dash || characters[index] == UInt8(ascii: "+") {
            chomping = characters[index]
            index += 1
        }
        guard expectLineEnd(line, from: index) else { return nil }
        var body: [Line] = []
        var scan = cursor
        while scan < lines.count {
            let candidate = lines[scan]
            if !candidate.isBlank(), candidate.indent <= parentIndent { break }
            body.append(candidate)
            scan += 1
        }
        cursor = scan
        guard let firstText = body.first(where: { !$0.isBlank() }) else {
            error(line, column: column, "a block string needs at least one more-indented line")
            return nil
        }
        let blockIndent = firstText.indent
        var text: [UInt8] = []
        for (number, bodyLine) in body.enumerated() {
            if number > 0 { text.append(0x0A) }
            if bodyLine.isBlank() {
                text += bodyLine.slice(min(blockIndent, bodyLine.count)..<bodyLine.count)
                continue
            }
            if bodyLine.indent < blockIndent {
                error(bodyLine, column: bodyLine.indent, "block string line is indented less than its first line")
                return nil
            }
            if let tab = bodyLine.slice(0..<min(blockIndent + 1, bodyLine.count)).firstIndex(of: Self.tab) {
                error(bodyLine, column: tab - bodyLine.bytes.startIndex, "tab character in indentation; indent with spaces")
                return nil
            }
            text += bodyLine.slice(blockIndent..<bodyLine.count)
        }
        switch chomping {
        case Self.dash:
            while text.last == 0x0A { text.removeLast() }
        case UInt8(ascii: "+"):
            text.append(0x0A)
        default:
            while text.last == 0x0A { text.removeLast() }
            text.append(0x0A)
        }
        return .scalar(Node.Scalar(text: String(decoding: text, as: UTF8.self), style: .block, location: location(line, column: column)))
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
