import AppFlipSyntax
import AppFlipTestSupport
import Testing

@Suite("Parser")
struct ParserTests {
    private func parse(_ text: String) throws -> Node {
        try Parser.parse(text, file: "t.case")
    }

    private func mapping(_ node: Node) -> Node.Mapping? {
        if case .mapping(let mapping) = node { return mapping }
        return nil
    }

    private func text(_ node: Node?) -> String? {
        if case .scalar(let scalar)? = node { return scalar.text }
        return nil
    }

    @Test("Nested mappings, lists, quoted scalars and comments parse into the right tree")
    func parsesStructure() throws {
        let node = try parse(
            """
            # a comment
            id: a/b   # trailing comment
            title: "quoted \\"x\\" \\u00E9 \\n"
            single: 'it''s'
            link:
              set:
                state: a#b
              remove: [client_id, "scope"]
            checks:
              - requirement: AF-LINK-001 MUST
                expect:
                  action: open
              - plain item
            """)
        let root = try #require(mapping(node))
        #expect(text(root["id"]) == "a/b")
        #expect(text(root["title"]) == "quoted \"x\" é \n")
        #expect(text(root["single"]) == "it's")
        let link = try #require(root["link"].flatMap(mapping))
        #expect(text(link["set"].flatMap(mapping)?["state"]) == "a#b")
        guard case .sequence(let removed)? = link["remove"] else {
            Issue.record("remove is not a list")
            return
        }
        #expect(removed.items.compactMap { text($0) } == ["client_id", "scope"])
        guard case .sequence(let checks)? = root["checks"] else {
            Issue.record("checks is not a list")
            return
        }
        #expect(checks.items.count == 2)
        #expect(text(checks.items.first.flatMap(mapping)?["requirement"]) == "AF-LINK-001 MUST")
        #expect(text(checks.items.last) == "plain item")
    }

    @Test("CR LF line endings parse like LF, with the same line numbers")
    func crlf() throws {
        let root = try #require(mapping(try parse("a: 1\r\nb:\r\n  c: two words\r\n")))
        #expect(text(root["a"]) == "1")
        let inner = try #require(root["b"].flatMap(mapping))
        #expect(text(inner["c"]) == "two words")
        #expect(inner.entries.first?.key.location.line == 3)
    }

    @Test("Block strings keep lines and honour chomping")
    func blockStrings() throws {
        let root = try #require(mapping(try parse("a: |\n  one\n    two\n\n  three\nb: |-\n  x\nc: |+\n  y\n")))
        #expect(text(root["a"]) == "one\n  two\n\nthree\n")
        #expect(text(root["b"]) == "x")
        #expect(text(root["c"]) == "y\n")
    }

    @Test("A location after non-ASCII text counts characters, as an editor does, and values keep every byte")
    func nonASCIILocations() throws {
        let root = try #require(mapping(try parse("clé: \"日本\"\ne\u{301}: 😀 x\n")))
        let entries = root.entries
        #expect(entries.map(\.key.text) == ["clé", "e\u{301}"])
        #expect(entries[0].value.location.column == 6)
        #expect(entries[1].value.location.column == 4)
        #expect(text(entries[1].value) == "😀 x")
        #expect(text(entries[0].value) == "日本")
    }

    @Test("Locations are 1-based lines and columns")
    func locations() throws {
        let root = try #require(mapping(try parse("a:\n  bb: value\n")))
        let inner = try #require(root["a"].flatMap(mapping))
        let entry = try #require(inner.entries.first)
        #expect(entry.key.location.line == 2)
        #expect(entry.key.location.column == 3)
        #expect(entry.value.location.column == 7)
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var marked: String
        var message: String
        var testDescription: String { message }
    }

    static let badInputs: [Bad] = [
        Bad(marked: "a: 1\n1️⃣\tb: 2\n", message: "tab character in indentation"),
        Bad(marked: "a: 1\n1️⃣a: 2\n", message: "duplicate key 'a' (first written at line 1)"),
        Bad(marked: "a: 1️⃣\"open\n", message: "unterminated quoted string"),
        Bad(marked: "a: \"x1️⃣\\q\"\n", message: "unknown escape '\\q'"),
        Bad(marked: "a: 1\n  1️⃣b: 2\n", message: "unexpected indentation"),
        Bad(marked: "a: 1️⃣{b: 1}\n", message: "'{...}' mappings are not supported"),
        Bad(marked: "a: 1️⃣&anchor x\n", message: "anchors, aliases and tags are not supported"),
        Bad(marked: "a1️⃣:\nb: 2\n", message: "expected a value after ':'"),
        Bad(marked: "a: b1️⃣: c\n", message: "': ' inside a plain value; quote the value"),
        Bad(marked: "a: 1️⃣[x, y\n", message: "unterminated one-line list"),
        Bad(marked: "a: \"x\" 1️⃣tail\n", message: "unexpected text after the value"),
        Bad(marked: " 1️⃣a: 1\n", message: "the first line must not be indented"),
        Bad(marked: "a:\n1️⃣- x\n", message: "indent the list items under 'a'"),
        Bad(marked: "1️⃣# only a comment\n", message: "the file is empty"),
        Bad(marked: "a: 1️⃣>\n  folded\n", message: "folded block strings ('>') are not supported"),
        Bad(marked: "list:\n  - a\n  1️⃣b: c\n", message: "expected a list item '- ' at this indentation"),
        // Columns count characters, not bytes: what comes before the mark is two- and four-byte UTF-8, and a letter with a
        // combining accent (one character of two scalars).
        Bad(marked: "é: \"日本 x1️⃣\\q\"\n", message: "unknown escape '\\q'"),
        Bad(marked: "clé: a😀b1️⃣: c\n", message: "': ' inside a plain value"),
        Bad(marked: "e\u{301}: 1️⃣[x, y\n", message: "unterminated one-line list"),
        Bad(marked: "a: \"ü\" 1️⃣tail\n", message: "unexpected text after the value"),
        Bad(marked: "ke\u{2603}y1️⃣#: 1\n", message: "character '#' is not allowed in a plain key"),
        Bad(marked: "a: [x, b1️⃣#c]\n", message: "character '#' is not allowed in a one-line list item"),
        Bad(marked: "a: \"x1️⃣\\é\"\n", message: "unknown escape '\\é'"),
    ]

    @Test("Each malformed input gets one diagnostic at the marked place", arguments: badInputs)
    func diagnostics(_ bad: Bad) {
        let marked = MarkedText(bad.marked)
        do {
            _ = try Parser.parse(marked.text, file: "t.case")
            Issue.record("parsed without an error")
        } catch {
            let first = error.diagnostics.first
            #expect(first?.message.contains(bad.message) == true, "got: \(error)")
            #expect(first?.location.line == marked.line, "got: \(error)")
            #expect(first?.location.column == marked.column, "got: \(error)")
        }
    }

    @Test("A diagnostic prints like a compiler, with the line and a caret under the column")
    func diagnosticRendering() {
        let diagnostic = Diagnostic(
            at: SourceLocation(file: "x.case", line: 12, column: 5), "unknown key 'expct'",
            lineText: "    expct:")
        #expect(diagnostic.description == "x.case:12:5: error: unknown key 'expct'\n        expct:\n        ^")
    }

    @Test("Invalid UTF-8 is reported at its line and column")
    func invalidUTF8() {
        do {
            _ = try Parser.parse(bytes: Array("a: 1\nb: x".utf8) + [0xFF] + Array("\n".utf8), file: "t.case")
            Issue.record("parsed without an error")
        } catch {
            #expect(error.diagnostics.first?.location.line == 2)
            #expect(error.diagnostics.first?.location.column == 5)
            #expect(error.diagnostics.first?.message.contains("invalid UTF-8") == true)
        }
    }

    @Test("Nesting beyond the limit is refused instead of recursing without bound")
    func depthLimit() {
        var text = ""
        for depth in 0..<40 { text += String(repeating: "  ", count: depth) + "k\(depth):\n" }
        text += String(repeating: "  ", count: 40) + "leaf: 1\n"
        #expect(throws: DiagnosticList.self) { try Parser.parse(text, file: "deep.case") }
    }

    @Test("A file over the size limit is refused before parsing")
    func sizeLimit() {
        let text = "a: " + String(repeating: "x", count: 2000) + "\n"
        #expect(throws: DiagnosticList.self) { try Parser.parse(text, file: "big.case", limits: Parser.Limits(maximumBytes: 1000)) }
    }
}
