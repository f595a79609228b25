import AppFlipBase
import Foundation

/// The processes of one target's run, as one unit to end: its registered groups and every process carrying one of
/// its marks. Scopes keep two runs in one process (a library user, the in-process command tests) from ending each
/// other's handlers; a signal that ends the whole process ends every scope at once.
package struct ContainmentScope: Sendable, Hashable {
    /// Unique within this process.
    package let id: Int

    private static let last = Locked(0)

    /// A scope no other target in this process shares.
    package static func make() -> ContainmentScope {
        last.withLock { last in
            last += 1
            return ContainmentScope(id: last)
        }
    }

    private init(id: Int) { self.id = id }
}
