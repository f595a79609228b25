import Foundation

/// A validator for the subset of JSON Schema (2020-12) our schemas use: type, const, enum, required, properties,
/// additionalProperties (false), items, pattern, minimum, maximum, minLength and local `$ref`s. A keyword outside
/// that subset is itself an error, so a schema can never pass by using something this validator ignores.
package struct JSONSchema {
    private let root: [String: Any]
    private static let annotations: Set<String> = ["$schema", "$id", "$defs", "title", "description"]
    private static let keywords: Set<String> = [
        "type", "const", "enum", "required", "properties", "additionalProperties", "items",
        "pattern", "minimum", "maximum", "minLength", "$ref",
    ]

    package init(contentsOf path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw NSError(domain: "JSONSchema", code: 1, userInfo: [NSLocalizedDescriptionKey: "the schema is not an object"])
        }
        self.root = root
    }

    /// Every violation, each with its JSON path; empty when the instance is valid.
    package func validate(_ data: Data) -> [String] {
        guard let instance = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return ["$: not JSON"] }
        var problems: [String] = []
        check(instance, against: root, at: "$", into: &problems)
        return problems
    }

    private func check(_ value: Any, against schema: [String: Any], at path: String, into problems: inout [String]) {
        for key in schema.keys where !Self.keywords.contains(key) && !Self.annotations.contains(key) {
            problems.append("\(path): the schema uses '\(key)', which this validator does not implement")
        }
        if let reference = schema["$ref"] as? String {
            guard let target = resolve(reference) else {
                problems.append("\(path): unresolvable $ref \(reference)")
                return
            }
            check(value, against: target, at: path, into: &problems)
        }
        if let type = schema["type"] as? String, !Self.matches(value, type: type) {
            problems.append("\(path): expected \(type), found \(Self.describe(value))")
            return
        }
        if let constant = schema["const"], !Self.equal(value, constant) {
            problems.append("\(path): expected \(constant), found \(Self.describe(value))")
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { Self.equal(value, $0) }) {
            problems.append("\(path): \(Self.describe(value)) is not one of \(options)")
        }
        if let text = value as? String {
            if let pattern = schema["pattern"] as? String, text.range(of: pattern, options: .regularExpression) == nil {
                problems.append("\(path): '\(text)' does not match \(pattern)")
            }
            if let minimum = schema["minLength"] as? Int, text.count < minimum {
                problems.append("\(path): shorter than \(minimum) characters")
            }
        }
        if let number = Self.number(value) {
            if let minimum = schema["minimum"].flatMap(Self.number), number < minimum { problems.append("\(path): \(number) < \(minimum)") }
            if let maximum = schema["maximum"].flatMap(Self.number), number > maximum { problems.append("\(path): \(number) > \(maximum)") }
        }
        if let object = value as? [String: Any] {
            for name in schema["required"] as? [String] ?? [] where object[name] == nil {
                problems.append("\(path): missing required member '\(name)'")
            }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (name, member) in object {
                if let memberSchema = properties[name] as? [String: Any] {
                    check(member, against: memberSchema, at: path + "." + name, into: &problems)
                } else if schema["additionalProperties"] as? Bool == false {
                    problems.append("\(path): unexpected member '\(name)'")
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, element) in array.enumerated() {
                check(element, against: items, at: "\(path)[\(index)]", into: &problems)
            }
        }
    }

    private func resolve(_ reference: String) -> [String: Any]? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: Any = root
        for component in reference.dropFirst(2).split(separator: "/") {
            guard let object = node as? [String: Any], let next = object[String(component)] else { return nil }
            node = next
        }
        return node as? [String: Any]
    }

    /// JSON true and false arrive as NSNumber's boolean subclass on Linux and macOS alike.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    private static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return ObjectIdentifier(type(of: number)) == booleanClass
    }

    private static func number(_ value: Any) -> Double? {
        guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
        return number.doubleValue
    }

    private static func matches(_ value: Any, type: String) -> Bool {
        switch type {
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "boolean": return isBoolean(value)
        case "number": return number(value) != nil
        case "integer": return number(value).map { $0.rounded() == $0 } ?? false
        case "null": return value is NSNull
        default: return false
        }
    }

    private static func equal(_ lhs: Any, _ rhs: Any) -> Bool {
        if let left = lhs as? String, let right = rhs as? String { return left == right }
        if isBoolean(lhs) || isBoolean(rhs) { return isBoolean(lhs) && isBoolean(rhs) && (lhs as? Bool) == (rhs as? Bool) }
        if let left = number(lhs), let right = number(rhs) { return left == right }
        return false
    }

    private static func describe(_ value: Any) -> String {
        if value is String { return "a string" }
        if isBoolean(value) { return "a boolean" }
        if number(value) != nil { return "a number" }
        if value is [Any] { return "an array" }
        if value is [String: Any] { return "an object" }
        return "null"
    }
}
