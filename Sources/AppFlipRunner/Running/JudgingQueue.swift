import Foundation

/// Work a worker hands to its judging thread: done one item at a time, in the order handed over. A worker that
/// runs ahead by `capacity` items waits, so a slow judge never lets exchanges pile up in memory.
///
/// The worker that waits is woken once the judge has worked the queue down to half its capacity, not at every
/// item: when judging is the loop's bottleneck the worker is ahead all the time, and waking it for each item cost
/// the judging thread a system call a case. Either side is woken only when it waits.
/// Unchecked Sendable: every field is read and written with its `NSCondition` locked.
final class JudgingQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [@Sendable () -> Void] = []
    private var head = 0
    private var closed = false
    private let capacity: Int
    /// How few items may wait before a worker that waits for room is woken.
    private let lowWater: Int
    private var workerWaits = false
    private var judgeWaits = false

    init(capacity: Int = 8) {
        self.capacity = max(1, capacity)
        lowWater = self.capacity / 2
    }

    /// Hands over one item; once `capacity` items are waiting, waits until the judge has done half of them.
    func push(_ item: @escaping @Sendable () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        if items.count - head >= capacity {
            workerWaits = true
            while items.count - head > lowWater { condition.wait() }
            workerWaits = false
        }
        items.append(item)
        if judgeWaits { condition.broadcast() }
    }

    /// Whether the judge is behind its worker: half the queue or more waits. A worker then does ahead, on its own
    /// thread, what the judging of its next case needs of the exchange alone (`StepExecutor.readsAhead`).
    var isBehind: Bool {
        condition.lock()
        defer { condition.unlock() }
        return items.count - head >= lowWater
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
        while head == items.count && !closed {
            judgeWaits = true
            condition.wait()
            judgeWaits = false
        }
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        if workerWaits, items.count - head <= lowWater { condition.broadcast() }
        return item
    }
}
