import AppFlipBase

/// One typed value of an Android intent's extras, as the Android adapter contract carries it:
/// `{"type": "String", "value": "…"}`. The type travels with the value because it is part of the contract: an
/// `ERROR_TYPE` put as a String is read by Google's `getIntExtra` as its default, "recoverable".
package enum IntentExtra: Sendable, Hashable {
    case string(String)
    case stringArray([String])
    case int(Int)
    /// Any other type a handler reported (`long`, `boolean`, `ArrayList<String>`…), its value kept as JSON text.
    case other(type: String, json: String)

    /// The contract's name of the type: `String`, `String[]`, `int`, or what the handler wrote.
    package var typeName: String {
        switch self {
        case .string: "String"
        case .stringArray: "String[]"
        case .int: "int"
        case .other(let type, _): type
        }
    }

    /// The value as a String extra, or nil when it is of another type.
    package var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value as an int extra, or nil when it is of another type.
    package var int: Int? {
        if case .int(let number) = self { return number }
        return nil
    }

    /// `{"type":"…","value":…}` appended as JSON.
    package func appendJSON(to output: inout [UInt8]) {
        output.append(contentsOf: Array(#"{"type":"#.utf8))
        JSONText.appendString(typeName, to: &output)
        output.append(contentsOf: Array(#","value":"#.utf8))
        switch self {
        case .string(let text):
            JSONText.appendString(text, to: &output)
        case .stringArray(let items):
            output.append(0x5B)
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(0x2C) }
                JSONText.appendString(item, to: &output)
            }
            output.append(0x5D)
        case .int(let number):
            output.append(contentsOf: Array(String(number).utf8))
        case .other(_, let json):
            output.append(contentsOf: Array(json.utf8))
        }
        output.append(0x7D)
    }

    /// Reads `{"type": …, "value": …}`; nil with why when it is not of that form or the value does not fit its type.
    package static func read(_ value: JSONReader.Value) -> Result<IntentExtra, ReadError> {
        guard case .object = value else { return .failure(ReadError("is not an object {\"type\": …, \"value\": …}")) }
        guard let type = value.member("type")?.string else { return .failure(ReadError("has no string \"type\"")) }
        guard let content = value.member("value") else { return .failure(ReadError("has no \"value\"")) }
        switch type {
        case "String":
            guard case .string(let text) = content else { return .failure(ReadError("is a String whose value is not a JSON string")) }
            return .success(.string(text))
        case "String[]":
            guard case .array(let items) = content else { return .failure(ReadError("is a String[] whose value is not a JSON array")) }
            var strings: [String] = []
            for item in items {
                guard case .string(let text) = item else { return .failure(ReadError("is a String[] with an element that is not a string")) }
                strings.append(text)
            }
            return .success(.stringArray(strings))
        case "int":
            guard case .number(let text) = content, let number = Int32(text) else {
                return .failure(ReadError("is an int whose value is not a 32-bit integer"))
            }
            return .success(.int(Int(number)))
        default:
            return .success(.other(type: type, json: content.jsonText))
        }
    }

    package struct ReadError: Error, Sendable {
        package var message: String
        init(_ message: String) { self.message = message }
    }

    /// How evidence shows it: `String "abc"`, `int 3`, `String[] ["a", "b"]`.
    package var display: String {
        switch self {
        case .string(let text): "String " + ByteText.display(text, limit: 200)
        case .stringArray(let items):
            "String[] [" + items.prefix(10).map { ByteText.display($0, limit: 80) }.joined(separator: ", ")
                + (items.count > 10 ? ", … \(items.count) in all" : "") + "]"
        case .int(let number): "int \(number)"
        case .other(let type, let json): ByteText.display(type, limit: 40) + " " + (json.count > 200 ? String(json.prefix(200)) + "…" : json)
        }
    }
}

/// An extra with its name, as an intent or a result carries it (in order; a name may repeat).
package struct NamedExtra: Sendable, Hashable {
    package var name: String
    package var value: IntentExtra

    package init(_ name: String, _ value: IntentExtra) {
        self.name = name
        self.value = value
    }
}
