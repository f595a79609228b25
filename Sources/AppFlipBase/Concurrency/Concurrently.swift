import Dispatch
import Foundation

/// Independent pieces of work done at once, their results kept in order.
package enum Concurrently {
    /// `body` of every element, run at once on the machine's cores (`DispatchQueue.concurrentPerform`); the results
    /// in the elements' order. `body` must not share mutable state between elements.
    package static func map<Element: Sendable, Value: Sendable>(_ elements: [Element], _ body: @Sendable (Element) -> Value) -> [Value] {
        guard elements.count > 1 else { return elements.map(body) }
        // One result per element, filled from any thread; each is set when `concurrentPerform` returns.
        let slots = Locked<[Value?]>(Array(repeating: nil, count: elements.count))
        DispatchQueue.concurrentPerform(iterations: elements.count) { index in
            let value = body(elements[index])
            slots.withLock { $0[index] = value }
        }
        return slots.withLock { $0.compactMap { $0 } }
    }
}
