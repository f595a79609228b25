import Foundation

/// What a conformance run reads from an HTML page: its forms, its meta refreshes and its scripts.
package struct HTMLDocument: Sendable {
    package var forms: [HTMLForm] = []
    /// The `content` of each `<meta http-equiv="refresh">`.
    package var metaRefreshes: [String] = []
    /// The text of each inline `<script>`.
    package var scripts: [String] = []
    /// The `src` of each `<script>`, `<img>`, `<link href>` and `<iframe>`: what the page loads.
    package var resources: [String] = []
    /// The `content` of each `<meta name="referrer">`: the page's referrer policy, over its header's.
    package var referrerPolicies: [String] = []

    package init(_ bytes: [UInt8], limits: HTMLScanner.Limits = HTMLScanner.Limits()) {
        var reading = Reading()
        for token in HTMLScanner.tokens(bytes, limits: limits) {
            switch token {
            case .start(let name, let attributes): reading.start(name, attributes)
            case .end(let name): reading.end(name)
            case .text(let text): reading.text(text)
            }
        }
        reading.end("form")
        forms = reading.forms
        referrerPolicies = reading.referrerPolicies
        metaRefreshes = reading.metaRefreshes
        scripts = reading.scripts
        resources = reading.resources
    }

    /// A page read token by token: the form, select, option or textarea open at the moment, and what was collected.
    private struct Reading {
        var forms: [HTMLForm] = []
        var metaRefreshes: [String] = []
        var scripts: [String] = []
        var resources: [String] = []
        var form: HTMLForm?
        var select: (name: String, firstValue: String?, chosen: String?)?
        var option: (value: String?, selected: Bool, text: String)?
        var textarea: String?
        var inScript = false
        /// The text of the `<button>` open at the moment (its label so far).
        var buttonLabel: String?
        var referrerPolicies: [String] = []

        private static func attribute(_ attributes: [(name: String, value: String)], _ name: String) -> String? {
            attributes.first { $0.name == name }?.value
        }

        mutating func start(_ name: String, _ attributes: [(name: String, value: String)]) {
            switch name {
            case "form":
                if let open = form { forms.append(open) }
                form = HTMLForm(
                    id: Self.attribute(attributes, "id"), name: Self.attribute(attributes, "name"),
                    action: Self.attribute(attributes, "action") ?? "",
                    method: Self.attribute(attributes, "method")?.uppercased() == "POST" ? "POST" : "GET", fields: [], submitButtons: [])
            case "input":
                input(attributes)
            case "button":
                closeButton()
                let type = (Self.attribute(attributes, "type") ?? "submit").lowercased()
                // A button whose type is unknown is a submit button (HTML §4.10.6, the missing and invalid value default).
                if !["button", "reset", "menu"].contains(type), !attributes.contains(where: { $0.name == "disabled" }), form != nil {
                    form?.submitButtons.append(
                        HTMLForm.SubmitButton(
                            name: Self.attribute(attributes, "name"), value: Self.attribute(attributes, "value") ?? "",
                            label: "", formAction: Self.attribute(attributes, "formaction"),
                            formMethod: Self.attribute(attributes, "formmethod")))
                    buttonLabel = ""
                }
            case "select":
                select = (Self.attribute(attributes, "name") ?? "", nil, nil)
            case "option":
                closeOption()
                option = (Self.attribute(attributes, "value"), attributes.contains { $0.name == "selected" }, "")
            case "textarea":
                textarea = Self.attribute(attributes, "name")
            case "meta":
                if Self.attribute(attributes, "http-equiv")?.lowercased() == "refresh" {
                    metaRefreshes.append(Self.attribute(attributes, "content") ?? "")
                }
                if Self.attribute(attributes, "name")?.lowercased() == "referrer", let content = Self.attribute(attributes, "content") {
                    referrerPolicies.append(content)
                }
            case "script":
                inScript = true
                if let source = Self.attribute(attributes, "src") { resources.append(source) }
            case "img", "iframe":
                if let source = Self.attribute(attributes, "src") { resources.append(source) }
            case "link":
                if let reference = Self.attribute(attributes, "href") { resources.append(reference) }
            default:
                break
            }
        }

        /// An `<input>`: a field the form submits (a checkbox or radio only when checked), or a submit button.
        private mutating func input(_ attributes: [(name: String, value: String)]) {
            let type = (Self.attribute(attributes, "type") ?? "text").lowercased()
            if type == "submit" || type == "image" {
                guard !attributes.contains(where: { $0.name == "disabled" }) else { return }
                let value = Self.attribute(attributes, "value") ?? ""
                let label = type == "image" ? (Self.attribute(attributes, "alt") ?? value) : value
                form?.submitButtons.append(
                    HTMLForm.SubmitButton(
                        name: Self.attribute(attributes, "name"), value: value,
                        label: Self.collapsed(label), isImage: type == "image",
                        formAction: Self.attribute(attributes, "formaction"),
                        formMethod: Self.attribute(attributes, "formmethod")))
                return
            }
            guard let fieldName = Self.attribute(attributes, "name"), !fieldName.isEmpty else { return }
            let value = Self.attribute(attributes, "value") ?? (type == "checkbox" || type == "radio" ? "on" : "")
            switch type {
            case "checkbox", "radio":
                if attributes.contains(where: { $0.name == "checked" }) {
                    form?.fields.append(HTMLForm.Field(name: fieldName, value: value, type: type))
                }
            case "button", "reset", "file":
                break
            default:
                form?.fields.append(HTMLForm.Field(name: fieldName, value: value, type: type))
            }
        }

        mutating func end(_ name: String) {
            switch name {
            case "form":
                closeButton()
                if let open = form { forms.append(open) }
                form = nil
            case "button":
                closeButton()
            case "option":
                closeOption()
            case "select":
                closeOption()
                if let open = select, !open.name.isEmpty, let value = open.chosen ?? open.firstValue {
                    form?.fields.append(HTMLForm.Field(name: open.name, value: value, type: "select"))
                }
                select = nil
            case "script":
                inScript = false
            default:
                break
            }
        }

        mutating func text(_ text: String) {
            if buttonLabel != nil { buttonLabel? += text }
            if inScript {
                scripts.append(text)
            } else if let fieldName = textarea {
                form?.fields.append(HTMLForm.Field(name: fieldName, value: text, type: "textarea"))
                textarea = nil
            } else if option != nil {
                option?.text += text
            }
        }

        /// Ends the open `<button>`: what it says, whitespace collapsed, is its label.
        private mutating func closeButton() {
            guard let text = buttonLabel else { return }
            buttonLabel = nil
            guard let last = form?.submitButtons.indices.last else { return }
            form?.submitButtons[last].label = Self.collapsed(text)
        }

        /// Text as a page shows it: runs of ASCII whitespace made one space, none at either end (HTML's "strip and
        /// collapse ASCII whitespace").
        static func collapsed(_ text: String) -> String {
            text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }).joined(separator: " ")
        }

        /// Ends the open `<option>`: its value (or text) is the select's first, and its chosen one when selected.
        private mutating func closeOption() {
            guard let current = option, var open = select else { return }
            let value = current.value ?? current.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if open.firstValue == nil { open.firstValue = value }
            if current.selected, open.chosen == nil { open.chosen = value }
            select = open
            option = nil
        }
    }

    /// The first form matching a selector: `#id`, `action:TEXT` (the action contains TEXT), or field names that
    /// must all be present (`username,password`).
    package func form(matching selector: String) -> HTMLForm? {
        if selector.hasPrefix("#") { return forms.first { $0.id == String(selector.dropFirst()) } }
        if selector.hasPrefix("action:") {
            let text = String(selector.dropFirst(7))
            return forms.first { $0.action.byteRange(of: text) != nil }
        }
        let names = selector.split(separator: ",").map { $0.trimmingSpaces() }
        return forms.first { form in names.allSatisfy(form.hasField) }
    }
}
