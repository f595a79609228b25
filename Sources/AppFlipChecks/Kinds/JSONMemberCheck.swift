import AppFlipBase
import AppFlipModel
import AppFlipRedaction
import AppFlipSyntax
import Foundation

/// `json: {member: …}`: one check per top-level member of a JSON response body.
package struct JSONMemberCheck: HTTPResponseCheck {
    package static let key = "json"
    package static let documentation = CheckDocumentation(
        .response, values: "`{member: present / absent / positive-integer / not-jwt / is VALUE / is-any-case VALUE / scopes VALUE / [values]}`",
        holdsWhen:
            "each top-level member of the JSON body (`absent` also holds when the body is not JSON; `scopes` compares space-separated scope sets, in any order, and takes variables)"
    )

    package enum Expectation: Sendable, Hashable {
        /// A non-empty string (or a number).
        case present
        case absent
        case equals(String)
        case equalsIgnoringCase(String)
        case oneOf(Set<String>)
        /// A JSON number that is a whole number above zero.
        case positiveInteger
        /// A string that is not a JWT: not three base64url segments whose first decodes to a JSON object with `alg`.
        case notJWT
        /// A space-separated list of scopes equal, as a set, to the template's (RFC 6749 §3.3: order is not meaningful).
        case scopes(Template)
    }

    package var member: String
    package var expectation: Expectation

    package static func read(_ node: Node, reader: inout NodeReader) -> [JSONMemberCheck]? {
        guard let mapping = reader.mapping(node, "'json'") else { return nil }
        var result: [JSONMemberCheck] = []
        for entry in mapping.entries {
            var isList = false
            if case .sequence = entry.value { isList = true }
            if case .scalar(let scalar) = entry.value, scalar.style == .plain, scalar.text.hasPrefix("[") { isList = true }
            if isList {
                guard let values = reader.scalarList(entry.value, "JSON values"), !values.isEmpty else { return nil }
                result.append(JSONMemberCheck(member: entry.key.text, expectation: .oneOf(Set(values.map(\.text)))))
                continue
            }
            guard let scalar = reader.scalar(entry.value, "JSON expectation") else { return nil }
            let text = scalar.text
            let expectation: Expectation
            switch text {
            case "present": expectation = .present
            case "absent": expectation = .absent
            case "positive-integer": expectation = .positiveInteger
            case "not-jwt": expectation = .notJWT
            default:
                if text.hasPrefix("is-any-case "), text.count > 12 {
                    expectation = .equalsIgnoringCase(String(text.dropFirst(12)))
                } else if text.hasPrefix("is "), text.count > 3 {
                    expectation = .equals(String(text.dropFirst(3)))
                } else if text.hasPrefix("scopes "), text.count > 7 {
                    var rest = scalar
                    rest.text = String(text.dropFirst(7))
                    if rest.style == .plain { rest.location.column += 7 }
                    guard let template = reader.template(rest) else { return nil }
                    expectation = .scopes(template)
                } else {
                    reader.error(
                        at: scalar.location,
                        "a JSON expectation is 'present', 'absent', 'positive-integer', 'not-jwt', 'is VALUE', 'is-any-case VALUE', 'scopes VALUE' or a list of values"
                    )
                    return nil
                }
            }
            result.append(JSONMemberCheck(member: entry.key.text, expectation: expectation))
        }
        return result
    }

    package var scope: CheckScope { .response }

    package func expected(in context: Template.Context) -> String {
        switch expectation {
        case .present: "JSON member \(member) present and not empty"
        case .absent: "no JSON member \(member)"
        case .equals(let text): "JSON \(member) = \"\(text)\""
        case .equalsIgnoringCase(let text): "JSON \(member) = \"\(text)\" (any case)"
        case .oneOf(let values): "JSON \(member) one of \(values.sorted().joined(separator: ", "))"
        case .positiveInteger: "JSON \(member) a whole number above 0"
        case .notJWT: "JSON \(member) is not a JWT"
        case .scopes(let template): "JSON \(member) lists the scopes \"\(template.resolve(in: context))\" (any order)"
        }
    }

    package func evaluate(_ response: HTTPObservation, in context: Template.Context) -> CheckOutcome {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] else {
            if case .absent = expectation { return .held(observed: "no JSON object, so no member \(member)") }
            return .violated(
                observed: "the body is not a JSON object (\(response.body.count) bytes, Content-Type \(response.header("Content-Type") ?? "none"))")
        }
        let value = object[member]
        let text: String?
        var isInteger = false
        switch value {
        case let string as String:
            text = string
        case let number as NSNumber:
            let isBool = String(cString: number.objCType) == "c"
            text = isBool ? (number.boolValue ? "true" : "false") : number.stringValue
            isInteger = !isBool && number.doubleValue == number.doubleValue.rounded()
        case nil:
            text = nil
        default:
            text = "(\(type(of: value as Any)))"
        }
        let sensitive = Redaction.sensitiveParameters.contains(member.lowercased())
        let shown = text.map { sensitive ? Redaction.placeholder(for: Array($0.utf8)) : ByteText.display($0, limit: 80) }
        let observed = shown.map { "\(member) = \($0)" } ?? "no member \(member)"
        switch expectation {
        case .present: return CheckOutcome(!(text ?? "").isEmpty, observed)
        case .absent: return CheckOutcome(value == nil, observed)
        case .equals(let expected): return CheckOutcome(text == expected, observed)
        case .equalsIgnoringCase(let expected): return CheckOutcome(text?.lowercased() == expected.lowercased(), observed)
        case .oneOf(let values): return CheckOutcome(text.map(values.contains) ?? false, observed)
        case .positiveInteger: return CheckOutcome(isInteger && ((value as? NSNumber)?.doubleValue ?? 0) >= 1, observed)
        case .scopes(let template):
            let wanted = Set(template.resolve(in: context).split(separator: " ").map(String.init))
            let listed = text.map { Set($0.split(separator: " ").map(String.init)) }
            return CheckOutcome(listed == wanted, observed)
        case .notJWT:
            guard let text else { return .notApplicable(reason: "no member \(member)") }
            let header = Self.jwtHeader(text)
            return CheckOutcome(
                header == nil, header.map { "\(member) is a JWT (header \(ByteText.display($0, limit: 60)))" } ?? "\(member) is not a JWT")
        }
    }

    /// The decoded JOSE header when `token` has the shape of a JWT, else nil.
    static func jwtHeader(_ token: String) -> String? {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { return nil }
        var base64 = segments[0].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], object["alg"] != nil
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
