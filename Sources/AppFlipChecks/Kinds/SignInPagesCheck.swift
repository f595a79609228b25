import AppFlipModel
import AppFlipSyntax

/// `sign_in_pages: framing-denied | no-307-after-post | first-party-only`: judged on every response a sign-in walk
/// met on the target's own pages. Not applicable when the request was not driven through the pages (no
/// `sign_in` for the scenario in the target configuration).
package struct SignInPagesCheck: CheckKind {
    package static let key = "sign_in_pages"
    package static let documentation = CheckDocumentation(
        .response, values: "`framing-denied`, `no-307-after-post`, `first-party-only`, `forged-consent-refused`, `no-open-redirect`, `asks-again`",
        holdsWhen: "on the pages a sign-in walked through: every rendered page forbids framing / no POST is answered with 307 or 308 / "
            + "no page loads scripts, styles, images or frames from another origin / (with `sign_in: forge-consent` or `foreign-token`) the "
            + "consent posted without its anti-forgery fields, or with another user's, issued no code / (with `sign_in: tamper-return`) nothing sent the browser to the tampered "
            + "return address / (with `sign_in: repeat-consent`) the same request again in the same session got a page, not a code; not applicable without `sign_in`"
    )

    package enum Rule: String, Sendable, Hashable, CaseIterable {
        case framingDenied = "framing-denied"
        case no307AfterPost = "no-307-after-post"
        case firstPartyOnly = "first-party-only"
        /// With `sign_in: forge-consent` or `foreign-token`: the consent posted without its anti-forgery fields, or
        /// with another user's, issued no code.
        case forgedConsentRefused = "forged-consent-refused"
        /// With `sign_in: tamper-return`: nothing sent the browser to the tampered return address.
        case noOpenRedirect = "no-open-redirect"
        /// With `sign_in: repeat-consent`: the same request again in the same session got a page (consent or
        /// sign-in), not a code issued without asking.
        case asksAgain = "asks-again"
    }

    package var rule: Rule

    package static func read(_ node: Node, reader: inout NodeReader) -> [SignInPagesCheck]? {
        reader.enumValue(node, "sign_in_pages rule", as: Rule.self).map { [SignInPagesCheck(rule: $0)] }
    }

    package var scope: CheckScope { .response }

    package func expected(in context: Template.Context) -> String {
        switch rule {
        case .framingDenied: "every sign-in and consent page forbids framing"
        case .no307AfterPost: "no credentials POST answered with 307 or 308"
        case .firstPartyOnly: "no third-party content on the sign-in and consent pages"
        case .forgedConsentRefused: "a consent posted without its own anti-forgery fields issues no code"
        case .noOpenRedirect: "a sign-in whose return parameter names another origin never redirects there"
        case .asksAgain: "a repeated request in the same session is asked again, not answered with a code unasked"
        }
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard case .http(let response) = observation, !response.walk.isEmpty else {
            return .notApplicable(reason: "the request was not driven through the sign-in pages (no sign_in for this scenario)")
        }
        switch rule {
        case .framingDenied:
            let pages = response.walk.filter(\.isPage)
            guard !pages.isEmpty else { return .notApplicable(reason: "the walk met no page") }
            let framable = pages.filter { !$0.framingDenied }
            return CheckOutcome(
                framable.isEmpty,
                framable.isEmpty
                    ? "\(pages.count) pages, each forbids framing"
                    : "framable: " + framable.map { "\($0.method) \($0.url)" }.joined(separator: ", "))
        case .no307AfterPost:
            let posts = response.walk.filter { $0.method == "POST" }
            guard !posts.isEmpty else { return .notApplicable(reason: "the walk sent no POST") }
            let replaying = posts.filter { $0.status == 307 || $0.status == 308 }
            return CheckOutcome(replaying.isEmpty, posts.map { "POST \($0.url) → \($0.status)" }.joined(separator: "; "))
        case .firstPartyOnly:
            let foreign = response.walk.flatMap(\.thirdPartyResources)
            return CheckOutcome(foreign.isEmpty, foreign.isEmpty ? "only first-party content" : "loads " + foreign.prefix(5).joined(separator: ", "))
        case .forgedConsentRefused:
            guard let forged = response.walk.firstIndex(where: { $0.probe?.hasPrefix("consent with") == true }) else {
                return .notApplicable(reason: "the walk never reached a consent form to forge")
            }
            if let probe = response.walk[forged].probe, probe.hasPrefix("consent with another"), probe.hasSuffix("(none found)") {
                return .notApplicable(reason: "the consent form carries no anti-forgery field to swap (the forge-consent probe judges such a form)")
            }
            let after = response.walk[forged...]
            let issued = after.contains { ($0.location ?? "").contains("code=") } || response.header("Location")?.contains("code=") == true
            return CheckOutcome(
                !issued,
                (response.walk[forged].probe ?? "") + " → HTTP \(response.walk[forged].status)"
                    + (issued ? ", and a code was issued" : ", no code"))
        case .asksAgain:
            guard let repeated = response.walk.firstIndex(where: { $0.probe?.hasPrefix("the same request again") == true }) else {
                return .notApplicable(reason: "the walk made no repeated request")
            }
            let silent =
                response.walk[repeated...].contains { ($0.location ?? "").contains("code=") }
                || response.header("Location")?.contains("code=") == true
            let end = response.walk.last.map { "HTTP \($0.status)" + ($0.isPage ? " (a page)" : "") } ?? ""
            return CheckOutcome(!silent, silent ? "the same request again was answered with a code, nothing asked" : "asked again: \(end)")
        case .noOpenRedirect:
            guard let tampered = response.walk.firstIndex(where: { $0.probe?.hasPrefix("tampered") == true }) else {
                return .notApplicable(reason: "the sign-in form has no return parameter to tamper with")
            }
            let foreign = "https://appflip-open-redirect.invalid"
            let followed = response.walk[tampered...].contains { ($0.location ?? "").lowercased().hasPrefix(foreign) }
            return CheckOutcome(!followed, (response.walk[tampered].probe ?? "") + (followed ? " → redirected there" : " → not redirected there"))
        }
    }
}
