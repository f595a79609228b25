import AppFlipModel
import AppFlipSyntax

extension CaseLoader {
    /// `intent:` of an Android App Flip step: `google` (the intent as Google sends it), or a block of edits:
    ///
    /// ```yaml
    /// intent:
    ///   set:                   # replaces an extra Google sends, or adds one after them
    ///     - name: SCOPE
    ///       type: String       # String, String[] (value: a one-line list) or int
    ///       value: ${scope}
    ///   remove: [CLIENT_ID]    # extras Google sends that this intent leaves out
    ///   caller: none           # google (the configured caller; the default), none, or package: and signature:
    /// ```
    mutating func intentRecipe(_ node: Node) -> IntentRecipe? {
        if case .scalar(let scalar) = node {
            guard scalar.text == "google" else {
                reader.error(at: scalar.location, "'intent' is 'google' (the intent as Google sends it) or a block of edits (set, remove, caller)")
                return nil
            }
            return IntentRecipe()
        }
        guard let mapping = reader.mapping(node, "'intent'"),
            reader.checkKeys(mapping, allowed: ["set", "remove", "caller", "scenario"], in: "'intent'")
        else {
            return nil
        }
        let before = reader.diagnostics.count
        var recipe = IntentRecipe()
        if let setNode = mapping["set"], let list = reader.sequence(setNode, "'set'") {
            for item in list.items {
                if let entry = intentExtra(item) { recipe.set.append(entry) }
            }
        }
        if let removeNode = mapping["remove"], let names = reader.scalarList(removeNode, "'remove'") {
            for name in names {
                if !IntentRecipe.googleExtras.contains(name.text) {
                    reader.error(
                        at: name.location,
                        "'remove' takes extras Google sends (\(IntentRecipe.googleExtras.joined(separator: ", "))); '\(name.text)' is not one")
                } else if recipe.set.contains(where: { $0.name == name.text }) {
                    reader.error(at: name.location, "'\(name.text)' is both set and removed")
                } else {
                    recipe.remove.append(name.text)
                }
            }
        }
        if let callerNode = mapping["caller"] { recipe.caller = intentCaller(callerNode) ?? .configured }
        if let node = mapping["scenario"], let scenario = reader.enumValue(node, "scenario", as: Scenario.self) {
            if scenario == .secondUser {
                reader.error(at: node.location, "'second-user' is for HTTP steps; an activity knows consent, deny, cancel and disabled-account")
            } else {
                recipe.scenario = scenario
            }
        }
        return reader.diagnostics.count == before ? recipe : nil
    }

    private mutating func intentExtra(_ node: Node) -> IntentRecipe.Entry? {
        guard let mapping = reader.mapping(node, "an extra"),
            reader.checkKeys(mapping, allowed: ["name", "type", "value"], required: ["name", "type", "value"], in: "an extra"),
            let name = mapping["name"].flatMap({ reader.scalar($0, "'name'") }),
            let type = mapping["type"].flatMap({ reader.scalar($0, "'type'") }),
            let valueNode = mapping["value"]
        else { return nil }
        guard !name.text.isEmpty else {
            reader.error(at: name.location, "an extra needs a name")
            return nil
        }
        switch type.text {
        case "String":
            return reader.scalar(valueNode, "'value'").flatMap { reader.template($0) }.map { IntentRecipe.Entry(name: name.text, value: .string($0)) }
        case "String[]":
            guard let items = reader.scalarList(valueNode, "'value'") else { return nil }
            var templates: [Template] = []
            for item in items {
                guard let template = reader.template(item) else { return nil }
                templates.append(template)
            }
            return IntentRecipe.Entry(name: name.text, value: .stringArray(templates))
        case "int":
            guard let scalar = reader.scalar(valueNode, "'value'") else { return nil }
            guard let number = Int32(scalar.text) else {
                reader.error(at: scalar.location, "an int extra's value is a 32-bit integer")
                return nil
            }
            return IntentRecipe.Entry(name: name.text, value: .int(Int(number)))
        default:
            reader.error(at: type.location, "an extra's type is String, String[] or int")
            return nil
        }
    }

    private mutating func intentCaller(_ node: Node) -> IntentRecipe.Caller? {
        if case .scalar(let scalar) = node {
            switch scalar.text {
            case "google": return .configured
            case "none": return IntentRecipe.Caller.none
            default:
                reader.error(at: scalar.location, "'caller' is google (the configured caller), none, or a block with package and signature")
                return nil
            }
        }
        guard let mapping = reader.mapping(node, "'caller'"),
            reader.checkKeys(mapping, allowed: ["package", "signature"], required: ["package", "signature"], in: "'caller'"),
            let package = mapping["package"].flatMap({ reader.scalar($0, "'package'") }).flatMap({ reader.template($0) }),
            let signature = mapping["signature"].flatMap({ reader.scalar($0, "'signature'") }).flatMap({ reader.template($0) })
        else { return nil }
        return .other(package: package, signature: signature)
    }
}
