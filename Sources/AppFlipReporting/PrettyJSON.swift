import AppFlipBase
import AppFlipModel

/// JSON written straight into a report sink, laid out as Foundation's `JSONEncoder` lays out `.prettyPrinted`
/// output (two-space indent, `"key" : value`, an empty container as its brackets around a blank line), so
/// results.json keeps its shape without building the document in memory first. The caller writes members in the
/// order it wants them: results.json's writer writes them sorted, as the schema's documents always were.
package struct PrettyJSON {
    package let sink: ReportSink
    private var depth = 0
    /// Whether the container being written has no member yet.
    private var empty = true

    package init(into sink: ReportSink) {
        self.sink = sink
    }

    package mutating func openObject() { open(0x7B) }
    package mutating func closeObject() { close(0x7D) }
    package mutating func openArray() { open(0x5B) }
    package mutating func closeArray() { close(0x5D) }

    /// Starts a member of the object being written: `"key" : `.
    package mutating func key(_ name: String) {
        separate()
        JSONText.appendString(name, to: &sink.buffer)
        sink.buffer.append(contentsOf: [0x20, 0x3A, 0x20])
    }

    /// Starts an element of the array being written.
    package mutating func element() { separate() }

    package func string(_ value: String) { JSONText.appendString(value, to: &sink.buffer) }
    package func int<Number: BinaryInteger>(_ value: Number) { sink.buffer.append(contentsOf: String(value).utf8) }
    package func bool(_ value: Bool) { sink.buffer.append(contentsOf: (value ? "true" : "false").utf8) }

    /// A number as `JSONEncoder` writes a `Double`: its shortest form, without a trailing `.0`. A value JSON cannot
    /// hold (infinite or NaN; no duration is) is written as 0.
    package func double(_ value: Double) {
        guard value.isFinite else { return sink.buffer.append(0x30) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        sink.buffer.append(contentsOf: text.utf8)
    }

    /// `"key" : "value"`, or nothing when `value` is nil (an absent optional member is left out).
    package mutating func member(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    package mutating func member(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    package mutating func member(_ name: String, _ value: Int) {
        key(name)
        int(value)
    }

    package mutating func member(_ name: String, strings values: [String]) {
        key(name)
        openArray()
        for value in values {
            element()
            string(value)
        }
        closeArray()
    }

    private mutating func open(_ bracket: UInt8) {
        sink.buffer.append(bracket)
        sink.buffer.append(0x0A)
        depth += 1
        empty = true
    }

    private mutating func close(_ bracket: UInt8) {
        sink.buffer.append(0x0A)
        depth -= 1
        indent()
        sink.buffer.append(bracket)
        empty = false
    }

    private mutating func separate() {
        if !empty { sink.buffer.append(contentsOf: [0x2C, 0x0A]) }
        empty = false
        indent()
    }

    private func indent() {
        sink.buffer.append(contentsOf: repeatElement(0x20, count: depth * 2))
    }
}
