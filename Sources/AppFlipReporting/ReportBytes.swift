/// A piece of a report being written, held by its writer and handed to the sink whole (`ReportSink.take`): one test
/// case, one case's section. Appending to a writer's own bytes takes none of the exclusivity checks each access to a
/// class's stored property takes (a sink's buffer), which cost more than the few bytes each append writes.
package struct ReportBytes {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    /// The suite's own text, as it is (`append` would take a literal as a `String`).
    package mutating func appendLiteral(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    package mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// `text` escaped as XML text content (`XMLText.text`).
    package mutating func appendXMLText(_ text: String) {
        XMLText.append(text, attribute: false, to: &bytes)
    }

    /// `text` escaped as an XML attribute value (`XMLText.attribute`).
    package mutating func appendXMLAttribute(_ text: String) {
        XMLText.append(text, attribute: true, to: &bytes)
    }

    /// Lets `body` append to the bytes directly (a writer that composes its own bytes).
    mutating func withBytes(_ body: (inout [UInt8]) -> Void) {
        body(&bytes)
    }

    /// Empties it, keeping its capacity for the next piece.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }
}
