/// A check of any kind, as cases hold them.
public struct AnyCheck: Sendable, Hashable, CustomStringConvertible {
    package let base: any Check

    package init(_ base: any Check) {
        self.base = base
    }

    /// The key it was written under in `expect`.
    public var key: String { type(of: base).key }

    public var description: String { "\(key): \(base)" }

    public static func == (lhs: AnyCheck, rhs: AnyCheck) -> Bool { lhs.base.isEqual(to: rhs.base) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(base)
    }
}
