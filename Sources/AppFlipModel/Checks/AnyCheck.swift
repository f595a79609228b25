/// A check of any kind, as cases hold them.
package struct AnyCheck: Sendable, Hashable, CustomStringConvertible {
    package let base: any Check

    package init(_ base: any Check) {
        self.base = base
    }

    /// The key it was written under in `expect`.
    package var key: String { type(of: base).key }

    package var description: String { "\(key): \(base)" }

    package static func == (lhs: AnyCheck, rhs: AnyCheck) -> Bool { lhs.base.isEqual(to: rhs.base) }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(base)
    }
}
