import Foundation

extension HTMLDocument {
    /// A page read token by token: the form, select, option or textarea open at the moment, and what was collected.
    struct Reading: HTMLTokenReader {
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

        /// The elements a reading acts on; every other tag is passed over.
        enum Element {
            case form, input, button, select, option, textarea, meta, script, img, iframe, link

            /// The element a lower-cased tag name names, told apart by length first.
            init?(_ name: String) {
                switch name.utf8.count {
                case 3 where name == "img": self = .img
                case 4 where name == "form": self = .form
                case 4 where name == "meta": self = .meta
                case 4 where name == "link": self = .link
                case 5 where name == "input": self = .input
                case 6 where name == "button": self = .button
                case 6 where name == "select": self = .select
                case 6 where name == "option": self = .option
                case 6 where name == "script": self = .script
                case 6 where name == "iframe": self = .iframe
                case 8 where name == "textarea": self = .textarea
                default: return nil
                }
            }
        }

        /// Text changes the reading only inside a button, a script, a textarea or an option.
        var readsText: Bool { buttonLabel != nil || inScript || textarea != nil || option != nil }

        func readsAttributes(of name: String) -> Bool { Element(name) != nil }

        private static func attribute(_ attributes: [(name: String, value: String)], _ name: String) -> String? {
            attributes.first { $0.name == name }?.value
        }

        mutating func start(_ name: String, _ attributes: [(name: String, value: String)]) {
            guard let element = Element(name) else { return }
            switch element {
            case .form:
                if let open = form { forms.append(open) }
                form = HTMLForm(
                    id: Self.attribute(attributes, "id"), name: Self.attribute(attributes, "name"),
                    action: Self.attribute(attributes, "action") ?? "",
                    method: Self.attribute(attributes, "method")?.uppercased() == "POST" ? "POST" : "GET", fields: [], submitButtons: [])
            case .input:
                input(attributes)
            case .button:
                button(attributes)
            case .select:
                select = (Self.attribute(attributes, "name") ?? "", nil, nil)
            case .option:
                closeOption()
                option = (Self.attribute(attributes, "value"), attributes.contains { $0.name == "selected" }, "")
            case .textarea:
                textarea = Self.attribute(attributes, "name")
            case .meta:
                if Self.attribute(attributes, "http-equiv")?.lowercased() == "refresh" {
                    metaRefreshes.append(Self.attribute(attributes, "content") ?? "")
                }
                if Self.attribute(attributes, "name")?.lowercased() == "referrer", let content = Self.attribute(attributes, "content") {
                    referrerPolicies.append(content)
                }
            case .script:
                inScript = true
                if let source = Self.attribute(attributes, "src") { resources.append(source) }
            case .img, .iframe:
                if let source = Self.attribute(attributes, "src") { resources.append(source) }
            case .link:
                if let reference = Self.attribute(attributes, "href") { resources.append(reference) }
            }
        }

        /// A `<button>`: a submit button of the open form unless its type says otherwise or it is disabled.
        private mutating func button(_ attributes: [(name: String, value: String)]) {
            closeButton()
            // A button whose type is unknown is a submit button (HTML §4.10.6, the missing and invalid value default).
            switch (Self.attribute(attributes, "type") ?? "submit").lowercased() {
            case "button", "reset", "menu": return
            default: break
            }
            guard !attributes.contains(where: { $0.name == "disabled" }), form != nil else { return }
            form?.submitButtons.append(
                HTMLForm.SubmitButton(
                    name: Self.attribute(attributes, "name"), value: Self.attribute(attributes, "value") ?? "",
                    label: "", formAction: Self.attribute(attributes, "formaction"),
                    formMethod: Self.attribute(attributes, "formmethod")))
            buttonLabel = ""
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
            switch Element(name) {
            case .form:
                closeButton()
                if let open = form { forms.append(open) }
                form = nil
            case .button:
                closeButton()
            case .option:
                closeOption()
            case .select:
                closeOption()
                if let open = select, !open.name.isEmpty, let value = open.chosen ?? open.firstValue {
                    form?.fields.append(HTMLForm.Field(name: open.name, value: value, type: "select"))
                }
                select = nil
            case .script:
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

        /// Text as a page shows it: runs of ASCII whitespace (tab, line feed, form feed, carriage return, space) made
        /// one space, none at either end (HTML's "strip and collapse ASCII whitespace", which reads code points).
        static func collapsed(_ text: String) -> String {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count)
            var space = false
            for byte in text.utf8 {
                switch byte {
                case 0x09, 0x0A, 0x0C, 0x0D, 0x20:
                    space = !bytes.isEmpty
                default:
                    if space { bytes.append(0x20) }
                    space = false
                    bytes.append(byte)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
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
}
