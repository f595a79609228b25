import AppFlipBase
import AppFlipModel
import AppFlipRedaction
import AppFlipSyntax
import Foundation

/// `navigation: none | not-to-client`: where the response sends the browser. `none`: nowhere (no Location, no
/// meta refresh, no navigating script). `not-to-client`: not to the redirect URI that was sent (nor its origin);
/// a redirect to the server's own pages (sign-in, an error page) is allowed, because what RFC 6749 §4.1.2.1
/// forbids is redirecting to an unverified redirection URI, not redirecting at all.
package struct NavigationCheck: HTTPResponseCheck {
    package static let key = "navigation"
    package static let documentation = CheckDocumentation(
        .response, values: "`none`, `not-to-client`",
        holdsWhen: "no Location header, no meta refresh, no script in the page that navigates / none of these leads to the `redirect_uri` "
            + "that was sent (or its origin); the server's own pages, such as sign-in or an error page, are allowed")

    package enum Mode: String, Sendable, Hashable, CaseIterable {
        case none
        case notToClient = "not-to-client"
    }

    package var mode: Mode

    package static func read(_ node: Node, reader: inout NodeReader) -> [NavigationCheck]? {
        reader.enumValue(node, "navigation expectation", as: Mode.self).map { [NavigationCheck(mode: $0)] }
    }

    package var scope: CheckScope { .response }

    package func expected(in context: Template.Context) -> String {
        switch mode {
        case .none: "no redirect of any kind: no Location, no meta refresh, no script navigation"
        case .notToClient: "no redirect, meta refresh or script navigation to the redirect_uri sent (or its origin)"
        }
    }

    package func evaluate(_ response: HTTPObservation, in context: Template.Context) -> CheckOutcome {
        let clients = mode == .none ? [] : Self.clientTargets(context)
        var found: [String] = []
        if let location = response.header("Location"), mode == .none || clients.contains(where: { Self.leads(location, to: $0) }) {
            found.append("Location: \(Redaction.redact(url: location))")
        }
        let page = HTMLDocument(response.body)
        for refresh in page.metaRefreshes.map({ Substring($0.lowercased()) })
        where mode == .none || clients.contains(where: { Self.mentions(refresh, $0) }) {
            found.append("a meta refresh")
            break
        }
        for script in page.scripts.map({ Substring($0.lowercased()) })
        where Self.navigates(script) && (mode == .none || clients.contains { Self.mentions(script, $0) }) {
            found.append("a script that navigates")
            break
        }
        let quiet = mode == .none ? "no navigation" : "no navigation to the redirect_uri"
        return CheckOutcome(found.isEmpty, found.isEmpty ? "HTTP \(response.status), \(quiet)" : found.joined(separator: "; "))
    }

    /// The redirect URIs a navigation must not reach: every decoded `redirect_uri` sent, and the configured one.
    static func clientTargets(_ context: Template.Context) -> [String] {
        let sent = context.sent.all(named: "redirect_uri").compactMap { $0.value.map { String(decoding: $0, as: UTF8.self) } }
        return (sent + [context.configuration.webRedirectURI]).filter { !$0.isEmpty }
    }

    /// True when `url` starts with `target`, or has the same origin (scheme, host without userinfo, port).
    static func leads(_ url: String, to target: String) -> Bool {
        if url.lowercased().hasPrefix(target.lowercased()) { return true }
        guard let urlOrigin = origin(of: url), let targetOrigin = origin(of: target) else { return false }
        return urlOrigin == targetOrigin
    }

    private static func mentions(_ text: Substring, _ target: String) -> Bool {
        let host = origin(of: target).map { String($0.drop { $0 != "/" }.dropFirst(2)) } ?? target.lowercased()
        return !host.isEmpty && (text.contains(host) || text.contains(target.lowercased()))
    }

    /// `scheme://host[:port]`, lower-cased, without userinfo and default ports; nil without `://`.
    static func origin(of url: String) -> String? {
        guard let separator = url.range(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound].lowercased()
        let rest = url[separator.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != "\\" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority.lowercased()
        if (scheme == "https" && host.hasSuffix(":443")) || (scheme == "http" && host.hasSuffix(":80")) {
            host = String(host.prefix { $0 != ":" })
        }
        return scheme + "://" + host
    }

    private static func navigates(_ script: Substring) -> Bool {
        script.range(
            of: #"(location\s*(\.href\s*)?=|location\.(replace|assign)\s*\(|window\.open\s*\(|\.submit\s*\()"#,
            options: .regularExpression) != nil
    }
}
