import AppFlipBase
import AppFlipModel
import AppFlipSyntax

/// `body_excludes: TEXT`: the body does not contain the text verbatim (an echoed value left unescaped).
package struct BodyExcludesCheck: HTTPResponseCheck {
    package static let key = "body_excludes"
    package static let documentation = CheckDocumentation(
        .response, values: "text", holdsWhen: "the body does not contain the text verbatim (an echoed value left unescaped)")

    package var text: Template

    package static func read(_ node: Node, reader: inout NodeReader) -> [BodyExcludesCheck]? {
        guard let scalar = reader.scalar(node, "'body_excludes'"), let template = reader.template(scalar) else { return nil }
        guard !scalar.text.isEmpty else {
            reader.error(at: scalar.location, "'body_excludes' needs the text to look for")
            return nil
        }
        return [BodyExcludesCheck(text: template)]
    }

    package var scope: CheckScope { .response }

    package func expected(in context: Template.Context) -> String {
        "the body does not contain \(ByteText.display(text.resolve(in: context), limit: 60)) unescaped"
    }

    package func evaluate(_ response: HTTPObservation, in context: Template.Context) -> CheckOutcome {
        let needle = Array(text.resolve(in: context).utf8)
        let present = !needle.isEmpty && Self.contains(response.body, needle)
        return CheckOutcome(!present, present ? "the body contains it verbatim" : "not present verbatim")
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return false }
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
