import AppFlipModel
import AppFlipSyntax

/// `framing: denied`: a page cannot be framed by another origin. Judged on pages a browser would render (a
/// body and no redirect); a body-less redirect has nothing to frame, so the check does not apply to it.
package struct FramingCheck: HTTPResponseCheck {
    package static let key = "framing"
    package static let documentation = CheckDocumentation(
        .response, values: "`denied`",
        holdsWhen:
            "X-Frame-Options DENY/SAMEORIGIN, or CSP `frame-ancestors` of only `'none'`/`'self'`; not applicable to a redirect or an empty body")

    package static func read(_ node: Node, reader: inout NodeReader) -> [FramingCheck]? {
        reader.keyword(node, key, "denied") ? [FramingCheck()] : nil
    }

    package var scope: CheckScope { .response }

    package func expected(in context: Template.Context) -> String {
        "framing denied: X-Frame-Options DENY/SAMEORIGIN or CSP frame-ancestors 'none'/'self'"
    }

    package func evaluate(_ response: HTTPObservation, in context: Template.Context) -> CheckOutcome {
        if (300...399).contains(response.status) || response.body.isEmpty {
            return .notApplicable(reason: "HTTP \(response.status) with \(response.body.count) body bytes is not a page that can be framed")
        }
        let (held, frameOptions, ancestors) = FramingPolicy.denies(
            response.headerValues("X-Frame-Options"), response.headerValues("Content-Security-Policy"))
        return CheckOutcome(
            held,
            "X-Frame-Options: \(frameOptions.isEmpty ? "(none)" : frameOptions.joined(separator: ", ")); "
                + "CSP frame-ancestors: \(ancestors ?? "(none)")")
    }
}
