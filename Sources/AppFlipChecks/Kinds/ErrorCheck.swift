import AppFlipBase
import AppFlipModel
import AppFlipSyntax

/// `error: absent | CODE | [CODES]`: the `error` parameter of the opened URL.
package struct ErrorCheck: CheckKind {
    package static let key = "error"
    package static let documentation = CheckDocumentation(
        .answer, values: "`absent`, a code, or `[codes]`",
        holdsWhen: "no `error` (also when nothing was opened) / exactly one `error` equal to (one of) the code(s), case-sensitive")

    /// Nil for `absent`.
    package var allowed: Set<String>?

    package static func read(_ node: Node, reader: inout NodeReader) -> [ErrorCheck]? {
        guard let values = reader.scalarList(node, "'error'") else { return nil }
        if values.count == 1, values[0].text == "absent" { return [ErrorCheck(allowed: nil)] }
        for value in values where value.text.isEmpty || value.text == "absent" {
            reader.error(at: value.location, "'error' takes 'absent', one error code, or a list of error codes")
        }
        return values.isEmpty ? nil : [ErrorCheck(allowed: Set(values.map(\.text)))]
    }

    package var scope: CheckScope { allowed == nil ? .answer : .openedURL }

    package static var openedURLForm: String? { "an error code (`error: CODES`)" }

    package func expected(in context: Template.Context) -> String {
        guard let allowed else { return "no error" }
        return allowed.count == 1 ? "error=\(allowed.sorted()[0])" : "error one of \(allowed.sorted().joined(separator: ", "))"
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard observation.openedURL != nil else { return .held(observed: "\(observation.nothingOpenedText), so no error") }
        let errors = context.openedParameters(of: observation).all(named: "error")
        guard let allowed else {
            return CheckOutcome(
                errors.isEmpty, errors.isEmpty ? "no error" : "error \(errors.map { ByteText.display($0.value ?? []) }.joined(separator: ", "))")
        }
        guard errors.count == 1 else { return .violated(observed: errors.isEmpty ? "no error parameter" : "\(errors.count) error parameters") }
        let value = errors[0].value ?? []
        return CheckOutcome(allowed.contains(String(validating: value, as: UTF8.self) ?? ""), "error=\(ByteText.display(value))")
    }
}
