import AppFlipBase
import AppFlipModel
import AppFlipSystem
import Foundation

extension Runner {
    /// One run's order and shared state: which case each worker takes next, the results as they finish, what the
    /// run judges across cases at the end (codes issued, configured credentials). Cases that run last (a burst that
    /// may set off the server's throttling) wait until every other case has finished, then run one at a time.
    final class Schedule: Sendable {
        private let runner: Runner
        private let cases: [ConformanceCase]
        private let targets: TargetUnderTest
        private let shouldStop: @Sendable () -> Bool
        private let progress: @Sendable (CaseResult) -> Void
        /// Cases that wait, each on a thread of its own.
        let waiting: [Int]
        /// The other cases in the order workers take them, those that run last at the end.
        let order: [Int]
        private let lastPhase: Int
        private let earlierDone = DispatchGroup()
        private let alone = Locked(())
        private let collected: Locked<[CaseResult?]>
        private let issuedCodes = IssuedCodeLedger()
        private let credentials = Locked<[Int: ConfiguredCredentials]>([:])
        private let next = Locked(0)
        /// Cases stored but not yet reported to `progress`, because their verdict may still change: a worker's latest
        /// case (the next exchange on its connection may show a fault of this one) and a case judged again across
        /// the run at the end (codes issued, configured credentials). `progress` sees only final verdicts.
        private let held: Locked<Held>
        private let reporting = Locked(())
        /// How many cases were stored, and every how many the allocator's free pages go back to the system.
        private let recorded = Locked(0)
        private static let releaseInterval = 2048
        /// Where recorded results keep their texts (nil when no temporary file could be made: then in memory).
        private let spool = ResultSpool.temporary()

        init(
            runner: Runner, cases: [ConformanceCase], targets: TargetUnderTest, shouldStop: @escaping @Sendable () -> Bool,
            progress: @escaping @Sendable (CaseResult) -> Void
        ) {
            self.runner = runner
            self.cases = cases
            self.targets = targets
            self.shouldStop = shouldStop
            self.progress = progress
            collected = Locked(Array(repeating: nil, count: cases.count))
            held = Locked(Held(cases: cases.count))
            waiting = cases.indices.filter { cases[$0].waits && !cases[$0].runsLast }
            order = cases.indices.filter { !cases[$0].waits && !cases[$0].runsLast } + cases.indices.filter { cases[$0].runsLast }
            lastPhase = order.count - cases.indices.filter { cases[$0].runsLast }.count
            for _ in 0..<(lastPhase + waiting.count) { earlierDone.enter() }
        }

        /// A waiting case, on its own thread and worker.
        func runWaiting(_ caseIndex: Int) {
            let worker = Worker(runner: runner, targets: targets)
            defer { worker.close() }
            defer { earlierDone.leave() }
            if shouldStop() { return }
            store(caseIndex, worker.start(cases[caseIndex], judgingApart: false).finish(), previous: nil, followed: false)
        }

        /// One worker: takes the next case until none is left (or the run stops), its judging on `judging`.
        func runWorker(judging: JudgingQueue) {
            let worker = Worker(runner: runner, targets: targets)
            defer {
                judging.close()
                worker.close()
            }
            var previous: Int?
            while !shouldStop() {
                let index = next.withLock { value -> Int in
                    defer { value += 1 }
                    return value
                }
                guard index < order.count else { return }
                let last = index >= lastPhase
                if last {
                    // Polled, so an interruption that leaves earlier cases unstarted cannot leave this waiting.
                    while earlierDone.wait(timeout: .now() + 0.1) == .timedOut {
                        if shouldStop() { return }
                    }
                }
                let caseIndex = order[index]
                // Cases that run last run alone: their exchanges, not their judging.
                // When the judge is behind, the worker reads ahead what judging needs of its exchange alone: with an
                // app that consents judging is the loop's bottleneck, with one that declines (or over HTTP) the worker.
                let readingAhead = judging.isBehind
                let started =
                    last
                    ? alone.withLock { _ in worker.start(cases[caseIndex], judgingApart: runner.judgesApart, readingAhead: readingAhead) }
                    : worker.start(cases[caseIndex], judgingApart: runner.judgesApart, readingAhead: readingAhead)
                let sentBefore = previous
                previous = caseIndex
                judging.push { [self] in
                    defer { if !last { earlierDone.leave() } }
                    store(caseIndex, started.finish(), previous: sentBefore, followed: true)
                }
            }
        }

        /// Records a finished case; `previous` is the case its worker sent before it, to which a protocol fault found
        /// in this exchange belongs; `followed` says whether the worker's next exchange may still show a fault of this
        /// case. A case finished while the run is being stopped is left out.
        private func store(_ caseIndex: Int, _ finished: Worker.Finished, previous: Int?, followed: Bool) {
            issuedCodes.record(finished.issuedCodes, of: caseIndex)
            if let verdict = finished.credentials { credentials.withLock { $0[caseIndex] = verdict } }
            // A case cut short by an interruption is not a result: it is left out, and the run is incomplete.
            if shouldStop() { return }
            var result = finished.result
            if let spool { result.spool(into: spool) }
            // A long run's threads free what each case made while the results they keep stay: the allocator's arenas
            // fill with holes it keeps resident. Every so many cases those free pages go back, so a run's memory
            // follows what it keeps, not what it made (a few milliseconds each time).
            if recorded.withLock({ count -> Bool in
                count += 1
                return count % Self.releaseInterval == 0
            }) {
                FreeMemory.release()
            }
            let previousResult = collected.withLock { all -> CaseResult? in
                all[caseIndex] = result
                guard let previous, let earlier = all[previous] else { return nil }
                if let fault = finished.previousCaseFault { all[previous] = earlier.addingProtocolFault(fault) }
                return all[previous]
            }
            // The worker's case before this one is now final, unless the run judges it again at the end; this one
            // waits for the worker's next (or the end) when a next exchange may still show a fault of it.
            let judgedAtEnd = !finished.issuedCodes.isEmpty || finished.credentials != nil
            let releases = held.withLock { cases -> [Int] in
                var released: [Int] = []
                if let previous, cases.releasesWithItsFollower(previous) { released.append(previous) }
                if judgedAtEnd || followed { cases.add(caseIndex, judgedAtEnd: judgedAtEnd) } else { released.append(caseIndex) }
                return released
            }
            for index in releases {
                guard let final = index == caseIndex ? result : previousResult else { continue }
                reporting.withLock { _ in progress(final) }
            }
        }

        /// The held cases, each with when it was stored (they are reported in that order at the end) and whether the
        /// run judges it again once every case has run (then only the end releases it): one word a case of the run
        /// (0 when not held, else the order it was stored in, plus one, then that flag in the lowest bit), so holding
        /// every case of a run whose target issues codes costs eight bytes a case.
        private struct Held {
            private var entries: [UInt64]
            private var count: UInt64 = 0

            init(cases: Int) { entries = Array(repeating: 0, count: cases) }

            mutating func add(_ caseIndex: Int, judgedAtEnd: Bool) {
                count += 1
                entries[caseIndex] = count << 1 | (judgedAtEnd ? 1 : 0)
            }
            /// Releases a case its worker's next exchange has followed (true), unless the end judges it again.
            mutating func releasesWithItsFollower(_ caseIndex: Int) -> Bool {
                let entry = entries[caseIndex]
                guard entry != 0, entry & 1 == 0 else { return false }
                entries[caseIndex] = 0
                return true
            }
            var inOrder: [Int] { entries.indices.filter { entries[$0] != 0 }.sorted { entries[$0] < entries[$1] } }
        }

        /// The results in case order, with what is judged across cases applied (configured credentials, codes issued
        /// twice); the cases an interruption left out are not there.
        func results() -> [CaseResult] {
            var all = collected.withLock { $0 }
            ConfiguredCredentials.judge(&all, verdicts: credentials.withLock { $0 })
            issuedCodes.judge(&all)
            // What was held is final now: reported in the order the cases finished.
            for index in held.withLock({ $0.inOrder }) {
                if let result = all[index] { reporting.withLock { _ in progress(result) } }
            }
            return all.compactMap { $0 }
        }
    }
}
