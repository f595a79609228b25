import Foundation

/// Waits for an event (a process started, a connection made) instead of for a fixed time: polls `condition` until
/// it holds, or until `ceiling` seconds, a bound generous enough that only a hang reaches it on a loaded machine.
package enum Waiting {
    @discardableResult
    package static func until(ceiling: Double = 60, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(ceiling)
        while !condition() {
            if Date() >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }
}
