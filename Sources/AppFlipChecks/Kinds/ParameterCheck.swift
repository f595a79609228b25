import AppFlipBase
import AppFlipModel
import AppFlipSyntax

/// `param: {NAME: VALUE}`: the opened URL carries exactly one NAME whose once-decoded value is VALUE.
package struct ParameterCheck: CheckKind {
    package static let key = "param"
    package static let documentation = CheckDocumentation(
        .answer, values: "`{name: value}`",
        holdsWhen: "exactly one parameter of that name, whose once-decoded value is the value (usually `${captured.…}`)")

    package var name: String
    package var value: Template

    package static func read(_ node: Node, reader: inout NodeReader) -> [ParameterCheck]? {
        guard let mapping = reader.mapping(node, "'param'") else { return nil }
        var result: [ParameterCheck] = []
        for entry in mapping.entries {
            guard let scalar = reader.scalar(entry.value, "the value of '\(entry.key.text)'"), let template = reader.template(scalar) else {
                return nil
            }
            result.append(ParameterCheck(name: entry.key.text, value: template))
        }
        return result
    }

    package var scope: CheckScope { .openedURL }

    package static var openedURLForm: String? { "`param`" }

    package func expected(in context: Template.Context) -> String {
        "\(name)=\(ByteText.display(value.resolve(in: context)))"
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        let found = context.openedParameters(of: observation).all(named: name)
        guard found.count == 1 else { return .violated(observed: found.isEmpty ? "no \(name) parameter" : "\(found.count) \(name) parameters") }
        let actual = found[0].value ?? []
        return CheckOutcome(actual == Array(value.resolve(in: context).utf8), "\(name)=\(ByteText.display(actual))")
    }
}
