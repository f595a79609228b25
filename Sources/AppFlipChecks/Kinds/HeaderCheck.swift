import AppFlipModel
import AppFlipRedaction
import AppFlipSyntax

/// `headers: {Name: present | absent | contains TEXT | starts TEXT}`: one check per named response header.
package struct HeaderCheck: HTTPResponseCheck {
    package static let key = "headers"
    package static let documentation = CheckDocumentation(
        .response, values: "`{Name: present / absent / contains TEXT / starts TEXT}`",
        holdsWhen: "each named header, compared case-insensitively")

    package enum Expectation: Sendable, Hashable {
        case present
        case absent
        /// Case-insensitive substring.
        case contains(String)
        /// Case-insensitive prefix.
        case startsWith(String)
    }

    package var name: String
    package var expectation: Expectation

    package static func read(_ node: Node, reader: inout NodeReader) -> [HeaderCheck]? {
        guard let mapping = reader.mapping(node, "'headers'") else { return nil }
        var result: [HeaderCheck] = []
        for entry in mapping.entries {
            guard let scalar = reader.scalar(entry.value, "header expectation") else { return nil }
            let text = scalar.text
            let expectation: Expectation
            if text == "present" {
                expectation = .present
            } else if text == "absent" {
                expectation = .absent
            } else if text.hasPrefix("contains "), text.count > 9 {
                expectation = .contains(String(text.dropFirst(9)))
            } else if text.hasPrefix("starts "), text.count > 7 {
                expectation = .startsWith(String(text.dropFirst(7)))
            } else {
                reader.error(at: scalar.location, "a header expectation is 'present', 'absent', 'contains TEXT' or 'starts TEXT'")
                return nil
            }
            result.append(HeaderCheck(name: entry.key.text, expectation: expectation))
        }
        return result
    }

    package var scope: CheckScope { .response }

    package func expected(in context: Template.Context) -> String {
        switch expectation {
        case .present: "header \(name) present"
        case .absent: "no \(name) header"
        case .contains(let text): "header \(name) contains \"\(text)\""
        case .startsWith(let text): "header \(name) starts with \"\(text)\""
        }
    }

    package func evaluate(_ response: HTTPObservation, in context: Template.Context) -> CheckOutcome {
        let values = response.headerValues(name)
        let shown = values.isEmpty ? "no \(name) header" : "\(name): " + values.map { Redaction.scrubText($0) }.joined(separator: ", ")
        switch expectation {
        case .present: return CheckOutcome(!values.isEmpty, shown)
        case .absent: return CheckOutcome(values.isEmpty, shown)
        case .contains(let text): return CheckOutcome(values.contains { $0.lowercased().contains(text.lowercased()) }, shown)
        case .startsWith(let text): return CheckOutcome(values.contains { $0.lowercased().hasPrefix(text.lowercased()) }, shown)
        }
    }
}
