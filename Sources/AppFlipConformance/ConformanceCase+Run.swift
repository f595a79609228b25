import AppFlipModel
import AppFlipRunner
import AppFlipSetup
import Foundation

extension ConformanceCase {
    /// Runs the case against a target and judges the answer.
    ///
    /// A target that throws, hangs past its timeout or answers garbage gives an `error` result, never a crash. A
    /// case the target cannot serve (a profile whose endpoint it lacks) is a `skip` with the reason. Checks that
    /// compare cases with each other (codes distinct across a whole run) are the command line's, not a single case's.
    public func run(against target: ConformanceTarget) async -> CaseResult {
        let model = self.model
        // The runner blocks on threads of its own; keep it off the cooperative pool.
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: Self.runBlocking(model, against: target))
            }
        }
    }

    static func runBlocking(_ model: AppFlipModel.ConformanceCase, against target: ConformanceTarget) -> CaseResult {
        // A burst that may set off the server's throttling gets a setup of its own (for the reference, a server of
        // its own), so cases running beside it are not throttled; the command line instead runs such cases last.
        let isolated = model.runsLast
        let setup: Result<RunSetup, SetupError>
        if isolated {
            do {
                setup = .success(try target.makeSetup())
            } catch {
                setup = .failure(error)
            }
        } else {
            setup = target.setup()
        }
        defer { if isolated, case .success(let made) = setup { ConformanceTarget.end(made) } }
        switch setup {
        case .failure(let problem):
            return CaseResult(
                AppFlipModel.CaseResult(
                    conformanceCase: model, verdict: .error, checks: [],
                    message: "the target could not be set up: \(problem.description)", evidence: Evidence(), duration: 0))
        case .success(let setup):
            // Swift Testing starts every case of a test function at once; a target gets at most `concurrentRuns`
            // of them at a time, as the command line gives it `--jobs` (a case that only waits is not counted).
            if !model.waits { runSlots.wait() }
            defer { if !model.waits { runSlots.signal() } }
            let runner = Runner(configuration: setup.configuration, timeout: target.timeout, jobs: 1)
            let worker = Runner.Worker(runner: runner, targets: setup.targets)
            defer { worker.close() }
            return CaseResult(worker.run(model))
        }
    }
}

extension ConformanceCase {
    /// How many cases run against targets at once in this process, whatever the test runner starts: enough to keep
    /// a two-core machine busy while cases wait on their targets, few enough that a server's connection limit
    /// (the reference allows 64) is never what a case observes.
    public static let concurrentRuns = 8
}

private let runSlots = DispatchSemaphore(value: ConformanceCase.concurrentRuns)
