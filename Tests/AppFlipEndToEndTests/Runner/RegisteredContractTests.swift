import AppFlipBase
import AppFlipLoading
import AppFlipModel
import AppFlipRunner
import AppFlipTestSupport
import Foundation
import Synchronization
import Testing

/// A fourth adapter contract, written here and registered for a run, with no change to the runner,
/// `TargetUnderTest` or the step executor: its steps are sent through its own payload, its adapter is held under its
/// key, and what the run says of a missing or unusable adapter, the report's target line and the verdicts come from
/// its declarations (CONTRIBUTING, "Add an adapter contract").
@Suite("A contract registered from outside the runner")
struct RegisteredContractTests {
    /// "The test opener": the app is handed a URL (`{"id", "url", "scenario"}`) and answers with the URL it opened
    /// (`{"id", "opened": …}`), judged as a link handler's answer.
    struct OpenerContract: AdapterContract {
        static let key = AdapterContractKey(rawValue: "the test opener")
        var key: AdapterContractKey { Self.key }
        var role: String { "test opener" }
        var unconfigured: String { "no test opener is configured" }

        func request(of action: Step.Action) -> AdapterRequest? {
            if case .adapter(let request) = action, request.contract == Self.key.rawValue { return request }
            return nil
        }

        func send(_ request: AdapterRequest, _ step: AdapterStep, through executor: StepExecutor, state: inout StepExecutor.CaseState)
            -> AdapterSending
        {
            guard let template = request.values["url"] else {
                state.outcome.record(.suite(step.label + "the opener's step has no url"))
                return .observed(nil)
            }
            let url = template.resolve(in: step.context)
            let exchange = executor.exchange(
                HandlerRequest(id: step.requestID, payload: OpenerPayload(url: url), scenario: step.conformanceCase.scenario),
                through: Self.key, timeout: executor.timeout)
            guard let observation = exchange.observation else {
                state.outcome.record(.target(step.label + (exchange.failure ?? "no answer")))
                return .observed(nil)
            }
            state.outcome.recordAnswer(exchange.rawAnswer, limit: TargetExchange.answerExcerptLimit)
            return .observed((observation, URLParts(url).parameters))
        }
    }

    struct OpenerPayload: AdapterPayload {
        var url: String

        func appendMembers(to output: inout [UInt8]) {
            output += Array(#""url":"#.utf8)
            JSONText.appendString(url, to: &output)
        }

        func read(_ line: AnswerParser.Line, expectedID: String) -> Result<Observation, AnswerParser.AnswerError> {
            guard line.id == expectedID else { return .failure(AnswerParser.AnswerError("the answer is for another request")) }
            guard let opened = line.value?.member("opened")?.string else { return .failure(AnswerParser.AnswerError("the answer has no \"opened\"")) }
            return .success(.link(HandlerAnswer(action: .open, url: opened)))
        }
    }

    /// An in-process opener app: it reads its request as JSON Lines (the line the contract's payload writes) and
    /// answers a line the payload reads back; `echoesState: false` is the broken one that drops the state.
    struct OpenerApp: ExchangeTarget {
        var echoesState = true
        var unusable: String?
        /// Every request line the app was sent.
        let sent = Lines()

        final class Lines: Sendable {
            private let lines = Mutex<[String]>([])
            func append(_ line: String) { lines.withLock { $0.append(line) } }
            var first: String? { lines.withLock { $0.first } }
        }

        var description: String { "in-process test opener" }
        func preflight(timeout: Double) -> String? { unusable }
        func makeSession() -> any ExchangeSession { Session(app: self) }

        final class Session: ExchangeSession {
            let app: OpenerApp
            init(app: OpenerApp) { self.app = app }

            func exchange(_ request: HandlerRequest, timeout: Double) -> TargetExchange {
                let line = String(decoding: request.jsonLine, as: UTF8.self)
                app.sent.append(line)
                guard let url = AnswerParser.Line(Array(request.jsonLine.dropLast())).value?.member("url")?.string else {
                    return TargetExchange(failure: "no url in \(line)")
                }
                let state = URLParts(url).parameters.first { $0.nameText == "state" }?.value.map { String(decoding: $0, as: UTF8.self) } ?? ""
                let flip =
                    "https://oauth-redirect.googleusercontent.com/a/com.example.app?code=opener-code"
                    + (app.echoesState ? "&state=" + FormEncoding.encode(state) : "")
                let answer = JSONText.object([("id", request.id), ("opened", flip)])
                return AnswerParser.exchange(AnswerParser.Line(answer), for: request, rawAnswer: String(decoding: answer, as: UTF8.self))
            }

            func close() {}
        }
    }

    /// A case whose step is the opener's: its checks are the suite's own syntax, its action the registered contract's.
    private func openerCase() throws -> ConformanceCase {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opener-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text =
            "id: opener/state\ntitle: t\nprofile: app-link\nscenario: consent\nlink: base\n"
            + "checks:\n  - requirement: AF-LINK-002 MUST\n    expect:\n      action: open\n"
            + "  - requirement: AF-LINK-010 MUST\n    expect:\n      code: present\n      state: echoed\n"
        try text.write(toFile: directory + "/opener.case", atomically: true, encoding: .utf8)
        var loaded = try #require(try CaseLoader.load(from: directory, catalog: nil).cases.first)
        let url = try Template.parse("${link}?client_id=${client_id}&state=${state}")
        loaded.steps[0].action = .adapter(AdapterRequest(contract: OpenerContract.key.rawValue, values: ["url": url]))
        return loaded
    }

    private func targets(_ app: OpenerApp?) throws -> TargetUnderTest {
        var targets = TargetUnderTest()
        try targets.contracts.register(OpenerContract())
        if let app { targets.adapters[OpenerContract.key] = app }
        return targets
    }

    @Test("A correct opener passes, through the contract's own request line, and the report names it by its role")
    func passes() throws {
        let app = OpenerApp()
        let targets = try targets(app)
        let run = try SuiteRun.run(targets, cases: [try openerCase()], jobs: 1)
        let result = try #require(run.results.first)
        #expect(result.verdict == .pass, "\(result.message ?? "") \(result.checks.map(\.observed))")
        let line = try #require(app.sent.first)
        #expect(line.hasPrefix(#"{"id":""#) && line.contains(#","url":"https://"#) && line.hasSuffix(#","scenario":"consent"}"# + "\n"), "\(line)")
        #expect(targets.description == "test opener: in-process test opener")
    }

    @Test("An opener that drops the state fails the requirement its answer breaks")
    func fails() throws {
        let run = try SuiteRun.run(try targets(OpenerApp(echoesState: false)), cases: [try openerCase()], jobs: 1)
        let result = try #require(run.results.first)
        #expect(result.verdict == .fail)
        #expect(result.checks.contains { $0.requirement.id == "AF-LINK-010" && $0.verdict == .fail })
    }

    @Test("Without an opener the case is skipped with the contract's words; an opener that cannot be used is said once, under its key")
    func missingAndUnusable() throws {
        let skipped = try #require(try SuiteRun.run(try targets(nil), cases: [try openerCase()], jobs: 1).results.first)
        #expect(skipped.verdict == .skip && skipped.message == "no test opener is configured", "\(skipped.message ?? "")")

        let unusable = try #require(
            try SuiteRun.run(try targets(OpenerApp(unusable: "it does not start")), cases: [try openerCase()], jobs: 1).results.first)
        #expect(unusable.verdict == .error)
        #expect(unusable.unreachable?.key == "the test opener" && unusable.unreachable?.reason == "it does not start")
    }

    @Test("A contract under a key registered already, or a step no contract sends, is refused with a reason")
    func registrationIsChecked() throws {
        var contracts = AdapterContracts.builtIn
        try contracts.register(OpenerContract())
        #expect(throws: AdapterContracts.RegistrationError.self) { try contracts.register(OpenerContract()) }
        #expect(contracts.contract(sending: .adapter(AdapterRequest(contract: "nobody"))) == nil)
        #expect(contracts.all.map(\.key) == [.linkHandler, .nativeApp, .androidActivity, OpenerContract.key])

        let unsent = try #require(try SuiteRun.run(TargetUnderTest(), cases: [try openerCase()], jobs: 1).results.first)
        #expect(unsent.verdict == .skip && unsent.message == "no adapter contract sends its steps", "\(unsent.message ?? "")")
    }
}
