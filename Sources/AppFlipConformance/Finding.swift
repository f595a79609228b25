/// One check that applied and did not hold: the requirement it checks, at its level, what was expected and what
/// the target did.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// The requirement's ID in the catalog, e.g. `AF-LINK-004`.
    public var requirement: String
    public var level: Level
    public var expected: String
    public var observed: String
    /// `fail` for a MUST or MUST NOT, `warn` for a SHOULD, `info` for a MAY.
    public var verdict: Verdict

    public var description: String {
        "\(requirement) \(level.rawValue): expected \(expected); observed \(observed)"
    }
}
