import AppFlipBase
import AppFlipModel

/// JSON written straight into a report sink, laid out as Foundation's `JSONEncoder` lays out `.prettyPrinted`
/// output (two-space indent, `"key" : value`, an empty container as its brackets around a blank line), so
/// results.json keeps its shape without building the document in memory first. The caller writes members in the
/// order it wants them: results.json's writer writes them sorted, as the schema's documents always were.
package struct PrettyJSON: ~Copyable {
    package let sink: ReportSink
    /// What is written and not yet handed to the sink: the writer's own bytes, appended to without the exclusivity
    /// check every access to a class's stored property takes (a sink's buffer), which cost more than the bytes.
    private var output = ByteBuffer(capacity: 1 << 14)
    private var depth = 0
    /// Whether the container being written has no member yet.
    private var empty = true

    package init(into sink: ReportSink) {
        self.sink = sink
    }

    /// Hands what is written to the sink, which writes it out once it holds enough: after each case, and at the end.
    package mutating func flush() {
        output.withUnsafeBytes { sink.buffer.append(contentsOf: $0) }
        output.removeAll()
        sink.flushIfFull()
    }

    package mutating func openObject() { open(0x7B) }
    package mutating func closeObject() { close(0x7D) }
    package mutating func openArray() { open(0x5B) }
    package mutating func closeArray() { close(0x5D) }

    /// Starts a member of the object being written: `"key" : `. The suite's own keys need no escape.
    package mutating func key(_ name: StaticString) {
        separate()
        output.append(0x22)
        output.append(name)
        output.append(Self.keyEnd)
    }

    /// Starts a member whose key is data (a verdict counted), escaped as a string is.
    package mutating func key(escaping name: String) {
        separate()
        JSONText.appendString(name, to: &output)
        output.append(" : ")
    }

    private static let keyEnd: StaticString = "\" : "

    /// The line feed that ends the document.
    package mutating func newline() { output.append(0x0A) }

    /// Starts an element of the array being written.
    package mutating func element() { separate() }

    package mutating func string(_ value: String) { JSONText.appendString(value, to: &output) }
    package mutating func int<Number: BinaryInteger>(_ value: Number) { output.append(utf8: String(value)) }
    package mutating func bool(_ value: Bool) { output.append(value ? "true" : "false") }

    /// A number as `JSONEncoder` writes a `Double`: its shortest form, without a trailing `.0`. A value JSON cannot
    /// hold (infinite or NaN; no duration is) is written as 0.
    package mutating func double(_ value: Double) {
        guard value.isFinite else { return output.append(0x30) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        output.append(utf8: text)
    }

    /// `"key" : "value"`, or nothing when `value` is nil (an absent optional member is left out).
    package mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    package mutating func member(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    package mutating func member(_ name: StaticString, _ value: Int) {
        key(name)
        int(value)
    }

    package mutating func member(_ name: StaticString, strings values: [String]) {
        key(name)
        openArray()
        for value in values {
            element()
            string(value)
        }
        closeArray()
    }

    private mutating func open(_ bracket: UInt8) {
        output.append(bracket)
        output.append(0x0A)
        depth += 1
        empty = true
    }

    private mutating func close(_ bracket: UInt8) {
        output.append(0x0A)
        depth -= 1
        indent()
        output.append(bracket)
        empty = false
    }

    /// Ends the member before (`,` and a line feed) unless this is the container's first, and indents: one copy
    /// from `separators`, which every member and element of results.json starts with.
    private mutating func separate() {
        let width = depth * 2
        let start = empty ? 2 : 0
        empty = false
        if width <= Self.separators.utf8CodeUnitCount - 2 {
            output.append(UnsafeBufferPointer(start: Self.separators.utf8Start + start, count: 2 + width - start))
        } else {
            if start == 0 { output.append(",\n") }
            spaces(width)
        }
    }

    private mutating func indent() {
        let width = depth * 2
        if width <= Self.separators.utf8CodeUnitCount - 2 {
            output.append(UnsafeBufferPointer(start: Self.separators.utf8Start + 2, count: width))
        } else {
            spaces(width)
        }
    }

    private mutating func spaces(_ width: Int) {
        for _ in 0..<width { output.append(0x20) }
    }

    /// `,` and a line feed, then the spaces of the deepest indent written from here.
    private static let separators: StaticString = ",\n                                "
}
