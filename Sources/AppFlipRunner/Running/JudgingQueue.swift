import Foundation

/// Work a worker hands to its judging thread: done one item at a time, in the order handed over. A worker that
/// runs ahead by `capacity` items waits, so a slow judge never lets exchanges pile up in memory.
final class JudgingQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [@Sendable () -> Void] = []
    private var head = 0
    private var closed = false
    private let capacity: Int

    init(capacity: Int = 4) {
        self.capacity = max(1, capacity)
    }

    /// Hands over one item; waits while `capacity` items are already waiting.
    func push(_ item: @escaping @Sendable () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head >= capacity { condition.wait() }
        items.append(item)
        condition.broadcast()
    }

    /// No more items: `drain` returns once those handed over are done.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Does every item as it comes, until the queue is closed and empty (on the judging thread).
    func drain() {
        while let item = next() { item() }
    }

    private func next() -> (@Sendable () -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && !closed { condition.wait() }
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        condition.broadcast()
        return item
    }
}
