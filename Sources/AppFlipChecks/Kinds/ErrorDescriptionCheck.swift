import AppFlipBase
import AppFlipModel
import AppFlipSyntax

/// `error_description: rfc6749-charset`: a description, when present, uses only RFC 6749's characters.
package struct ErrorDescriptionCheck: CheckKind {
    package static let key = "error_description"
    package static let documentation = CheckDocumentation(
        .answer, values: "`rfc6749-charset`", holdsWhen: "if present, its decoded bytes are in %x20-21 / %x23-5B / %x5D-7E")

    package enum Rule: String, Sendable, Hashable, CaseIterable {
        case rfc6749Charset = "rfc6749-charset"
    }

    package var rule: Rule

    package static func read(_ node: Node, reader: inout NodeReader) -> [ErrorDescriptionCheck]? {
        reader.enumValue(node, "error_description expectation", as: Rule.self).map { [ErrorDescriptionCheck(rule: $0)] }
    }

    package var scope: CheckScope { .openedURL }

    package static var openedURLForm: String? { "`error_description`" }

    package func expected(in context: Template.Context) -> String {
        "error_description, if present, only in %x20-21 / %x23-5B / %x5D-7E"
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard let description = context.openedParameters(of: observation).all(named: "error_description").first else {
            return .held(observed: "no error_description")
        }
        guard let value = description.value else { return .violated(observed: "error_description has an invalid percent-escape") }
        let allowed: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
        return CheckOutcome(value.allSatisfy(allowed), "error_description=\(ByteText.display(value))")
    }
}
