import AppFlipModel
import AppFlipSyntax

/// `body_at_most: N`: the response body is no larger than N bytes.
package struct BodyAtMostCheck: HTTPResponseCheck {
    package static let key = "body_at_most"
    package static let documentation = CheckDocumentation(.response, values: "bytes", holdsWhen: "the body is no larger")

    package var limit: Int

    package static func read(_ node: Node, reader: inout NodeReader) -> [BodyAtMostCheck]? {
        guard let scalar = reader.scalar(node, "'body_at_most'") else { return nil }
        guard let limit = Int(scalar.text), limit >= 0 else {
            reader.error(at: scalar.location, "'body_at_most' takes a number of bytes")
            return nil
        }
        return [BodyAtMostCheck(limit: limit)]
    }

    package var scope: CheckScope { .response }

    package func expected(in context: Template.Context) -> String { "body at most \(limit) bytes" }

    package func evaluate(_ response: HTTPObservation, in context: Template.Context) -> CheckOutcome {
        return CheckOutcome(response.body.count <= limit, "\(response.body.count) body bytes")
    }
}
