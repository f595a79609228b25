/// A redirect that never reached the native app because its loopback listener could not be used (NAT-REDIR-004-S,
/// SHOULD): the browser's GET found no listener, or one that answered nothing while the app said nothing. Added by
/// the suite to the case whatever its own checks say: what needed the callback is not judged, and the case says why
/// under the requirement the app's listener breaks, never as a case error.
package enum UndeliveredRedirect {
    package static let requirement = RequirementReference(id: "NAT-REDIR-004-S", level: .should)

    package static func check(_ why: String) -> CheckResult {
        CheckResult(
            requirement: requirement, expected: "a loopback listener that takes the browser's callback",
            observed: why + ": the redirect never reached the app", verdict: .warn)
    }
}
