import AppFlipSyntax

/// `authorization_code: present | absent`: the result's `AUTHORIZATION_CODE` extra (Android App Flip). `present`
/// is one non-empty String; `absent` holds when there is none, or it is empty (Google reads no code from it).
package struct AuthorizationCodeCheck: Check {
    package static let key = "authorization_code"
    package static let documentation = CheckDocumentation(
        .activity, values: "`present`, `absent`",
        holdsWhen: "a non-empty String `AUTHORIZATION_CODE` in the data intent / no `AUTHORIZATION_CODE`, or an empty one (also with no data intent)")

    package var present: Bool

    package static func read(_ node: Node, reader: inout NodeReader) -> [AuthorizationCodeCheck]? {
        guard let scalar = reader.scalar(node, "'authorization_code'") else { return nil }
        guard scalar.text == "present" || scalar.text == "absent" else {
            reader.error(at: scalar.location, "'authorization_code' takes 'present' or 'absent'")
            return nil
        }
        return [AuthorizationCodeCheck(present: scalar.text == "present")]
    }

    package var scope: CheckScope { .activity }

    package func expected(in context: Template.Context) -> String {
        present ? "one non-empty String AUTHORIZATION_CODE" : "no authorization code"
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard case .activity(let result) = observation else { return .notApplicable(reason: "not an Android activity's result") }
        guard result.data != nil else {
            return present ? .violated(observed: "no data intent, so no AUTHORIZATION_CODE") : .held(observed: "no data intent, so no code")
        }
        guard let code = result.extra("AUTHORIZATION_CODE") else {
            return CheckOutcome(!present, "no AUTHORIZATION_CODE")
        }
        let shown = "AUTHORIZATION_CODE " + ActivityResult.shown("AUTHORIZATION_CODE", code)
        switch code {
        case .string(let text):
            return CheckOutcome(present != text.isEmpty, shown)
        default:
            // Any other type is no code Google can read (`getStringExtra` gives null), and not the absence a case asks for.
            return .violated(observed: shown + ", not a String")
        }
    }
}
