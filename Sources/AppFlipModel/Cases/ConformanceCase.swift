import AppFlipSyntax

public typealias SourceLocationValue = SourceLocation

/// One test case: a link to send, what the simulated user does, and the checks that judge the answer.
public struct ConformanceCase: Sendable, Hashable, Identifiable {
    /// Stable, written in the case file (never positional): `app-link/redirect-uri/lookalike-suffix-host`.
    public var id: String
    public var title: String
    public var profile: Profile
    public var scenario: Scenario
    public var link: LinkRecipe
    public var checks: [CheckGroup]
    /// When set, the case is reported as skipped with this reason and not sent.
    public var skipReason: String?
    /// Where the case (or, for a table, its row) is written.
    public var location: SourceLocation
    /// The case file's directory under the cases root, e.g. `app-link/redirect-uri`.
    public var group: String

    public init(id: String, title: String, profile: Profile, scenario: Scenario, link: LinkRecipe,
                checks: [CheckGroup], skipReason: String? = nil, location: SourceLocation, group: String) {
        self.id = id
        self.title = title
        self.profile = profile
        self.scenario = scenario
        self.link = link
        self.checks = checks
        self.skipReason = skipReason
        self.location = location
        self.group = group
    }

    /// The requirements the case checks, in the order first named.
    public var requirements: [RequirementReference] {
        var seen = Set<RequirementReference>()
        return checks.map(\.requirement).filter { seen.insert($0).inserted }
    }
}
