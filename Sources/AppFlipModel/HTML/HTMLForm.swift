/// A form as a browser without JavaScript would submit it: where, how, and the fields it sends by default.
package struct HTMLForm: Sendable, Hashable {
    package struct Field: Sendable, Hashable {
        package var name: String
        package var value: String
        /// The control's type: `hidden`, `text`, `password`, `email`, `checkbox`, `select`, `textarea`, ….
        package var type: String
    }

    /// A submit control (`<button>` or `<input type=submit|image>`) with a name, whose value is sent only when it
    /// is the one clicked.
    package struct SubmitButton: Sendable, Hashable {
        package var name: String
        package var value: String
    }

    package var id: String?
    package var name: String?
    /// The `action` attribute as written (empty means the page's own URL).
    package var action: String
    /// `GET` or `POST` (the default and anything unknown are GET, as browsers do).
    package var method: String
    /// The fields sent by default, in document order: checked checkboxes and radios only, selected options.
    package var fields: [Field]
    package var submitButtons: [SubmitButton]

    /// The default value of a field, if the form has it.
    package func value(of name: String) -> String? { fields.first { $0.name == name }?.value }

    /// Whether the form has a field of this name (sent by default or not).
    package func hasField(_ name: String) -> Bool { fields.contains { $0.name == name } || submitButtons.contains { $0.name == name } }

    /// The hidden fields (anti-forgery tokens and the like) a careful client carries over unchanged.
    package var hiddenFields: [Field] { fields.filter { $0.type == "hidden" } }
}
