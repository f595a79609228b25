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

    package init(_ bytes: [UInt8], limits: HTMLScanner.Limits = HTMLScanner.Limits()) {
        var form: HTMLForm?
        var select: (name: String, firstValue: String?, chosen: String?)?
        var option: (value: String?, selected: Bool, text: String)?
        var textarea: String?
        var inScript = false
        func attribute(_ attributes: [(name: String, value: String)], _ name: String) -> String? {
            attributes.first { $0.name == name }?.value
        }
        func closeOption() {
            guard let current = option, var open = select else { return }
            let value = current.value ?? current.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if open.firstValue == nil { open.firstValue = value }
            if current.selected, open.chosen == nil { open.chosen = value }
            select = open
            option = nil
        }
        for token in HTMLScanner.tokens(bytes, limits: limits) {
            switch token {
            case .start(let name, let attributes):
                switch name {
                case "form":
                    if let open = form { forms.append(open) }
                    form = HTMLForm(id: attribute(attributes, "id"), name: attribute(attributes, "name"),
                                    action: attribute(attributes, "action") ?? "",
                                    method: attribute(attributes, "method")?.uppercased() == "POST" ? "POST" : "GET",
                                    fields: [], submitButtons: [])
                case "input":
                    guard let fieldName = attribute(attributes, "name"), !fieldName.isEmpty else { continue }
                    let type = (attribute(attributes, "type") ?? "text").lowercased()
                    let value = attribute(attributes, "value") ?? (type == "checkbox" || type == "radio" ? "on" : "")
                    let checked = attributes.contains { $0.name == "checked" }
                    switch type {
                    case "submit", "image":
                        form?.submitButtons.append(HTMLForm.SubmitButton(name: fieldName, value: value))
                    case "checkbox", "radio":
                        if checked { form?.fields.append(HTMLForm.Field(name: fieldName, value: value, type: type)) }
                    case "button", "reset", "file":
                        continue
                    default:
                        form?.fields.append(HTMLForm.Field(name: fieldName, value: value, type: type))
                    }
                case "button":
                    let type = (attribute(attributes, "type") ?? "submit").lowercased()
                    if type == "submit", let buttonName = attribute(attributes, "name"), !buttonName.isEmpty {
                        form?.submitButtons.append(HTMLForm.SubmitButton(name: buttonName, value: attribute(attributes, "value") ?? ""))
                    }
                case "select":
                    select = (attribute(attributes, "name") ?? "", nil, nil)
                case "option":
                    closeOption()
                    option = (attribute(attributes, "value"), attributes.contains { $0.name == "selected" }, "")
                case "textarea":
                    textarea = attribute(attributes, "name")
                case "meta":
                    if attribute(attributes, "http-equiv")?.lowercased() == "refresh" {
                        metaRefreshes.append(attribute(attributes, "content") ?? "")
                    }
                case "script":
                    inScript = true
                    if let source = attribute(attributes, "src") { resources.append(source) }
                case "img", "iframe":
                    if let source = attribute(attributes, "src") { resources.append(source) }
                case "link":
                    if let reference = attribute(attributes, "href") { resources.append(reference) }
                default:
                    continue
                }
            case .end(let name):
                switch name {
                case "form":
                    if let open = form { forms.append(open) }
                    form = nil
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
                    continue
                }
            case .text(let text):
                if inScript {
                    scripts.append(text)
                } else if let fieldName = textarea {
                    form?.fields.append(HTMLForm.Field(name: fieldName, value: text, type: "textarea"))
                    textarea = nil
                } else if option != nil {
                    option?.text += text
                }
            }
        }
        if let open = form { forms.append(open) }
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
