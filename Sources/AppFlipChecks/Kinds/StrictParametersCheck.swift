import AppFlipBase
import AppFlipModel
import AppFlipSyntax

/// `params: strict`: the result carries only what a result may carry, validly encoded, nothing repeated.
package struct StrictParametersCheck: CheckKind {
    package static let key = "params"
    package static let documentation = CheckDocumentation(
        .answer, values: "`strict`",
        holdsWhen:
            "the query is validly encoded; it has `code` (+`state`, `iss`) or `error` (+`error_description`, `state`, `iss`) and nothing else, none repeated"
    )

    package enum Rule: String, Sendable, Hashable, CaseIterable {
        case strict
    }

    package var rule: Rule

    package static func read(_ node: Node, reader: inout NodeReader) -> [StrictParametersCheck]? {
        reader.enumValue(node, "params expectation", as: Rule.self).map { [StrictParametersCheck(rule: $0)] }
    }

    package var scope: CheckScope { .openedURL }

    package static var openedURLForm: String? { "`params`" }

    package func expected(in context: Template.Context) -> String {
        "only code+state or error(+error_description)+state (iss allowed), none repeated, all encoded"
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        let parts = URLParts(observation.openedURL ?? "")
        let parameters = context.openedParameters(of: observation)
        var problems: [String] = []
        if !parts.queryIsURISafe { problems.append("the query has characters that must be percent-encoded") }
        let names = parameters.map { $0.nameText ?? "(undecodable)" }
        if parameters.contains(where: { $0.value == nil || $0.name == nil }) {
            problems.append("a parameter has an invalid percent-escape")
        }
        let hasCode = names.contains("code")
        let hasError = names.contains("error")
        let allowed: Set<String>
        switch (hasCode, hasError) {
        case (true, true):
            problems.append("both code and error")
            allowed = ["code", "error", "error_description", "state", "iss"]
        case (true, false):
            allowed = ["code", "state", "iss"]
        case (false, true):
            allowed = ["error", "error_description", "state", "iss"]
        case (false, false):
            problems.append("neither code nor error")
            allowed = []
        }
        var counts: [String: Int] = [:]
        for name in names { counts[name, default: 0] += 1 }
        let unexpected = counts.keys.filter { !allowed.contains($0) }.sorted()
        if !unexpected.isEmpty, hasCode || hasError { problems.append("unexpected parameter(s): \(unexpected.joined(separator: ", "))") }
        let repeated = counts.filter { $0.value > 1 }.keys.sorted()
        if !repeated.isEmpty { problems.append("repeated parameter(s): \(repeated.joined(separator: ", "))") }
        let listed = "parameters: \(names.joined(separator: ", "))"
        return CheckOutcome(problems.isEmpty, problems.isEmpty ? listed : problems.joined(separator: "; ") + " (\(listed))")
    }
}
