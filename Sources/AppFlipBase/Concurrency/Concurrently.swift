import Dispatch
import Foundation

/// Independent pieces of work done at once, their results kept in order.
package enum Concurrently {
    /// `body` of every element, run at once on the machine's cores (`DispatchQueue.concurrentPerform`); the results
    /// in the elements' order. `body` must not share mutable state between elements.
    package static func map<Element: Sendable, Value: Sendable>(_ elements: [Element], _ body: @Sendable (Element) -> Value) -> [Value] {
        guard elements.count > 1 else { return elements.map(body) }
        let slots = Slots<Value>(count: elements.count)
        DispatchQueue.concurrentPerform(iterations: elements.count) { index in
            slots.set(body(elements[index]), at: index)
        }
        return slots.values
    }

    /// One result per element, filled from any thread.
    private final class Slots<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [Value?]

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func set(_ value: Value, at index: Int) {
            lock.lock()
            slots[index] = value
            lock.unlock()
        }

        /// Every slot's value (each was set: `concurrentPerform` returns when every iteration has).
        var values: [Value] {
            lock.lock()
            defer { lock.unlock() }
            return slots.compactMap { $0 }
        }
    }
}
