import AppFlipModel
import AppFlipSyntax

/// `plain_http: refused`: the plain-http form of an https endpoint serves nothing. A refused or dropped connection,
/// a redirect to an https URL, or an error page without tokens passes; a 2xx (a sign-in page, tokens) or a redirect
/// anywhere but https fails. Used with `scheme: http` on a request step, which sends no secret.
package struct PlainHTTPCheck: CheckKind {
    package static let key = "plain_http"
    package static let documentation = CheckDocumentation(
        .response, values: "`refused`",
        holdsWhen:
            "on a `scheme: http` probe: no connection, a redirect to an `https:` URL, or a 4xx/5xx without tokens; never a 2xx or a redirect elsewhere"
    )

    package static func read(_ node: Node, reader: inout NodeReader) -> [PlainHTTPCheck]? {
        reader.keyword(node, key, "refused") ? [PlainHTTPCheck()] : nil
    }

    package var scope: CheckScope { .transport }

    package var traits: CheckTraits { CheckTraits(transportProbe: .plainHTTP) }

    package func expected(in context: Template.Context) -> String {
        "plain http serves nothing: no connection, a redirect to https, or an error without tokens"
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        switch observation {
        case .link:
            return .notApplicable(reason: "a link handler's answer has no transport to judge")
        case .handshake:
            return .notApplicable(reason: "a TLS probe is not a plain-http request")
        case .unreachable:
            return .held(observed: observation.summary)
        case .http(let response):
            if (300...399).contains(response.status) {
                let location = response.header("Location") ?? ""
                return CheckOutcome(location.lowercased().hasPrefix("https://"), observation.summary)
            }
            let tokens = response.bodyText.contains("access_token")
            return CheckOutcome(response.status >= 400 && !tokens, observation.summary + (tokens ? ", with tokens" : ""))
        default:  // an app's step a contract drives: its observation names it
            return .notApplicable(reason: "\(observation.appResultNoun ?? "the step") is not a plain-http request")
        }
    }
}
