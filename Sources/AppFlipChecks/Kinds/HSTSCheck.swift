import AppFlipModel
import AppFlipSyntax
import Foundation

/// `hsts: enabled`: the response carries a Strict-Transport-Security header that a browser would take (RFC 6797
/// §6.1): a `max-age` directive with a positive number of seconds, each directive at most once. Only meaningful over
/// https (a browser ignores the header over http, §8.1), so the cases that use it declare `needs: [https]`.
package struct HSTSCheck: HTTPResponseCheck {
    package static let key = "hsts"
    package static let documentation = CheckDocumentation(
        .response, values: "`enabled`",
        holdsWhen: "a Strict-Transport-Security header with a positive `max-age` and no repeated directive (RFC 6797 §6.1)")

    package static func read(_ node: Node, reader: inout NodeReader) -> [HSTSCheck]? {
        reader.keyword(node, key, "enabled") ? [HSTSCheck()] : nil
    }

    package var scope: CheckScope { .response }

    package func expected(in context: Template.Context) -> String {
        "Strict-Transport-Security with a positive max-age"
    }

    package func evaluate(_ response: HTTPObservation, in context: Template.Context) -> CheckOutcome {
        // A browser processes only the first header (RFC 6797 §8.1).
        guard let value = response.header("Strict-Transport-Security") else {
            return .violated(observed: "no Strict-Transport-Security header")
        }
        let shown = "Strict-Transport-Security: \(value)"
        guard let maxAge = Self.maxAge(value) else { return .violated(observed: shown + " (no valid max-age, or a repeated directive)") }
        return CheckOutcome(maxAge > 0, shown + (maxAge > 0 ? "" : " (max-age=0 tells the browser to forget the host)"))
    }

    /// The max-age in seconds, or nil when the value is not a valid STS header (§6.1: directives are unique and
    /// case-insensitive; max-age is required; its value may be quoted).
    static func maxAge(_ value: String) -> Int? {
        var seen: Set<String> = []
        var maxAge: Int?
        for directive in value.split(separator: ";") {
            let parts = directive.split(separator: "=", maxSplits: 1)
            let name = parts.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            if name.isEmpty { continue }
            guard seen.insert(name).inserted else { return nil }
            if name == "max-age", parts.count == 2 {
                var text = parts[1].trimmingCharacters(in: .whitespaces)
                if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
                guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return nil }
                maxAge = Int(text.prefix(12)) ?? Int.max
            }
        }
        return maxAge
    }
}
