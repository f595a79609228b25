import AppFlipBase
import AppFlipModel
import AppFlipSyntax

/// Typed access to a parsed node tree that records a diagnostic for every mismatch instead of stopping.
package struct NodeReader {
    package var diagnostics: [Diagnostic] = []
    /// Set once a template read uses `${project_id}` or `${web_redirect_uri}` (a case loader clears it per case).
    package var usesProjectID = false
    /// Source text by file, for the offending line under each diagnostic.
    let lineText: (SourceLocation) -> String

    /// A reader for one document: each diagnostic shows its line of `bytes`.
    package init(document bytes: [UInt8]) {
        lineText = { location in SourceLines.line(location.line, of: bytes) }
    }

    package init(diagnostics: [Diagnostic] = [], lineText: @escaping (SourceLocation) -> String) {
        self.diagnostics = diagnostics
        self.lineText = lineText
    }

    package mutating func error(at location: SourceLocation, _ message: String) {
        diagnostics.append(Diagnostic(at: location, message, lineText: lineText(location)))
    }

    package mutating func mapping(_ node: Node, _ what: String) -> Node.Mapping? {
        if case .mapping(let mapping) = node { return mapping }
        error(at: node.location, "\(what) must be a mapping of 'key: value' entries, not \(node.kindName)")
        return nil
    }

    package mutating func sequence(_ node: Node, _ what: String) -> Node.Sequence? {
        if case .sequence(let sequence) = node { return sequence }
        error(at: node.location, "\(what) must be a list, not \(node.kindName)")
        return nil
    }

    package mutating func scalar(_ node: Node, _ what: String) -> Node.Scalar? {
        if case .scalar(let scalar) = node { return scalar }
        error(at: node.location, "\(what) must be a single value, not \(node.kindName)")
        return nil
    }

    /// A scalar or a one-item-per-entry list of scalars. A plain scalar that reads `[a, b]` (which only a table
    /// row's substitution can produce, since the parser reads a written `[` as a list) counts as that list.
    package mutating func scalarList(_ node: Node, _ what: String) -> [Node.Scalar]? {
        switch node {
        case .scalar(let scalar):
            if scalar.style == .plain, scalar.text.hasPrefix("["), scalar.text.hasSuffix("]") {
                return scalar.text.dropFirst().dropLast().split(separator: ",").map { item in
                    Node.Scalar(text: item.trimmingCharacters(in: .whitespaces), style: .plain, location: scalar.location)
                }
            }
            return [scalar]
        case .sequence(let sequence):
            var result: [Node.Scalar] = []
            for item in sequence.items {
                guard let scalar = scalar(item, "an item of \(what)") else { return nil }
                result.append(scalar)
            }
            return result
        case .mapping:
            error(at: node.location, "\(what) must be a value or a list of values, not a mapping")
            return nil
        }
    }

    /// Reports keys outside `allowed` (with a suggestion) and missing `required` keys. Returns false on any error.
    @discardableResult
    package mutating func checkKeys(_ mapping: Node.Mapping, allowed: [String], required: [String] = [], in what: String) -> Bool {
        var ok = true
        for entry in mapping.entries where !allowed.contains(entry.key.text) {
            let hint =
                Suggestion.closest(to: entry.key.text, among: allowed).map { " (did you mean '\($0)'?)" }
                ?? "; expected one of: \(allowed.joined(separator: ", "))"
            error(at: entry.key.location, "unknown key '\(entry.key.text)' in \(what)\(hint)")
            ok = false
        }
        for key in required where mapping[key] == nil {
            error(at: mapping.location, "\(what) is missing the required key '\(key)'")
            ok = false
        }
        return ok
    }

    package mutating func enumValue<T: RawRepresentable & CaseIterable>(_ node: Node, _ what: String, as type: T.Type) -> T?
    where T.RawValue == String {
        guard let scalar = scalar(node, what) else { return nil }
        if let value = T(rawValue: scalar.text) { return value }
        let names = T.allCases.map(\.rawValue)
        let hint = Suggestion.closest(to: scalar.text, among: names).map { " (did you mean '\($0)'?)" } ?? ""
        error(at: scalar.location, "'\(scalar.text)' is not a valid \(what)\(hint); expected one of: \(names.joined(separator: ", "))")
        return nil
    }

    /// Parses a scalar as a template, pointing a failure at the right column where the scalar is on one line.
    package mutating func template(_ scalar: Node.Scalar) -> Template? {
        do {
            let template = try Template.parse(scalar.text)
            if template.parts.contains(.variable(.projectID)) || template.parts.contains(.variable(.webRedirectURI)) { usesProjectID = true }
            return template
        } catch {
            var location = scalar.location
            if scalar.style == .plain { location.column += error.offset } else if scalar.style != .block { location.column += error.offset + 1 }
            self.error(at: location, error.message)
            return nil
        }
    }

    /// Reads a value that must be exactly one word (`finished: true`); false after a diagnostic naming it.
    package mutating func word(_ node: Node, _ key: String, is expected: String) -> Bool {
        guard let scalar = scalar(node, "'\(key)'") else { return false }
        guard scalar.text == expected else {
            error(at: scalar.location, "'\(key)' takes '\(expected)'")
            return false
        }
        return true
    }

    /// The name of a captured value that a sample check (`distinct`, `per_user`) reads; nil with a diagnostic.
    package mutating func capturedName(_ node: Node, _ key: String) -> String? {
        guard let scalar = scalar(node, "'\(key)'") else { return nil }
        guard !scalar.text.isEmpty else {
            error(at: scalar.location, "'\(key)' needs the name of a captured value")
            return nil
        }
        return scalar.text
    }

    package mutating func keyword(_ node: Node, _ key: String, _ word: String) -> Bool {
        guard let scalar = scalar(node, "'\(key)'") else { return false }
        guard scalar.text == word else {
            error(at: scalar.location, "'\(key)' takes '\(word)'")
            return false
        }
        return true
    }
}
