import AppFlipBase
import AppFlipModel
import AppFlipRedaction
import AppFlipSyntax

/// `code: present | fresh | absent`: one well-formed authorization code, or none. `fresh` is `present`, and the
/// runner also checks, across the whole run, that no other `fresh` answer carried the same code and that the codes
/// together carry at least 128 bits of entropy (RFC 6749 §10.10): a code that repeats cannot be single-use.
package struct CodeCheck: CheckKind {
    package static let key = "code"
    package static let documentation = CheckDocumentation(
        .answer, values: "`present`, `fresh`, `absent`",
        holdsWhen: "exactly one non-empty `code` of visible ASCII (RFC 6749 App. A.11) / the same, and after the run: no other `fresh` "
            + "answer carried the same code, and the run's fresh codes carry at least 128 bits of entropy / no `code` (also when nothing was opened)")

    package enum Expectation: String, Sendable, Hashable, CaseIterable {
        case present
        case fresh
        case absent
    }

    package var presence: Expectation

    package static func read(_ node: Node, reader: inout NodeReader) -> [CodeCheck]? {
        reader.enumValue(node, "code expectation", as: Expectation.self).map { [CodeCheck(presence: $0)] }
    }

    package var scope: CheckScope { presence == .absent ? .answer : .openedURL }

    package var traits: CheckTraits { CheckTraits(recordsIssuedCode: presence == .fresh) }

    package static var openedURLForm: String? { "`code: present`" }

    package func expected(in context: Template.Context) -> String {
        switch presence {
        case .present: "exactly one non-empty code of visible ASCII characters"
        case .fresh: "exactly one non-empty code of visible ASCII characters, not seen before in this run"
        case .absent: "no code"
        }
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard observation.openedURL != nil else { return .held(observed: "\(observation.nothingOpenedText), so no code") }
        let codes = context.openedParameters(of: observation).all(named: "code")
        switch presence {
        case .absent:
            return CheckOutcome(codes.isEmpty, codes.isEmpty ? "no code" : "\(codes.count) code parameter(s)")
        case .present, .fresh:
            guard codes.count == 1 else { return .violated(observed: codes.isEmpty ? "no code parameter" : "\(codes.count) code parameters") }
            guard let value = codes[0].value else { return .violated(observed: "the code has an invalid percent-escape") }
            guard !value.isEmpty else { return .violated(observed: "the code is empty") }
            guard value.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                return .violated(observed: "the code has characters outside visible ASCII (RFC 6749 App. A.11): \(Redaction.placeholder(for: value))")
            }
            return .held(observed: "one code, \(Redaction.placeholder(for: value))")
        }
    }
}

/// `present` or `absent`.
package enum Presence: String, Sendable, Hashable, CaseIterable {
    case present
    case absent
}
