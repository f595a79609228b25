import AppFlipBase
import AppFlipModel

/// A piece of a report being written, held by its writer and handed to the sink whole (`ReportSink.take`): one test
/// case, one case's section. Appending to a writer's own bytes takes none of the exclusivity checks each access to a
/// class's stored property takes (a sink's buffer), which cost more than the few bytes each append writes.
package struct ReportBytes: ~Copyable {
    package private(set) var bytes = ByteBuffer(capacity: 1 << 12)

    package init() {}

    /// The suite's own text, as it is (`append` would take a literal as a `String`).
    package mutating func appendLiteral(_ text: StaticString) {
        bytes.append(text)
    }

    package mutating func append(_ text: String) {
        bytes.append(utf8: text)
    }

    /// `text` escaped as XML text content (`XMLText.text`).
    package mutating func appendXMLText(_ text: String) {
        XMLText.append(text, attribute: false, to: &bytes)
    }

    /// `text` escaped as an XML attribute value (`XMLText.attribute`).
    package mutating func appendXMLAttribute(_ text: String) {
        XMLText.append(text, attribute: true, to: &bytes)
    }

    /// A requirement as its `description` reads (`AF-LINK-002 MUST`), escaped as text or as an attribute value.
    package mutating func appendXMLRequirement(_ reference: RequirementReference, attribute: Bool) {
        XMLText.append(reference.id, attribute: attribute, to: &bytes)
        bytes.append(0x20)
        // A level's name is the suite's own plain text: nothing in it to escape.
        bytes.append(utf8: reference.level.rawValue)
    }

    /// Lets `body` append to the bytes directly (a writer that composes its own bytes).
    mutating func withBytes(_ body: (inout ByteBuffer) -> Void) {
        body(&bytes)
    }

    /// Empties it, keeping its capacity for the next piece.
    mutating func removeAll() {
        bytes.removeAll()
    }
}
