import AppFlipBase
import AppFlipModel
import AppFlipRedaction
import AppFlipSystem
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipRunner

/// A worker sends the next case while its judging thread judges the one before: the results must be exactly those
/// of judging each case in line, whatever the handler does.
@Suite("Judging apart from the exchange", .serialized)
struct JudgingApartTests {
    struct Handler: Sendable, CustomTestStringConvertible {
        var executable: String
        var arguments: [String]
        var mode: SubprocessTarget.Mode
        var testDescription: String { "\(arguments.last ?? executable) (\(mode))" }
    }

    static let handlers: [Handler] = [
        Handler(executable: "appflip-reference", arguments: ["--client-id", "google-client"], mode: .persistent),
        Handler(executable: "appflip-reference", arguments: ["--client-id", "google-client"], mode: .oneShot),
        Handler(executable: "broken-handler", arguments: ["--defect", "raw-state"], mode: .persistent),
        // Run-level judging: the same code in every answer is found across cases.
        Handler(executable: "broken-handler", arguments: ["--defect", "fixed-code"], mode: .persistent),
        Handler(executable: "broken-handler", arguments: ["--defect", "lookalike-host"], mode: .persistent),
        // Errors: a handler that answers garbage.
        Handler(executable: "broken-handler", arguments: ["--defect", "garbage"], mode: .persistent),
    ]

    /// A result without what changes from run to run: its duration, and the codes the handler minted (random, so
    /// their redacted digests and the run's entropy estimate differ).
    static func comparable(_ result: CaseResult) -> String {
        // When each exchange went out and how long it took are the machine's; so is how long a throttling server
        // asks to wait (Retry-After counts down with the clock).
        var evidence = result.evidence
        evidence.exchanges = evidence.exchanges.map { exchange in
            var timeless = exchange
            (timeless.sentAt, timeless.milliseconds) = (nil, nil)
            timeless.responseHeaders = exchange.responseHeaders.map { header in
                header.name.lowercased() == "retry-after" ? Evidence.Header(header.name, "N") : header
            }
            return timeless
        }
        let text = [
            result.conformanceCase.id, "\(result.verdict)", result.message ?? "-", "\(result.checks)", "\(evidence)",
            "\(result.isKnown)",
        ].joined(separator: "\n")
        return text.replacingOccurrences(of: #"‹redacted hmac:[0-9a-f]+›"#, with: "‹redacted›", options: .regularExpression)
            .replacingOccurrences(of: #"about [0-9]+ bits"#, with: "about N bits", options: .regularExpression)

    }

    @Test("Judged on the judging thread or in line, every result is the same", arguments: handlers)
    func sameResults(_ handler: Handler) throws {
        // Every app-link case, and after every fifth a copy sent twice (judged in line, so one worker does both).
        var cases: [ConformanceCase] = []
        for (index, conformanceCase) in try SuiteRun.load().1.cases.filter({ $0.profile == .appLink }).enumerated() {
            cases.append(conformanceCase)
            if index % 5 == 0 {
                var twice = conformanceCase
                twice.id += "/twice"
                twice.repeatCount = 2
                cases.append(twice)
            }
        }
        #expect(cases.contains { DeferredJudgement.applies(to: $0) } && cases.contains { !DeferredJudgement.applies(to: $0) })
        let target = SubprocessTarget(executable: BuiltProducts.path(handler.executable), arguments: handler.arguments, mode: handler.mode)
        var runner = Runner(configuration: SuiteRun.configuration, timeout: 5, jobs: 1)
        let apart = runner.run(cases, on: target).map(Self.comparable)
        runner.judgesApart = false
        let inLine = runner.run(cases, on: target).map(Self.comparable)
        #expect(apart.count == cases.count && inLine.count == cases.count)
        for (one, other) in zip(apart, inLine) where one != other {
            Issue.record("judged apart:\n\(one)\n\nin line:\n\(other)")
        }
    }

    @Test("Only a case whose one step sends a link or an HTTP request once, waits for nothing and captures nothing is judged apart")
    func applies() throws {
        let cases = try SuiteRun.load().1.cases
        let link = try #require(cases.first { $0.id == "app-link/baseline/valid-link" })
        #expect(DeferredJudgement.applies(to: link))
        var repeated = link
        repeated.repeatCount = 2
        var twoSteps = link
        twoSteps.steps.append(link.steps[0])
        var stepRepeated = link
        stepRepeated.steps[0].repeatCount = 3
        var capturing = link
        capturing.steps[0].captures = [Capture(name: "code", source: .urlParameter("code"))]
        var waiting = link
        waiting.steps[0].wait = .seconds(1)
        var guarded = link
        guarded.steps[0].whenCaptured = ["code"]
        for variant in [repeated, twoSteps, stepRepeated, capturing, waiting, guarded] {
            #expect(!DeferredJudgement.applies(to: variant))
        }
        // One HTTP step, through the sign-in pages or not, applies too; a burst, a TLS handshake probe and a native
        // step judge while they run.
        func request(_ conformanceCase: ConformanceCase) -> HTTPStepRequest? {
            guard conformanceCase.steps.count == 1, case .http(let request) = conformanceCase.steps[0].action else { return nil }
            return request
        }
        let http = try #require(cases.first { request($0).map { $0.burst == nil && $0.transportProbe == nil } ?? false })
        #expect(DeferredJudgement.applies(to: http))
        var capturingHTTP = http
        capturingHTTP.steps[0].captures = [Capture(name: "code", source: .urlParameter("code"))]
        #expect(!DeferredJudgement.applies(to: capturingHTTP))
        let burst = try #require(cases.first { request($0)?.burst != nil })
        let handshake = try #require(cases.first { request($0)?.transportProbe == .legacyTLS })
        let native = try #require(cases.first { $0.steps.count == 1 && { if case .native = $0.steps[0].action { true } else { false } }($0) })
        for variant in [burst, handshake, native] {
            #expect(!DeferredJudgement.applies(to: variant), "\(variant.id)")
        }
    }

    @Test("The judging queue does its items in order, holds back a worker that runs too far ahead, and drains before it ends")
    func queue() {
        let queue = JudgingQueue(capacity: 2)
        let done = Locked<[Int]>([])
        let pushed = Locked(0)
        let pusher = Thread {
            for index in 0..<50 {
                queue.push { done.withLock { $0.append(index) } }
                pushed.withLock { $0 += 1 }
            }
            queue.close()
        }
        pusher.start()
        // Nothing drains yet: the pusher reaches the capacity, and stops there.
        #expect(Waiting.until(ceiling: 30) { pushed.withLock { $0 } == 2 })
        Thread.sleep(forTimeInterval: 0.2)
        #expect(pushed.withLock { $0 } == 2)
        queue.drain()
        #expect(done.withLock { $0 } == Array(0..<50))
    }

    @Test("An answer read ahead on the worker is absorbed as the judge absorbs it: evidence, secrets, observation, faults")
    func readingAhead() {
        let link =
            "https://app.example/flip?client_id=google-client&scope=devices&state=x6Tq1Lz0Qm8Vb3Nc5Rw7Yk"
            + "&redirect_uri=https%3A%2F%2Foauth-redirect.googleusercontent.com%2Fa%2Fcom.google.OPA"
        let code = "Zq3vN8pL2xR7tW1yB5mK9cD4fH6jS0aE-uQ_gT2iO8n"
        let opened = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=\(code)&state=x6Tq1Lz0Qm8Vb3Nc5Rw7Yk"
        var crashed = TargetExchange(failure: "the handler exited with status 3", rawAnswer: "", log: "panic: \(code)")
        crashed.crash = "exited with status 3"
        let exchanges = [
            TargetExchange(
                observation: .link(HandlerAnswer(action: .open, url: opened, universalLinksOnly: true)),
                rawAnswer: #"{"id":"x","action":"open","url":"\#(opened)"}"#, log: "minted \(code)",
                previousRequestFault: "an extra line: code=\(code)"),
            TargetExchange(observation: .link(HandlerAnswer(action: .decline)), rawAnswer: #"{"id":"x","action":"decline"}"#),
            TargetExchange(failure: "the answer is not JSON", rawAnswer: #"{"id":"x","action":"open","url":"\#(opened)"#),
            crashed,
        ]
        for exchange in exchanges {
            func absorbed(readingAhead: Bool) -> (StepExecutor.CaseState, (Observation, [QueryParameter])?) {
                let sent = LinkHandlerContract.SentLink(link: link, exchange: exchange, readingAhead: readingAhead)
                #expect((sent.reading != nil) == readingAhead)
                var state = StepExecutor.CaseState(redactor: Redactor())
                let result = LinkHandlerContract.absorb(sent, label: "", logExcerptLimit: 4096, state: &state)
                return (state, result)
            }
            let (ahead, aheadResult) = absorbed(readingAhead: true)
            let (inLine, inLineResult) = absorbed(readingAhead: false)
            #expect(ahead.outcome.evidence == inLine.outcome.evidence, "\(exchange.rawAnswer)")
            #expect(ahead.outcome.previousRequestFault == inLine.outcome.previousRequestFault)
            #expect(aheadResult?.0 == inLineResult?.0 && aheadResult?.1 == inLineResult?.1)
            // The code the answer holds (whole or cut short) is hidden alike, wherever it was read.
            let text = "log: \(code) and %\(code.prefix(20))"
            #expect(ahead.outcome.redactor.redact(text) == inLine.outcome.redactor.redact(text))
            if exchange.rawAnswer.contains(code) {
                #expect(!ahead.outcome.redactor.redact(text).contains(code.prefix(12)))
                #expect(!ahead.outcome.evidence.stderr.contains(code) && !(ahead.outcome.previousRequestFault ?? "").contains(code))
            }
        }
    }

    @Test("A worker held back by a full queue is let go once the judge has done half of it, not at every item")
    func queueHalfway() {
        let queue = JudgingQueue(capacity: 4)
        let gates = (0..<3).map { _ in DispatchSemaphore(value: 0) }
        let done = Locked<[Int]>([])
        let pushed = Locked(0)
        let pusher = Thread {
            for index in 0..<12 {
                // The first three items each wait for the test to let them finish: the judge is held on them.
                queue.push {
                    if index < gates.count { gates[index].wait() }
                    done.withLock { $0.append(index) }
                }
                pushed.withLock { $0 += 1 }
            }
            queue.close()
        }
        let judge = Thread { queue.drain() }
        pusher.start()
        #expect(Waiting.until(ceiling: 30) { pushed.withLock { $0 } == 4 })
        judge.start()
        // The judge took item 0 and waits on it: three wait, more than half of four, so the worker stays held.
        Thread.sleep(forTimeInterval: 0.2)
        #expect(pushed.withLock { $0 } == 4)
        // Item 0 done, the judge takes item 1: two wait, half the queue, and the worker is let go (to four again).
        gates[0].signal()
        #expect(Waiting.until(ceiling: 30) { pushed.withLock { $0 } > 4 })
        gates[1].signal()
        gates[2].signal()
        #expect(Waiting.until(ceiling: 30) { done.withLock { $0 } == Array(0..<12) })
    }
}
