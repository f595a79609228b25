/// The strength of a requirement, as RFC 2119 words it; it decides what a violation costs.
public enum Level: String, Sendable, Hashable, CaseIterable, Comparable {
    case must = "MUST"
    case mustNot = "MUST NOT"
    case should = "SHOULD"
    case shouldNot = "SHOULD NOT"
    case may = "MAY"

    /// The verdict a violated check of this level yields: MUST and MUST NOT fail, SHOULD warns, MAY informs.
    package var violationVerdict: Verdict {
        switch self {
        case .must, .mustNot: .fail
        case .should, .shouldNot: .warn
        case .may: .info
        }
    }

    private var rank: Int {
        switch self {
        case .must, .mustNot: 0
        case .should, .shouldNot: 1
        case .may: 2
        }
    }

    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
}
