/// The outcome of a check or a case. Ordered from best to worst for "a case's verdict is its worst check".
public enum Verdict: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Every check held.
    case pass
    /// A MAY-level observation worth a reviewer's eye; never a failure.
    case info
    /// A SHOULD-level check did not hold.
    case warn
    /// The case did not apply to this run, or was marked skipped with a reason.
    case skip
    /// A MUST or MUST NOT check did not hold.
    case fail
    /// The target misbehaved (crash, timeout, unparsable answer): inconclusive, not a requirement failure.
    case error

    private var rank: Int {
        switch self {
        case .pass: 0
        case .info: 1
        case .warn: 2
        case .skip: 3
        case .fail: 4
        case .error: 5
        }
    }

    public static func < (lhs: Verdict, rhs: Verdict) -> Bool { lhs.rank < rhs.rank }
}
