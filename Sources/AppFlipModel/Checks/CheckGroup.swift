/// The expectations of one check group: all checks must hold, or one of several alternatives must.
package enum Expectation: Sendable, Hashable {
    case all([AnyCheck])
    case oneOf([[AnyCheck]])

    /// Every check, alternatives included.
    package var checks: [AnyCheck] {
        switch self {
        case .all(let checks): checks
        case .oneOf(let alternatives): alternatives.flatMap { $0 }
        }
    }
}

/// A requirement and the expectations that test it. One case may carry several, at different levels; each
/// grades at its own requirement's level.
package struct CheckGroup: Sendable, Hashable {
    package var requirement: RequirementReference
    package var expectation: Expectation
    package var location: SourceLocationValue
    /// `setup: true`: the check guards the way to what the case tests (a code was issued, a token came back), and
    /// is not what the case tests. When every check that is not setup could not apply, the case is skipped with the
    /// reason, never passed on its setup alone.
    package var isSetup = false
    /// `when_status`: the group is judged only on a response this check holds for (what a success must carry is not
    /// asked of a refusal); on any other answer each of its checks is not applicable. Another group of the step judges
    /// the status itself, so a refusal fails there.
    package var condition: AnyCheck?

    package init(
        requirement: RequirementReference, expectation: Expectation, location: SourceLocationValue, isSetup: Bool = false,
        condition: AnyCheck? = nil
    ) {
        self.requirement = requirement
        self.expectation = expectation
        self.location = location
        self.isSetup = isSetup
        self.condition = condition
    }
}
