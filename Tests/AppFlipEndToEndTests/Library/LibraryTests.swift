import AppFlipConformance
import AppFlipHTTP
import AppFlipReference
import AppFlipReferenceServer
import AppFlipTLS
import AppFlipTestSupport
import Foundation
import Testing

/// The reference link handler behind the library's in-process protocol, with one stage replaceable.
struct ReferenceAsHandler: AppFlipLinkHandler {
    var handler = LinkHandler(clientID: "google-client")

    func handle(_ link: URL, scenario: Scenario) async throws -> HandlerAnswer {
        switch handler.handle(link: link.absoluteString, scenario: LinkHandler.Scenario(rawValue: scenario.rawValue) ?? .consent) {
        case .decline: return .decline
        case .open(let url, let universalLinksOnly):
            // An app cannot open what Foundation does not take as a URL (a broken handler's " https://…").
            guard let url = URL(string: url) else { return .decline }
            return .open(url, universalLinksOnly: universalLinksOnly)
        }
    }
}

/// A handler that never answers, and one that throws.
struct HangingHandler: AppFlipLinkHandler {
    func handle(_ link: URL, scenario: Scenario) async throws -> HandlerAnswer {
        try await Task.sleep(for: .seconds(120))
        return .decline
    }
}

struct ThrowingHandler: AppFlipLinkHandler {
    struct Broken: Error, CustomStringConvertible { var description: String { "database unavailable" } }
    func handle(_ link: URL, scenario: Scenario) async throws -> HandlerAnswer { throw Broken() }
}

@Suite("The library: in-process handlers")
struct LibraryHandlerTests {
    static let link = ConformanceTarget.Link("https://app.example/flip", clientID: "google-client")

    private func results(
        _ handler: some AppFlipLinkHandler, cases: [ConformanceCase] = AppFlipConformance.cases(.appLink),
        timeout: Double = 10
    ) async -> [CaseResult] {
        var target = ConformanceTarget.handler(handler, link: Self.link)
        target.timeout = timeout
        var results: [CaseResult] = []
        for conformanceCase in cases { results.append(await conformanceCase.run(against: target)) }
        return results
    }

    @Test("The reference behind AppFlipLinkHandler passes every app-link case in-process")
    func referencePasses() async {
        let results = await results(ReferenceAsHandler())
        #expect(results.count == AppFlipConformance.cases(.appLink).count)
        for result in results where result.verdict != .pass {
            Issue.record("\(result)")
        }
    }
}

extension LibraryHandlerTests {
    @Test("A handler that opens any redirect_uri fails only under AF-LINK-004/005/008, as failing issues at the case file's line")
    func anyRedirect() async throws {
        var broken = ReferenceAsHandler()
        broken.handler.acceptsRedirectURI = { _ in true }
        let results = await results(broken)
        let failed = results.filter { $0.verdict == .fail }
        #expect(!failed.isEmpty)
        #expect(results.allSatisfy { $0.verdict == .pass || $0.verdict == .fail })
        for result in failed {
            // An empty redirect_uri counts as missing (AF-LINK-008): opening it breaks that rule too.
            #expect(result.findings.allSatisfy { ["AF-LINK-004", "AF-LINK-005", "AF-LINK-008"].contains($0.requirement) }, "\(result)")
            #expect(!result.holds)
            #expect(result.issues.allSatisfy { $0.severity == .failure && $0.comment.contains("expected") && $0.comment.contains("observed") })
        }
        // check(against:) records exactly those issues, at the case's line in its file, and nothing else.
        let first = try #require(failed.first).conformanceCase
        let target = ConformanceTarget.handler(broken, link: Self.link)
        try await withKnownIssue {
            try await first.check(against: target)
        } matching: { issue in
            issue.sourceLocation?.line == first.line && issue.sourceLocation?.fileName == (first.file as NSString).lastPathComponent
                && String(describing: issue).contains("AF-LINK-00")
        }
    }

    @Test("Results opened without universal-links-only warn under AF-LINK-019 without failing: warning issues only")
    func warningsDoNotFail() async throws {
        var lax = ReferenceAsHandler()
        lax.handler.universalLinksOnly = false
        let results = await results(lax)
        let warned = results.filter { $0.verdict == .warn }
        #expect(!warned.isEmpty)
        #expect(results.allSatisfy { $0.holds })
        for result in warned {
            #expect(result.findings.map(\.requirement) == ["AF-LINK-019"])
            #expect(result.issues.map(\.severity) == [.warning])
            #expect(result.issues.first?.comment.hasPrefix("WARN AF-LINK-019 SHOULD") == true)
        }
        // The glue records them without failing the test (this test would fail otherwise).
        try await #require(warned.first).conformanceCase.check(against: .handler(lax, link: Self.link))
    }

    @Test("A handler that throws or hangs is a target error that says so, never a requirement failure")
    func targetErrors() async throws {
        let cases = Array(AppFlipConformance.cases(.appLink).prefix(3))
        for result in await results(ThrowingHandler(), cases: cases) {
            #expect(result.verdict == .error)
            #expect(result.message?.contains("the handler threw: database unavailable") == true, "\(result)")
            #expect(result.findings.isEmpty)
            #expect(result.issues.map(\.severity) == [.failure])
            #expect(result.issues.first?.comment.hasPrefix("target error") == true)
        }
        let started = Date()
        let hung = await results(HangingHandler(), cases: [cases[0]], timeout: 0.3)
        #expect(hung.first?.verdict == .error)
        #expect(hung.first?.message == "the handler did not answer within 0.3 s")
        #expect(Date().timeIntervalSince(started) < 60, "the timeout did not end the hanging handler's case")
    }
}

@Suite("The library: targets from the environment")
struct LibraryEnvironmentTests {
    @Test("No variable means no target; a mistaken setting is an error that says what to give")
    func parsing() throws {
        #expect(try ConformanceTarget.environment([:]) == nil)
        #expect(try ConformanceTarget.environment(["APPFLIP_HANDLER": ""]) == nil)
        let mistakes: [([String: String], String)] = [
            (["APPFLIP_LINK": "https://app.example/flip"], "need a target"),
            (["APPFLIP_HANDLER": "./adapter --test"], "JSON array"),
            (["APPFLIP_HANDLER": "[]"], "JSON array"),
            (["APPFLIP_HANDLER": "[\"./adapter\", 3]"], "JSON array"),
            (["APPFLIP_HANDLER": "[\"./adapter\"]"], "APPFLIP_LINK and APPFLIP_CLIENT_ID are required"),
            (
                [
                    "APPFLIP_HANDLER": "[\"./adapter\"]", "APPFLIP_HANDLER_URL": "http://127.0.0.1:1/h", "APPFLIP_LINK": "https://a.example/f",
                    "APPFLIP_CLIENT_ID": "c",
                ], "not both"
            ),
        ]
        for (variables, message) in mistakes {
            #expect(throws: ConformanceTarget.EnvironmentError.self, "\(variables)") { try ConformanceTarget.environment(variables) }
            do {
                _ = try ConformanceTarget.environment(variables)
            } catch {
                #expect(error.description.contains(message), "\(variables): \(error)")
            }
        }
        let command = try #require(
            try ConformanceTarget.environment([
                "APPFLIP_HANDLER": "[\"./my adapter\", \"--test-mode\"]",
                "APPFLIP_LINK": "https://a.example/f", "APPFLIP_CLIENT_ID": "c",
            ]))
        #expect(command.description == "handler command ./my adapter --test-mode")
        let config = try #require(try ConformanceTarget.environment(["APPFLIP_CONFIG": "staging.target"]))
        #expect(config.description == "configuration staging.target")
    }

    @Test("The Android variables: a handler with its action and package, alone or beside the iOS handler; a mistake says what to give")
    func androidParsing() throws {
        let mistakes: [([String: String], String)] = [
            (["APPFLIP_ANDROID_ACTION": "a"], "need APPFLIP_ANDROID_HANDLER"),
            (["APPFLIP_ANDROID_HANDLER": "[\"./a\"]", "APPFLIP_CLIENT_ID": "c"], "APPFLIP_ANDROID_ACTION"),
            (
                ["APPFLIP_ANDROID_HANDLER": "[\"./a\"]", "APPFLIP_ANDROID_ACTION": "a", "APPFLIP_ANDROID_PACKAGE": "p"],
                "APPFLIP_CLIENT_ID is required"
            ),
            (["APPFLIP_ANDROID_HANDLER": "./a", "APPFLIP_ANDROID_ACTION": "a", "APPFLIP_ANDROID_PACKAGE": "p"], "JSON array"),
            (
                [
                    "APPFLIP_ANDROID_HANDLER": "[\"./a\"]", "APPFLIP_ANDROID_HANDLER_URL": "http://127.0.0.1:1/", "APPFLIP_ANDROID_ACTION": "a",
                    "APPFLIP_ANDROID_PACKAGE": "p", "APPFLIP_CLIENT_ID": "c",
                ], "not both"
            ),
        ]
        for (variables, message) in mistakes {
            do {
                _ = try ConformanceTarget.environment(variables)
                Issue.record("accepted: \(variables)")
            } catch {
                #expect(error.description.contains(message), "\(variables): \(error)")
            }
        }
        let android = [
            "APPFLIP_ANDROID_HANDLER": "[\"./activity\", \"--x\"]", "APPFLIP_ANDROID_ACTION": "a", "APPFLIP_ANDROID_PACKAGE": "p",
            "APPFLIP_CLIENT_ID": "c",
        ]
        #expect(try ConformanceTarget.environment(android)?.description == "Android handler ./activity --x")
        let both = try #require(
            try ConformanceTarget.environment(
                android.merging([
                    "APPFLIP_HANDLER": "[\"./adapter\"]",
                    "APPFLIP_LINK": "https://a.example/f",
                ]) { $1 }))
        #expect(both.description == "handler command ./adapter")
    }

    @Test("APPFLIP_ANDROID_HANDLER drives an Android activity: the reference passes, one that never compares CLIENT_ID fails AF-ANDR-004")
    func androidHandler() async throws {
        let settings = [
            "APPFLIP_ANDROID_ACTION": "com.example.APP_FLIP", "APPFLIP_ANDROID_PACKAGE": "com.example", "APPFLIP_CLIENT_ID": "google-client",
        ]
        let reference = "[\"\(BuiltProducts.path("appflip-reference"))\", \"android-handler\"]"
        let good = try await run("android-app-flip/client-id/another-client", settings.merging(["APPFLIP_ANDROID_HANDLER": reference]) { $1 })
        #expect(good.verdict == .pass, "\(good)")
        let broken = "[\"\(BuiltProducts.path("broken-android-handler"))\", \"--defect\", \"no-client-check\"]"
        let bad = try await run("android-app-flip/client-id/another-client", settings.merging(["APPFLIP_ANDROID_HANDLER": broken]) { $1 })
        #expect(bad.verdict == .fail)
        #expect(bad.findings.filter { $0.verdict == .fail }.map(\.requirement) == ["AF-ANDR-004"], "\(bad)")
    }

    @Test("APPFLIP_ANDROID_ALLOWED_CALLERS says which callers must get a code: Google Home refused informs, unless it is listed")
    func androidAllowedCallers() async throws {
        let googleAppOnly = "[\"\(BuiltProducts.path("broken-android-handler"))\", \"--defect\", \"google-app-only\"]"
        let settings = [
            "APPFLIP_ANDROID_ACTION": "com.example.APP_FLIP", "APPFLIP_ANDROID_PACKAGE": "com.example", "APPFLIP_CLIENT_ID": "google-client",
            "APPFLIP_ANDROID_HANDLER": googleAppOnly,
        ]
        let id = "android-app-flip/valid/google-home-caller"
        let informed = try await run(id, settings)
        #expect(informed.verdict == .info, "\(informed)")
        #expect(informed.findings.map(\.requirement) == ["AF-ANDR-014"], "\(informed)")
        let home =
            "com.google.android.apps.chromecast.app=3D:7A:12:23:01:9A:A3:9D:9E:A0:E3:43:6A:B7:C0:89:6B:FB:4F:B6:79:F4:DE:5F:E7:C2:3F:32:6C:8F:99:4A"
        let app =
            "com.google.android.googlequicksearchbox=F0:FD:6C:5B:41:0F:25:CB:25:C3:B5:33:46:C8:97:2F:AE:30:F8:EE:74:11:DF:91:04:80:AD:6B:2D:60:DB:83"
        let required = try await run(id, settings.merging(["APPFLIP_ANDROID_ALLOWED_CALLERS": "[\"\(app)\", \"\(home)\"]"]) { $1 })
        #expect(required.verdict == .fail, "\(required)")
        #expect(required.findings.filter { $0.verdict == .fail }.map(\.requirement) == ["AF-ANDR-001"], "\(required)")
        let malformed = try await run(
            id, settings.merging(["APPFLIP_ANDROID_ALLOWED_CALLERS": "[\"com.google.android.apps.chromecast.app=3D:7A\"]"]) { $1 })
        #expect(malformed.verdict == .error && malformed.message?.contains("PACKAGE=SHA256") == true, "\(malformed)")
    }

    private func run(_ id: String, _ variables: [String: String]) async throws -> CaseResult {
        let target = try #require(try ConformanceTarget.environment(variables))
        return try await #require(AppFlipConformance.case(id)).run(against: target)
    }

    @Test(
        "APPFLIP_CA_FILE is trusted as run --ca-file is: read before any case, a file with no certificate said with its path",
        .enabled(if: TLSTrust.isAvailable))
    func caFile() async throws {
        let settings = [
            "APPFLIP_LINK": "https://app.example/flip", "APPFLIP_CLIENT_ID": "google-client",
            "APPFLIP_HANDLER": "[\"\(BuiltProducts.path("appflip-reference"))\"]",
        ]
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-not-a-ca-\(UUID().uuidString).pem").path
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let refused = try await run("app-link/baseline/valid-link", settings.merging(["APPFLIP_CA_FILE": path]) { $1 })
        #expect(refused.verdict == .error)
        #expect(refused.message?.contains("\(path) holds no PEM certificate") == true, "\(refused)")
        #expect(try await run("app-link/baseline/valid-link", settings).verdict == .pass)
        do {
            _ = try ConformanceTarget.environment(["APPFLIP_CA_FILE": path])
            Issue.record("APPFLIP_CA_FILE alone was accepted")
        } catch {
            #expect(error.description.contains("need a target"), "\(error)")
        }
    }

    @Test("APPFLIP_HANDLER drives a handler command: the reference passes, a handler that drops the state fails AF-LINK-010")
    func handlerCommand() async throws {
        let link = ["APPFLIP_LINK": "https://app.example/flip", "APPFLIP_CLIENT_ID": "google-client"]
        let good = try await run(
            "app-link/baseline/valid-link", link.merging(["APPFLIP_HANDLER": "[\"\(BuiltProducts.path("appflip-reference"))\"]"]) { $1 })
        #expect(good.verdict == .pass, "\(good)")
        let handler = "[\"\(BuiltProducts.path("broken-handler"))\", \"--defect\", \"drops-state\"]"
        let bad = try await run("app-link/baseline/valid-link", link.merging(["APPFLIP_HANDLER": handler]) { $1 })
        #expect(bad.verdict == .fail)
        #expect(bad.findings.map(\.requirement).contains("AF-LINK-010"), "\(bad)")
        #expect(bad.issues.contains { $0.severity == .failure && $0.comment.hasPrefix("AF-LINK-010 MUST: expected") })
        // Under Swift Testing, check(against:) records it as a failing issue at the case's line.
        let target = try #require(try ConformanceTarget.environment(link.merging(["APPFLIP_HANDLER": handler]) { $1 }))
        let conformanceCase = try #require(AppFlipConformance.case("app-link/baseline/valid-link"))
        try await withKnownIssue {
            try await conformanceCase.check(against: target)
        } matching: { issue in
            issue.sourceLocation?.line == conformanceCase.line && String(describing: issue).contains("AF-LINK-010 MUST")
        }
    }
}

extension LibraryEnvironmentTests {
    /// A link handler served over HTTP as the adapter contract's POST, with one stage of the reference replaced.
    private func serve(_ handler: LinkHandler) throws -> HTTPServer {
        let server = try HTTPServer(handler: { request in
            guard let answer = AdapterLoop.answer(to: String(decoding: request.body, as: UTF8.self), handler) else {
                return HTTPResponse(status: 400)
            }
            return HTTPResponse(status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: [UInt8](answer))
        })
        server.start()
        return server
    }

    @Test("APPFLIP_HANDLER_URL drives a handler over HTTP: the reference passes, one that opens any redirect_uri fails AF-LINK-005")
    func handlerURL() async throws {
        let link = ["APPFLIP_LINK": "https://app.example/flip", "APPFLIP_CLIENT_ID": "google-client"]
        let good = try serve(LinkHandler(clientID: "google-client"))
        defer { good.stop() }
        var lax = LinkHandler(clientID: "google-client")
        lax.acceptsRedirectURI = { _ in true }
        let bad = try serve(lax)
        defer { bad.stop() }
        let id = "app-link/redirect-uri/rejected/suffix-host"
        let passed = try await run(id, link.merging(["APPFLIP_HANDLER_URL": "http://127.0.0.1:\(good.port)/handle"]) { $1 })
        #expect(passed.verdict == .pass, "\(passed)")
        let failed = try await run(id, link.merging(["APPFLIP_HANDLER_URL": "http://127.0.0.1:\(bad.port)/handle"]) { $1 })
        #expect(failed.verdict == .fail)
        #expect(failed.findings.map(\.requirement).contains("AF-LINK-005"), "\(failed)")
    }

    @Test("APPFLIP_CONFIG drives a configured server and handler: token cases pass against the reference server, the broken handler fails")
    func configuration() async throws {
        let reference = ReferenceServer(configuration: ReferenceServerConfiguration(clientID: "google-client", clientSecret: "s3cret"))
        let server = try HTTPServer(handler: reference.handler)
        server.start()
        defer { server.stop() }
        var lax = LinkHandler(clientID: "google-client")
        lax.acceptsRedirectURI = { _ in true }
        let handler = try serve(lax)
        defer { handler.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("library-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("staging.target")
        try Data(
            """
            client_id: google-client
            client_secret_env: LIBRARY_TEST_SECRET
            project_id: reference-project
            link: https://app.example/flip
            endpoints:
              authorize: \(base)/oauth/authorize
              token: \(base)/oauth/token
              revoke: \(base)/oauth/revoke
              link_handler: http://127.0.0.1:\(handler.port)/handle
            scenarios:
              consent:
                Cookie: \(ReferenceServerConfiguration.userCookie)=approver

            """.utf8
        ).write(to: config)
        setenv("LIBRARY_TEST_SECRET", "s3cret", 1)
        let variables = ["APPFLIP_CONFIG": config.path]
        let exchange = try await run("token/exchange/client-secret-post", variables)
        #expect(exchange.verdict == .pass, "\(exchange)")
        let lookalike = try await run("app-link/redirect-uri/rejected/suffix-host", variables)
        #expect(lookalike.verdict == .fail, "\(lookalike)")
        #expect(lookalike.findings.map(\.requirement).contains("AF-LINK-005"))
    }
}
