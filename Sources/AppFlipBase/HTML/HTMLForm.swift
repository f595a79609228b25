/// A form as a browser without JavaScript would submit it: where, how, and the fields it sends by default.
package struct HTMLForm: Sendable, Hashable {
    package struct Field: Sendable, Hashable {
        package var name: String
        package var value: String
        /// The control's type: `hidden`, `text`, `password`, `email`, `checkbox`, `select`, `textarea`, ….
        package var type: String
    }

    /// A submit control (`<button>` or `<input type=submit|image>`), pressed as a user presses it: found by what it
    /// says, and sending its own pair only when it has a name (HTML §4.10.21.4, "constructing the entry list": a
    /// nameless button submits the form without one).
    package struct SubmitButton: Sendable, Hashable {
        /// The name sent with the value when it is the one pressed; nil for a nameless button.
        package var name: String?
        package var value: String
        /// What a user reads on it: a `<button>`'s text, an `<input>`'s value (an image's `alt`), whitespace collapsed.
        package var label: String
        /// An image button sends the click's coordinates (`name.x`, `name.y`) instead of a value.
        package var isImage = false
        /// `formaction` and `formmethod`: where and how this button submits the form, over the form's own.
        package var formAction: String?
        package var formMethod: String?

        package init(
            name: String?, value: String, label: String? = nil, isImage: Bool = false, formAction: String? = nil,
            formMethod: String? = nil
        ) {
            self.name = name.flatMap { $0.isEmpty ? nil : $0 }
            self.value = value
            self.label = label ?? value
            self.isImage = isImage
            self.formAction = formAction
            self.formMethod = formMethod
        }

        /// The pairs pressing it adds to the form's (a click at the image's top left corner, as a keyboard press sends).
        package var pairs: [(name: String, value: String)] {
            if isImage { return name.map { [($0 + ".x", "0"), ($0 + ".y", "0")] } ?? [("x", "0"), ("y", "0")] }
            return name.map { [($0, value)] } ?? []
        }

        /// How a report names it: its label, and the pair it sends.
        package var description: String {
            let shown = "'" + label + "'"
            guard let name else { return shown + " (no name)" }
            return shown + " (" + name + "=" + value + ")"
        }

        /// Whether a configuration's `consent_button` names this button: `name=value`, its label, or its value.
        package func isNamed(_ wanted: String) -> Bool {
            if let name, name + "=" + value == wanted { return true }
            return label == wanted || (!value.isEmpty && value == wanted)
        }
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

    /// The button a configuration's `consent_button` names: exactly as written first (`name=value`, label, value), then
    /// its label without regard to case, as a user reading the page would find it; the first in document order.
    package func button(named wanted: String) -> SubmitButton? {
        if let exact = submitButtons.first(where: { $0.isNamed(wanted) }) { return exact }
        let lowered = wanted.lowercased()
        return submitButtons.first { $0.label.lowercased() == lowered }
    }

    /// The hidden fields (anti-forgery tokens and the like) a careful client carries over unchanged.
    package var hiddenFields: [Field] { fields.filter { $0.type == "hidden" } }
}
