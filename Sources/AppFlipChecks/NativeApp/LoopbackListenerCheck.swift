import AppFlipModel
import AppFlipSyntax

/// `loopback_listener: private`: for a loopback redirect, the app's listener took the browser's callback, listened on
/// loopback addresses only while the callback was pending, and no longer listened once the app had answered
/// (RFC 8252 §8.3). The addresses are read without connecting, where the platform can tell (Linux); not judged for
/// another redirect form.
package struct LoopbackListenerCheck: CheckKind {
    package static let key = "loopback_listener"
    package static let documentation = CheckDocumentation(
        .native, values: "`private`",
        holdsWhen:
            "the app's loopback listener took the browser's callback, listened on loopback addresses only, and was closed once the app answered (the addresses: Linux only)"
    )

    package static func read(_ node: Node, reader: inout NodeReader) -> [LoopbackListenerCheck]? {
        reader.keyword(node, key, "private") ? [LoopbackListenerCheck()] : nil
    }

    package var scope: CheckScope { .native }

    package var traits: CheckTraits { CheckTraits(judgesOnlyTheRequest: true) }

    package func expected(in context: Template.Context) -> String { "a listener on loopback only, closed after the callback" }

    package func evaluate(_ observation: Observation, in context: Template.Context) -> CheckOutcome {
        guard case .native(let native) = observation, native.command == .signIn else { return .notApplicable(reason: "not a sign-in step") }
        guard native.delivery?.hasPrefix("loopback") == true else { return .notApplicable(reason: "not a loopback redirect") }
        // A listener the browser could not use is the worst of listeners: the sign-in cannot end.
        if let undelivered = native.undelivered { return .violated(observed: undelivered + ": the redirect never reached the app") }
        guard let addresses = native.listenerAddresses else {
            return .notApplicable(reason: "this platform cannot read which addresses a port listens on")
        }
        var problems: [String] = []
        let exposed = addresses.filter { !NativeRedirectURI.isLoopbackAddress($0) }
        if !exposed.isEmpty { problems.append("listening on \(exposed.joined(separator: ", ")), reachable from the network") }
        if native.listenerOpenAfterCallback == true { problems.append("still listening after the callback") }
        return CheckOutcome(
            problems.isEmpty,
            problems.isEmpty
                ? "listening on \(addresses.isEmpty ? "(not seen)" : addresses.joined(separator: ", ")), closed after the callback"
                : problems.joined(separator: "; "))
    }
}
