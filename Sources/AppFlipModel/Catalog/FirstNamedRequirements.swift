/// Requirements each listed once, in the order first named: a case's, from its checks. A case names a handful, so a
/// linear search beats hashing their IDs; and checks name them in turn, several checks each, so the one found last
/// is looked at first (most checks are settled by one comparison of equal strings).
struct FirstNamedRequirements {
    private(set) var list: [RequirementReference]
    /// Where the last reference added or found is in `list`.
    private var last = 0

    /// `list` starts as `start`, each of which must be there once.
    init(_ start: [RequirementReference] = [], capacity: Int = 0) {
        list = start
        // Only when asked: reserving makes the array unique, a copy of a shared `start` that may get nothing added.
        if capacity > start.count { list.reserveCapacity(capacity) }
    }

    mutating func add(_ reference: RequirementReference) {
        if last < list.count && list[last] == reference { return }
        if let found = list.firstIndex(of: reference) {
            last = found
        } else {
            last = list.count
            list.append(reference)
        }
    }
}
