import AppFlipModel
import AppFlipSyntax

/// `status: 302 | 4xx | [codes and classes]`: the response status.
package struct StatusCheck: HTTPResponseCheck {
    package static let key = "status"
    package static let documentation = CheckDocumentation(.response, values: "`302`, `4xx`, or a list", holdsWhen: "the status is one of them")

    package var codes: Set<Int>
    /// Whole classes: 2 for 2xx, 4 for 4xx.
    package var classes: Set<Int>

    package static func read(_ node: Node, reader: inout NodeReader) -> [StatusCheck]? {
        guard let values = reader.scalarList(node, "'status'") else { return nil }
        var check = StatusCheck(codes: [], classes: [])
        for value in values {
            let text = value.text.lowercased()
            if text.count == 3, text.hasSuffix("xx"), let digit = Int(text.prefix(1)), (1...5).contains(digit) {
                check.classes.insert(digit)
            } else if let code = Int(text), (100...599).contains(code) {
                check.codes.insert(code)
            } else {
                reader.error(at: value.location, "a status is a code such as 302 or a class such as 4xx")
                return nil
            }
        }
        return check.codes.isEmpty && check.classes.isEmpty ? nil : [check]
    }

    package var scope: CheckScope { .response }

    package var traits: CheckTraits { CheckTraits(judgesStatus: true) }

    package func matches(_ status: Int) -> Bool { codes.contains(status) || classes.contains(status / 100) }

    package func expected(in context: Template.Context) -> String {
        "HTTP status " + (codes.sorted().map(String.init) + classes.sorted().map { "\($0)xx" }).joined(separator: " or ")
    }

    package func evaluate(_ response: HTTPObservation, in context: Template.Context) -> CheckOutcome {
        return CheckOutcome(matches(response.status), "HTTP \(response.status)")
    }
}
