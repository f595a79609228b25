import AppFlipBase
import AppFlipDefects
import Foundation

/// Runs detection jobs on a fixed number of threads, longest families first, reporting each outcome as it ends.
enum DetectionPool {
    /// Every defect's outcome, in the catalog's order.
    static func run(
        _ defects: [Defect], jobs: Int, seed: UInt64, programs: DetectionPrograms, work: URL,
        finished: @escaping @Sendable (DetectionOutcome) -> Void
    ) -> [DetectionOutcome] {
        // Native clients and servers take longest: started first, so the pool does not end on one long run.
        let order = defects.indices.sorted { defects[$0].family.weight > defects[$1].family.weight }
        let next = Locked(0)
        let outcomes = Locked<[Int: DetectionOutcome]>([:])
        let group = DispatchGroup()
        for _ in 0..<min(jobs, defects.count) {
            group.enter()
            Thread.detachNewThread {
                while true {
                    let taken = next.withLock { value -> Int? in
                        guard value < order.count else { return nil }
                        value += 1
                        return value - 1
                    }
                    guard let taken else { break }
                    let index = order[taken]
                    let defect = defects[index]
                    let directory = work.appendingPathComponent(
                        defect.id.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: " ", with: "").replacingOccurrences(
                            of: "(", with: "-"
                        )
                        .replacingOccurrences(of: ")", with: ""))
                    let job = DetectionJob(defect: defect, programs: programs, seed: seed, limit: 600)
                    let outcome = job.run(in: directory)
                    outcomes.withLock { $0[index] = outcome }
                    finished(outcome)
                }
                group.leave()
            }
        }
        group.wait()
        return outcomes.withLock { found in defects.indices.compactMap { found[$0] } }
    }
}
