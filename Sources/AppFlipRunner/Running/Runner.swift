import AppFlipModel
import Foundation

/// Runs cases against a target on `jobs` worker threads and judges every answer.
///
/// A target's misbehaviour becomes an `error` result for that case; the run always goes on.
public struct Runner: Sendable {
    public var configuration: RunConfiguration
    /// Seconds a handler has to answer one case.
    public var timeout: Double
    public var jobs: Int
    /// How much of the handler's log a report keeps per case.
    public var logExcerptLimit: Int

    public init(configuration: RunConfiguration, timeout: Double = 10, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                logExcerptLimit: Int = 4096) {
        self.configuration = configuration
        self.timeout = timeout
        self.jobs = max(1, jobs)
        self.logExcerptLimit = logExcerptLimit
    }

    /// Runs every case and returns the results in case order. `progress` is called as each case finishes
    /// (from worker threads, one call at a time). `shouldStop` is polled between cases.
    public func run(_ cases: [ConformanceCase], on target: any LinkHandlerTarget,
                    shouldStop: @escaping @Sendable () -> Bool = { false },
                    progress: @escaping @Sendable (CaseResult) -> Void = { _ in }) -> [CaseResult] {
        let results = Locked<[CaseResult?]>(Array(repeating: nil, count: cases.count))
        let next = Locked(0)
        let reporting = Locked(())
        let group = DispatchGroup()
        let runner = self
        for _ in 0..<min(jobs, max(cases.count, 1)) {
            group.enter()
            let thread = Thread {
                let session = target.makeSession()
                defer {
                    session.close()
                    group.leave()
                }
                while !shouldStop() {
                    let index = next.withLock { value -> Int in
                        defer { value += 1 }
                        return value
                    }
                    guard index < cases.count else { return }
                    let result = runner.run(cases[index], session: session)
                    results.withLock { $0[index] = result }
                    reporting.withLock { _ in progress(result) }
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        return results.withLock { $0.compactMap { $0 } }
    }

    /// Runs one case on a session.
    public func run(_ conformanceCase: ConformanceCase, session: any LinkHandlerSession) -> CaseResult {
        let generated = GeneratedValues(seed: configuration.seed, caseID: conformanceCase.id)
        let context = Template.Context(configuration: configuration, generated: generated)
        let link = conformanceCase.link.build(in: context)
        if let reason = conformanceCase.skipReason {
            return CaseResult(conformanceCase: conformanceCase, verdict: .skip, checks: [], message: reason,
                              evidence: Evidence(link: Redaction.redact(url: link)), duration: 0)
        }
        let request = HandlerRequest(id: conformanceCase.id, link: link, scenario: conformanceCase.scenario)
        let started = Date()
        let exchange = session.exchange(request, timeout: timeout)
        let duration = Date().timeIntervalSince(started)
        let judge = Judge(sentLink: link, configuration: configuration, generated: generated)
        let secrets = exchange.answer?.url.map(Redaction.secrets(in:)) ?? []
        let evidence = Evidence(
            link: Evidence.bounded(Redaction.redact(url: link), limit: 1024),
            answer: exchange.answer.map(judge.summary) ?? Redaction.scrubText(exchange.rawAnswer, secrets: secrets),
            stderr: Evidence.bounded(Redaction.scrubText(exchange.log, secrets: secrets), limit: logExcerptLimit))
        guard let answer = exchange.answer else {
            return CaseResult(conformanceCase: conformanceCase, verdict: .error, checks: [],
                              message: exchange.failure ?? "no answer", evidence: evidence, duration: duration)
        }
        return CaseResult.judged(conformanceCase, checks: judge.judge(conformanceCase.checks, answer: answer),
                                 evidence: evidence, duration: duration)
    }
}
