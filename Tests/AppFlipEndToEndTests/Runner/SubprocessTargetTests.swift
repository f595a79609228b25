import AppFlipHTTP
import AppFlipModel
import AppFlipReferenceServer
import AppFlipSystem
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipRunner

@Suite("Subprocess target", .serialized)
struct SubprocessTargetTests {
    let reference = BuiltProducts.path("appflip-reference")
    let broken = BuiltProducts.path("broken-handler")

    private func request(_ id: String = "case/1") -> HandlerRequest {
        let link = LinkRecipe.base.build(
            in: Template.Context(
                configuration: SuiteRun.configuration,
                generated: GeneratedValues(seed: 1, caseID: id)))
        return HandlerRequest(id: id, link: link, scenario: .consent)
    }

    @Test("The reference executable with --code-server mints at the server: every flip case redeems there", arguments: SubprocessTarget.Mode.allCases)
    func codeServer(_ mode: SubprocessTarget.Mode) throws {
        let server = ReferenceServer(configuration: ReferenceServerConfiguration(clientSecret: "reference-secret"))
        let http = try HTTPServer(handler: server.handler)
        http.start()
        defer { http.stop() }
        let base = "http://127.0.0.1:\(http.port)"
        let handler = SubprocessTarget(executable: reference, arguments: ["--code-server", base + ReferenceServer.mintPath], mode: mode)
        let flip = try SuiteRun.load().1.cases.filter { $0.profile == .flip }
        #expect(flip.count >= 2)
        let run = try SuiteRun.run(
            TargetUnderTest(adapters: [.linkHandler: handler], endpoints: [.token: base + "/oauth/token"], clientSecret: "reference-secret"),
            cases: flip)
        let notPassing = run.results.filter { $0.verdict != .pass }
        #expect(notPassing.isEmpty, "\(notPassing.map { "\($0.conformanceCase.id): \($0.message ?? "") \($0.findings.map(\.observed))" })")
    }

    @Test(
        "broken-handler --code-server: the flip profile redeems its codes, and a defect in them fails the flip's requirement",
        arguments: [("fixed-code", "AF-LINK-024"), ("drops-state", "AF-LINK-010"), ("legitimate-variant", nil), ("components-style", nil)])
    func brokenCodeServer(_ defect: String, _ requirement: String?) throws {
        let server = ReferenceServer(configuration: ReferenceServerConfiguration(clientSecret: "reference-secret"))
        let http = try HTTPServer(handler: server.handler)
        http.start()
        defer { http.stop() }
        let base = "http://127.0.0.1:\(http.port)"
        let handler = SubprocessTarget(
            executable: broken, arguments: ["--defect", defect, "--code-server", base + ReferenceServer.mintPath], mode: .persistent)
        let flip = try SuiteRun.load().1.cases.filter { $0.profile == .flip }
        let run = try SuiteRun.run(
            TargetUnderTest(adapters: [.linkHandler: handler], endpoints: [.token: base + "/oauth/token"], clientSecret: "reference-secret"),
            cases: flip)
        let failed = Set(run.results.flatMap { $0.findings.filter { $0.verdict == .fail }.map(\.requirement.id) })
        #expect(!run.results.contains { $0.verdict == .error }, "\(run.results.map { "\($0.conformanceCase.id): \($0.message ?? "")" })")
        if let requirement {
            #expect(failed.contains(requirement), "\(defect): \(failed.sorted())")
        } else {
            #expect(run.results.allSatisfy { $0.verdict == .pass }, "\(defect): \(failed.sorted())")
        }
    }

    #if os(Linux)
        @Test("A handler runs in a session of its own: no controlling terminal to paint a verdict on, whatever the suite has")
        func sessionOfItsOwn() throws {
            // The handler reports its pid, its session (field 6 of /proc/PID/stat) and whether /dev/tty opens, then exits.
            let script =
                "read line; s=$(cut -d' ' -f6 /proc/$$/stat); if (: > /dev/tty) 2>/dev/null; then t=open; else t=none; fi; "
                + "echo \"pid=$$ sid=$s tty=$t\" >&2"
            let target = SubprocessTarget(executable: "/bin/sh", arguments: ["-c", script], mode: .oneShot)
            let session = target.makeSession()
            defer { session.close() }
            let log = session.exchange(request(), timeout: 10).log
            let fields = Dictionary(
                uniqueKeysWithValues: log.split(whereSeparator: \.isWhitespace).compactMap { field -> (String, String)? in
                    let parts = field.split(separator: "=", maxSplits: 1)
                    return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
                })
            let ownSession = try String(contentsOfFile: "/proc/self/stat", encoding: .utf8).split(separator: ")").last?
                .split(separator: " ").dropFirst(3).first.map(String.init)
            #expect(fields["pid"] != nil && fields["sid"] == fields["pid"], "the handler leads a session of its own: \(log)")
            #expect(fields["sid"] != ownSession, "\(log)")
            #expect(fields["tty"] == "none", "\(log)")
        }
    #endif

    @Test("The reference executable answers in one-shot and in persistent mode", arguments: SubprocessTarget.Mode.allCases)
    func referenceModes(_ mode: SubprocessTarget.Mode) {
        let target = SubprocessTarget(executable: reference, arguments: ["--client-id", "google-client"], mode: mode)
        let session = target.makeSession()
        defer { session.close() }
        for index in 0..<3 {
            let exchange = session.exchange(request("case/\(index)"), timeout: 5)
            #expect(exchange.failure == nil, "\(exchange.failure ?? "")")
            #expect(exchange.answer?.action == .open)
        }
    }

    @Test("A handler that never answers is an error within the timeout, and its process group is killed")
    func hang() {
        var target = SubprocessTarget(executable: broken, arguments: ["--defect", "hang"], mode: .persistent)
        target.startupAllowance = 0  // the case's own timeout, measured alone
        let session = target.makeSession()
        defer { session.close() }
        let started = Date()
        let exchange = session.exchange(request(), timeout: 0.5)
        let elapsed = Date().timeIntervalSince(started)
        #expect(exchange.answer == nil)
        #expect(exchange.failure?.contains("timed out after 0.5 s") == true, "\(exchange.failure ?? "")")
        #expect(elapsed < 20, "took \(elapsed) s")  // a hang never ends: any bound catches it, a generous one holds under load
        // The next request gets a fresh process (and times out again, rather than hanging forever).
        #expect(session.exchange(request("case/2"), timeout: 0.3).failure?.contains("timed out") == true)
    }

    @Test("Output without end is an error past the output bound, said with the bound, in either mode", arguments: SubprocessTarget.Mode.allCases)
    func flood(_ mode: SubprocessTarget.Mode) {
        // Zeros without a line end, and an answer followed by lines without end: reading stops at the bound.
        for (executable, arguments) in [
            ("/bin/cat", ["/dev/zero"]), (broken, ["--defect", "floods-after-answer"]), (broken, ["--defect", "floods-late"]),
        ] {
            var target = SubprocessTarget(executable: executable, arguments: arguments, mode: mode)
            target.startupAllowance = 0
            let session = target.makeSession()
            defer { session.close() }
            let exchange = session.exchange(request(), timeout: 5)
            if executable == "/bin/cat" {
                #expect(exchange.failure?.contains("exceeded \(target.lineLimit) bytes") == true, "\(exchange.failure ?? "")")
            } else if mode == .oneShot, arguments.last == "floods-late" {
                // A one-shot handler is read until it exits or its half second is up: a flood that starts later is
                // never read (the process group is killed), which is all this shows.
                continue
            } else if mode == .oneShot {
                #expect(exchange.failure?.contains("more than \(target.outputLimit) bytes of output") == true, "\(exchange.failure ?? "")")
            } else {
                // Seen before the next request or only after it went out (floods-late): the same verdicts.
                // Persistent: the answer stands; the flood is the fault of that request, said with the next one, and
                // the flooding process is replaced.
                #expect(exchange.answer != nil, "\(exchange.failure ?? "")")
                let next = session.exchange(request("case/2"), timeout: 5)
                #expect(
                    next.previousRequestFault?.contains("the handler wrote more after its answer (") == true, "\(next.previousRequestFault ?? "")")
                #expect(next.answer != nil, "\(next.failure ?? "")")
            }
        }
    }

    @Test("A child process holds at most its output bound, however long the wait after a too-long line (native adapters too)")
    func outputBound() throws {
        let child = try ChildProcess.launch(
            path: "/bin/cat", arguments: ["/dev/zero"], environment: [], scope: ContainmentScope.make(),
            stdoutLimit: 256 * 1024)
        defer { child.kill() }
        guard case .tooLong = child.readLine(deadline: Platform.monotonicSeconds() + 5, limit: 64 * 1024) else {
            Issue.record("expected a too-long line")
            return
        }
        _ = child.waitForExit(deadline: Platform.monotonicSeconds() + 1)
        #expect(child.flooded)
        #expect(child.takeUnrequestedOutput().count <= 256 * 1024 + 65_536)
    }

    @Test("A crash is an error that names the signal, with stderr kept as evidence")
    func crash() {
        var request = request()
        request.link += "&x=" + String(repeating: "A", count: 10)  // keep the link valid
        request.link = request.link.replacingOccurrences(of: "state=", with: "state=" + String(repeating: "S", count: 5000))
        let target = SubprocessTarget(executable: broken, arguments: ["--defect", "crash-long-state"], mode: .oneShot)
        let session = target.makeSession()
        defer { session.close() }
        let exchange = session.exchange(request, timeout: 5)
        #expect(exchange.failure?.contains("SIGABRT") == true, "\(exchange.failure ?? "")")
        #expect(exchange.log.contains("state too long"))
    }

    @Test("An answer that is not JSON is an error that says so, with the raw line as evidence")
    func garbage() {
        let target = SubprocessTarget(executable: broken, arguments: ["--defect", "garbage"], mode: .oneShot)
        let session = target.makeSession()
        defer { session.close() }
        let exchange = session.exchange(request(), timeout: 5)
        #expect(exchange.failure == "unusable answer: the answer line is not a JSON object")
        #expect(exchange.rawAnswer.contains("this is not JSON"))
    }

    @Test("A program that exits without answering is an error with its exit status")
    func exitsEarly() {
        let target = SubprocessTarget(executable: "/bin/sh", arguments: ["-c", "echo oops >&2; exit 7"], mode: .oneShot)
        let session = target.makeSession()
        defer { session.close() }
        let exchange = session.exchange(request(), timeout: 5)
        #expect(exchange.failure?.contains("exited with status 7") == true, "\(exchange.failure ?? "")")
        #expect(exchange.log.contains("oops"))
    }

    @Test("A missing executable is reported, not crashed on")
    func missingExecutable() {
        #expect(SubprocessTarget.resolve("definitely-not-a-command-\(UUID().uuidString)") == nil)
        #expect(SubprocessTarget.resolve("/") == nil)
        #expect(SubprocessTarget.resolve("sh") != nil)
    }

    @Test("The handler gets a minimal environment")
    func environment() {
        let environment = SubprocessTarget.minimalEnvironment(from: ["PATH": "/bin", "SECRET_TOKEN": "x", "HOME": "/h"])
        #expect(environment == ["PATH=/bin", "HOME=/h"])
    }
}

@Suite("Answer parser")
struct AnswerParserTests {
    private func parse(_ line: String, id: String = "a") -> Result<HandlerAnswer, AnswerParser.AnswerError> {
        LinkAnswerParser.parse(Array(line.utf8), expectedID: id)
    }

    @Test("Well-formed answers parse, unknown fields ignored")
    func valid() throws {
        let open = try parse(#"{"id":"a","action":"open","url":"https://x/?code=1","universal_links_only":true,"extra":[1]}"#).get()
        #expect(open == HandlerAnswer(action: .open, url: "https://x/?code=1", universalLinksOnly: true))
        #expect(try parse(#"{"id":"a","action":"decline"}"#).get() == HandlerAnswer(action: .decline))
    }

    @Test(
        "Every contract violation is a precise error",
        arguments: [
            (#"{"id":"b","action":"decline"}"#, "not for the request sent"),
            (#"{"action":"decline"}"#, "no string \"id\""),
            (#"{"id":"a","action":"close"}"#, "the contract allows"),
            (#"{"id":"a","action":"open"}"#, "needs a non-empty string \"url\""),
            (#"{"id":"a","action":"open","url":"u","universal_links_only":1}"#, "must be true or false"),
            (#"["id"]"#, "not a JSON object"),
            (#"{"id":"a","action":"decline","action":"open","url":"u"}"#, "ambiguous: the member \"action\" appears twice"),
        ])
    func invalid(_ line: String, _ message: String) {
        guard case .failure(let error) = parse(line) else {
            Issue.record("parsed \(line)")
            return
        }
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test("Invalid UTF-8 is an error, not a crash")
    func invalidUTF8() {
        guard case .failure(let error) = LinkAnswerParser.parse([0x7B, 0xFF, 0x7D], expectedID: "a") else {
            Issue.record("parsed invalid UTF-8")
            return
        }
        #expect(error.message.contains("UTF-8"))
    }
}
