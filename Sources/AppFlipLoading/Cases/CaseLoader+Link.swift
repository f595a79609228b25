import AppFlipModel
import AppFlipSyntax
import Foundation

/// Reading link and query recipes (`link:`, `query:`, `form:`).
extension CaseLoader {
    mutating func linkRecipe(_ node: Node, defaultBase: ParameterBase, what: String = "'link'") -> LinkRecipe? {
        if case .scalar(let scalar) = node {
            guard scalar.text == "base" else {
                reader.error(at: scalar.location, "\(what) is 'base' (the valid parameters) or a block of edits")
                return nil
            }
            return .base(defaultBase)
        }
        guard let mapping = reader.mapping(node, what) else { return nil }
        let allowed = ["base", "set", "set_raw", "remove", "append", "append_raw", "order", "query", "fragment", "raw"]
        guard reader.checkKeys(mapping, allowed: allowed, in: what) else { return nil }
        var recipe = LinkRecipe.base(defaultBase)
        if let baseNode = mapping["base"] {
            if let base = reader.enumValue(baseNode, "parameter base", as: ParameterBase.self) { recipe.base = base }
        }
        let before = reader.diagnostics.count
        if let raw = mapping["raw"] {
            if mapping.entries.count > 1 {
                reader.error(at: raw.location, "'raw' gives the whole link; it cannot be combined with other edits")
            }
            recipe.raw = reader.scalar(raw, "'raw'").flatMap { linkTemplate($0) }
        }
        if let query = mapping["query"] {
            for other in ["set", "set_raw", "remove", "append", "append_raw", "order"] where mapping[other] != nil {
                reader.error(at: query.location, "'query' gives the exact query; it cannot be combined with '\(other)'")
            }
            recipe.query = reader.scalar(query, "'query'").flatMap { linkTemplate($0) }
        }
        if let fragment = mapping["fragment"] {
            recipe.fragment = reader.scalar(fragment, "'fragment'").flatMap { linkTemplate($0) }
        }
        if let remove = mapping["remove"] {
            recipe.remove = reader.scalarList(remove, "'remove'")?.map(\.text) ?? []
        }
        if let order = mapping["order"] {
            recipe.order = reader.scalarList(order, "'order'")?.map(\.text) ?? []
        }
        recipe.set = parameters(mapping["set"], "set", raw: false) + parameters(mapping["set_raw"], "set_raw", raw: true)
        recipe.append = appended(mapping["append"], "append", raw: false) + appended(mapping["append_raw"], "append_raw", raw: true)
        return reader.diagnostics.count == before ? recipe : nil
    }

    /// A template used to build the link: it cannot refer to the link itself.
    mutating func linkTemplate(_ scalar: Node.Scalar) -> Template? {
        guard let template = reader.template(scalar) else { return nil }
        if template.refersToSentLink {
            reader.error(at: scalar.location, "'${sent.…}' refers to the link that was sent; it can be used in 'expect', not in 'link'")
            return nil
        }
        return template
    }

    /// `set: {name: value, …}`.
    mutating func parameters(_ node: Node?, _ what: String, raw: Bool) -> [LinkRecipe.Parameter] {
        guard let node, let mapping = reader.mapping(node, "'\(what)'") else { return [] }
        return mapping.entries.compactMap { entry in
            guard let scalar = reader.scalar(entry.value, "the value of '\(entry.key.text)'"),
                let template = linkTemplate(scalar)
            else { return nil }
            return LinkRecipe.Parameter(name: entry.key.text, value: template, isRaw: raw)
        }
    }

    /// `append: [{name: value}, …]`: a list, because a name may repeat.
    mutating func appended(_ node: Node?, _ what: String, raw: Bool) -> [LinkRecipe.Parameter] {
        guard let node, let list = reader.sequence(node, "'\(what)'") else { return [] }
        var result: [LinkRecipe.Parameter] = []
        for item in list.items {
            guard let mapping = reader.mapping(item, "an item of '\(what)' (write '- name: value')") else { continue }
            result += parameters(.mapping(mapping), what, raw: raw)
        }
        return result
    }

}
