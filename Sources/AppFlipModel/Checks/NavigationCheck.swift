import AppFlipSyntax
import Foundation

/// `navigation: none`: the response sends the browser nowhere: no Location, no meta refresh, no navigating script.
package struct NavigationCheck: Check {
    package static let key = "navigation"
    package static let documentation = CheckDocumentation(
        .response, values: "`none`", holdsWhen: "no Location header, no meta refresh, no script in the page that navigates")

    package static func read(_ node: Node, reader: inout NodeReader) -> [NavigationCheck]? {
        reader.keyword(node, key, "none") ? [NavigationCheck()] : nil
    }

    package var scope: CheckScope { .response }

    package func expected(in context: Template.Context) -> String {
        "no redirect of any kind: no Location, no meta refresh, no script navigation"
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard case .http(let response) = observation else { return .notApplicable(reason: "not an HTTP response") }
        var found: [String] = []
        if let location = response.header("Location") { found.append("Location: \(Redaction.redact(url: location))") }
        let lower = response.bodyText.lowercased()
        if lower.range(of: #"http-equiv\s*=\s*["']?refresh"#, options: .regularExpression) != nil { found.append("a meta refresh") }
        for script in Self.scripts(in: lower) where script.range(
            of: #"(location\s*(\.href\s*)?=|location\.(replace|assign)\s*\(|window\.open\s*\(|\.submit\s*\()"#,
            options: .regularExpression) != nil {
            found.append("a script that navigates")
            break
        }
        return CheckOutcome(found.isEmpty, found.isEmpty ? "HTTP \(response.status), no navigation" : found.joined(separator: "; "))
    }

    /// The contents of each `<script>` element.
    private static func scripts(in lowercasedBody: String) -> [Substring] {
        var result: [Substring] = []
        var rest = Substring(lowercasedBody)
        while let open = rest.range(of: "<script") {
            guard let end = rest[open.upperBound...].range(of: "</script") else {
                result.append(rest[open.upperBound...])
                break
            }
            result.append(rest[open.upperBound..<end.lowerBound])
            rest = rest[end.upperBound...]
        }
        return result
    }
}
