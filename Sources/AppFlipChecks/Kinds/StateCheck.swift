import AppFlipBase
import AppFlipModel
import AppFlipSyntax

/// `state: echoed | absent | echoed-if-present`: the state comes back exactly as it was sent.
package struct StateCheck: CheckKind {
    package static let key = "state"
    package static let documentation = CheckDocumentation(
        .answer, values: "`echoed`, `absent`, `echoed-if-present`",
        holdsWhen: "one `state` whose once-decoded bytes equal the sent state's once-decoded bytes / no `state` / either. "
            + "A raw `+` in the sent state may be read as a space (form encoding) or as a plus (RFC 3986, `URLComponents`): "
            + "an answer right under either reading holds, and the report says which reading the handler used")

    package enum Expectation: String, Sendable, Hashable, CaseIterable {
        case echoed
        case absent
        case echoedIfPresent = "echoed-if-present"
    }

    package var expectation: Expectation

    package static func read(_ node: Node, reader: inout NodeReader) -> [StateCheck]? {
        reader.enumValue(node, "state expectation", as: Expectation.self).map { [StateCheck(expectation: $0)] }
    }

    package var scope: CheckScope { expectation == .echoed ? .openedURL : .answer }

    package static var openedURLForm: String? { "`state: echoed`" }

    package func expected(in context: Template.Context) -> String {
        switch expectation {
        case .echoed: "state echoed byte for byte after one decoding"
        case .absent: "no state"
        case .echoedIfPresent: "state absent or echoed byte for byte"
        }
    }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard observation.openedURL != nil else { return .held(observed: "\(observation.nothingOpenedText), so no state") }
        let states = context.openedParameters(of: observation).all(named: "state")
        if states.isEmpty {
            return CheckOutcome(expectation != .echoed, "no state parameter")
        }
        if expectation == .absent {
            return .violated(observed: "state=\(ByteText.display(states[0].value ?? []))")
        }
        guard states.count == 1 else { return .violated(observed: "\(states.count) state parameters") }
        guard let value = states[0].value else {
            return .violated(observed: "the returned state has an invalid percent-escape: \(ByteText.display(String(states[0].rawValue ?? "")))")
        }
        let sentStates = context.sent.all(named: "state")
        guard sentStates.count == 1, let sent = sentStates[0].value else {
            return .violated(observed: "a state was returned, but the request did not carry exactly one decodable state")
        }
        if value == sent {
            let plus =
                sentStates[0].rawValue?.firstIndex(ofByte: UInt8(ascii: "+")) != nil
                ? " (the sent '+' read as a space, as form encoding reads it)" : ""
            return .held(observed: "state echoed (\(value.count) bytes)\(plus)")
        }
        // The App Flip pages never say the link is form-encoded, and Google's own samples read it with
        // URLComponents, where '+' stays a plus: that reading is correct too.
        if let raw = sentStates[0].rawValue, raw.firstIndex(ofByte: UInt8(ascii: "+")) != nil,
            let literal = FormEncoding.decode(raw, plusIsSpace: false), value == literal
        {
            return .held(observed: "state echoed (\(value.count) bytes), the sent '+' read as a plus (RFC 3986, as URLComponents reads it)")
        }
        let firstDifference = zip(value, sent).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(value.count, sent.count)
        return .violated(
            observed: "state is \(ByteText.display(value)) (\(value.count) bytes); sent \(ByteText.display(sent)) "
                + "(\(sent.count) bytes); first difference at byte \(firstDifference)")
    }
}
