import AppFlipModel
import AppFlipSyntax

/// `caller_code: if-allowed` or `either`: what an activity gives a Google app's identity depends on whether the
/// partner allows it, which the configuration says (`android_allowed_callers`, the Google app by default).
/// `if-allowed`: a configured caller gets a code (RESULT_OK with a non-empty String `AUTHORIZATION_CODE`), and the
/// check does not apply to one that is not configured. `either`: for a Google identity that is not configured (Google
/// Home by default: no Google page says it starts App Flip), a code and a refusal are both allowed; it holds when a
/// code came and is "violated" when the activity refused, which under a MAY requirement only informs. Neither judges
/// a request without a caller.
package struct CallerCodeCheck: ActivityCheck {
    package enum Expectation: String, Sendable, Hashable, CaseIterable {
        case ifAllowed = "if-allowed"
        case either
    }

    package static let key = "caller_code"
    package static let documentation = CheckDocumentation(
        .activity, values: "`if-allowed`, `either`",
        holdsWhen: "if-allowed: when the request's caller is among the configured allowed callers (`android_allowed_callers`; the Google app "
            + "by default), RESULT_OK with a non-empty String `AUTHORIZATION_CODE` (not judged for a caller not configured); either: for a caller "
            + "not configured, a code came (a refusal is the other allowed answer: under a MAY requirement it informs; not judged for a "
            + "configured caller)")

    package let expectation: Expectation

    package static func read(_ node: Node, reader: inout NodeReader) -> [CallerCodeCheck]? {
        reader.enumValue(node, "'caller_code'", as: Expectation.self).map { [CallerCodeCheck(expectation: $0)] }
    }

    package var scope: CheckScope { .activity }

    package func expected(in context: Template.Context) -> String {
        switch expectation {
        case .ifAllowed: "a code for a caller the activity is configured to allow"
        case .either: "a code or a refusal for a Google app the activity is not configured to allow"
        }
    }

    package func evaluate(_ result: ActivityResult, in context: Template.Context) -> CheckOutcome {
        guard let caller = result.requestCaller else { return .notApplicable(reason: "the request had no calling activity") }
        let allowed = context.configuration.android.allowedCallers.contains { $0.sameIdentity(as: caller) }
        let gotCode = result.grantsCode
        switch (expectation, allowed) {
        case (.ifAllowed, false):
            return .notApplicable(
                reason: "\(caller.package) is not among the configured allowed callers (android_allowed_callers), "
                    + "so a code and a refusal are both allowed")
        case (.either, true):
            return .notApplicable(reason: "\(caller.package) is a configured allowed caller: it must get a code")
        case (.ifAllowed, true):
            return CheckOutcome(
                gotCode,
                (gotCode ? "a code for \(caller.package), a configured caller" : "no code for \(caller.package), a configured caller")
                    + ": " + result.summary)
        case (.either, false):
            return CheckOutcome(
                gotCode,
                (gotCode
                    ? "a code for \(caller.package), which it may allow"
                    : "\(caller.package) refused, which it may be: it is not a configured caller") + ": " + result.summary)
        }
    }
}
