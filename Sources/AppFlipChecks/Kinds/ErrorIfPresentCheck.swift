import AppFlipBase
import AppFlipModel
import AppFlipSyntax

/// `error_if_present: [CODES]`: an error vocabulary. When the answer carries an error, it is one of the codes;
/// when it carries none (a code instead, or nothing opened), the check does not apply, so a probe graded at a
/// lower level in the same case is never turned into a failure of the vocabulary requirement.
package struct ErrorIfPresentCheck: CheckKind {
    package static let key = "error_if_present"
    package static let documentation = CheckDocumentation(
        .answer, values: "a code or `[codes]`",
        holdsWhen: "if the opened URL carries `error`, there is exactly one and it is one of the codes; not applicable when it carries none")

    package var allowed: Set<String>

    package static func read(_ node: Node, reader: inout NodeReader) -> [ErrorIfPresentCheck]? {
        guard let values = reader.scalarList(node, "'error_if_present'") else { return nil }
        for value in values where value.text.isEmpty || value.text == "absent" {
            reader.error(at: value.location, "'error_if_present' takes one error code or a list of error codes")
        }
        return values.isEmpty ? nil : [ErrorIfPresentCheck(allowed: Set(values.map(\.text)))]
    }

    package var scope: CheckScope { .openedURL }

    package static var openedURLForm: String? { "`error_if_present`" }

    package func expected(in context: Template.Context) -> String {
        "any error is one of \(allowed.sorted().joined(separator: ", "))"
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        let errors = context.openedParameters(of: observation).all(named: "error")
        guard !errors.isEmpty else { return .notApplicable(reason: "the answer carries no error") }
        guard errors.count == 1 else { return .violated(observed: "\(errors.count) error parameters") }
        let value = errors[0].value ?? []
        return CheckOutcome(allowed.contains(String(validating: value, as: UTF8.self) ?? ""), "error=\(ByteText.display(value))")
    }
}
