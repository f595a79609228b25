import AppFlipBase
import Foundation

/// The texts of one run's recorded checks, each kept once and named by a number. A run of 100,000 cases keeps a
/// million checks whose requirement IDs, expectations and observations are mostly the same few hundred texts:
/// numbered here, a check takes 16 bytes (`PackedChecks`) instead of 64 plus a copy of every text built for it.
///
/// Belongs to one run (`Runner.run` makes it), so a process that runs many suites keeps no texts of past runs
/// beyond the results that still use them. Safe to use from every worker's judging thread at once; readers (the
/// three report writers at once) do not wait for each other.
package final class TextTable: @unchecked Sendable {
    /// Written under the write lock, read under the read lock (POSIX, on Linux and macOS alike).
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private var texts: [String] = []
    /// By bytes (`ByteKey`): two equivalent texts of other bytes are two texts, each given back as recorded.
    private var numbers: [ByteKey: UInt32] = [:]

    package init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// How many distinct texts the table holds.
    package var count: Int {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return texts.count
    }

    /// Numbers `body` the texts it asks for, under one lock; nil (nothing numbered) when the table cannot number
    /// `atMost` more texts.
    func numbering<Result>(atMost: Int, _ body: (_ number: (String) -> UInt32) -> Result) -> Result? {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        guard texts.count <= Int(UInt32.max) - atMost else { return nil }
        return body { text in
            let key = ByteKey(text)
            if let number = numbers[key] { return number }
            let number = UInt32(texts.count)
            texts.append(text)
            numbers[key] = number
            return number
        }
    }

    /// Reads texts by number under one lock. Every number read was handed out by `numbering` of this table.
    func reading<Result>(_ body: (_ text: (UInt32) -> String) -> Result) -> Result {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return body { texts[Int($0)] }
    }
}
