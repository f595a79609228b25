/// How a test user signs in and consents through the target's real pages, as a browser without JavaScript would:
/// the sign-in form to fill (found by a selector), the values to put in it (credentials come from the
/// environment), and optionally the consent form and the button to press. Hidden fields are carried over.
package struct SignInScript: Sendable, Hashable {
    /// A form selector: `#id`, `action:TEXT`, or field names that must all be present (`username,password`).
    package var form: String
    /// Values for the sign-in form's fields, by name.
    package var fields: [String: String]
    /// The consent form's selector, when the target asks for consent on a page of its own.
    package var consentForm: String?
    /// The button to press on the consent form: its value, or `name=value`.
    package var consentButton: String?

    /// Whether a sign-in field's name says it holds a credential (a password, a PIN, a one-time code, a secret or a
    /// token), whose value the reports hide even when the configuration writes it out.
    package static func isCredential(_ fieldName: String) -> Bool {
        let lower = fieldName.lowercased()
        return ["pass", "pwd", "pin", "secret", "token", "otp", "code", "credential", "key"].contains { lower.contains($0) }
    }

    package init(form: String, fields: [String: String], consentForm: String? = nil, consentButton: String? = nil) {
        self.form = form
        self.fields = fields
        self.consentForm = consentForm
        self.consentButton = consentButton
    }
}
