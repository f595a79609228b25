import AppFlipBase
import AppFlipHTTP
import AppFlipLoading
import AppFlipModel
import AppFlipReferenceServer
import AppFlipReporting
import AppFlipSetup
import AppFlipSyntax
import AppFlipTestSupport
import Foundation
import Testing

@testable import AppFlipRunner

/// The HTTP profiles against the reference server, and against broken servers that must be caught.
@Suite("HTTP profiles", .serialized)
struct HTTPProfileTests {
    static let settings = ReferenceServerConfiguration(clientID: ReferenceClient.id, clientSecret: ReferenceClient.secret, codeLifetime: 1)

    /// Serves the reference (wrapped by `wrap`) on loopback and runs every non-app-link case against it. Cases that
    /// wait (code expiry) run only when `declaredCodeLifetime` is given, so most tests do not wait.
    private func run(
        wrap: (@escaping HTTPServer.Handler) -> HTTPServer.Handler = { $0 }, declaredCodeLifetime: Double? = nil,
        declaredTokenLifetime: Double? = nil,
        settings: ReferenceServerConfiguration = Self.settings, throughForms: Bool = false,
        includeSignInProbes: Bool = false, onlyConsentSignsIn: Bool = false, throttlingProbe: Bool = true,
        jobs: Int = 2, judgesApart: Bool = true, seed: UInt64? = nil, projectID: String = Self.settings.projectID
    ) throws -> RunResult {
        let reference = ReferenceServer(configuration: settings)
        let server = try HTTPServer(handler: wrap(reference.handler))
        server.start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        var targets = TargetUnderTest(
            adapters: [.linkHandler: InProcessTarget(handler: reference.linkHandler)],
            endpoints: [
                .authorize: base + "/oauth/authorize", .token: base + "/oauth/token", .revoke: base + "/oauth/revoke",
                .siteAssociation: base + "/.well-known/apple-app-site-association",
                .linkSiteAssociation: base + "/.well-known/apple-app-site-association", .api: base + ReferenceServer.apiPath,
                .metadata: base + ReferenceServer.metadataPath,
            ],
            clientSecret: Self.settings.clientSecret,
            decorations: [
                .consent: [("Cookie", "reference-user=approver")], .deny: [("Cookie", "reference-user=refuser")],
                .secondUser: [("Cookie", "reference-user=second")],
            ],
            secondClient: (ReferenceServerConfiguration.secondClientID, ReferenceServerConfiguration.secondClientSecret))
        if throughForms {
            func script(_ user: String, _ button: String) -> SignInScript {
                SignInScript(
                    form: "username,password", fields: ["username": user, "password": user + "-password"],
                    consentForm: "action:/oauth/consent", consentButton: "decision=" + button)
            }
            targets.signIn = [
                .consent: script("approver", "approve"), .deny: script("refuser", "deny"),
                .disabledAccount: script("disabled", "approve"), .secondUser: script("second", "approve"),
            ]
            if onlyConsentSignsIn { targets.signIn = [.consent: script("approver", "approve")] }
        }
        var configuration = SuiteRun.configuration
        configuration.projectID = projectID
        configuration.appID = Self.settings.appID
        configuration.codeLifetime = declaredCodeLifetime
        configuration.tokenLifetime = declaredTokenLifetime
        configuration.narrowedScope = NarrowedScope(
            request: ReferenceServerConfiguration.narrowedScope.request,
            granted: ReferenceServerConfiguration.narrowedScope.granted)
        configuration.throttlingProbe = throttlingProbe
        if let seed { configuration.seed = seed }
        configuration.nativeClient = NativeClient(
            id: ReferenceServerConfiguration.nativeClientID,
            redirectURIs: ReferenceServerConfiguration.nativeRedirectURIs)
        // The reference is served over plain http on loopback, so the https-only cases have nothing to hold to
        // (HTTPSTests runs them over TLS).
        let cases = try SuiteRun.load().1.cases.filter {
            $0.profile != .appLink && $0.profile != .nativeClient && $0.profile != .androidAppFlip
                && (declaredCodeLifetime != nil || declaredTokenLifetime != nil || !$0.waits) && !$0.needsHTTPS
                && (throughForms || includeSignInProbes || !$0.probesSignIn)
        }
        return try SuiteRun.run(targets, cases: cases, configuration: configuration, jobs: jobs, judgesApart: judgesApart)
    }

    struct ApartSetup: Sendable, CustomTestStringConvertible {
        var name: String
        var throughForms: Bool
        var wrap: @Sendable (@escaping HTTPServer.Handler) -> HTTPServer.Handler
        var testDescription: String { name }
    }

    static let apartSetups: [ApartSetup] =
        [
            ApartSetup(name: "reference, users by headers", throughForms: false) { $0 },
            ApartSetup(name: "reference, users through the pages", throughForms: true) { $0 },
        ]
        + BrokenServers.all.filter { $0.name == "framable-pages" }.map { defect in
            ApartSetup(name: "broken: " + defect.name, throughForms: true, wrap: defect.wrap)
        }
        + pageDefects.filter { $0.name.contains("third-party") || $0.name.contains("return_to") }.map { defect in
            ApartSetup(name: "broken: " + defect.name, throughForms: true, wrap: defect.wrap)
        }

    @Test("Judged on the judging thread or in line, every HTTP result is the same", arguments: apartSetups)
    func judgedApart(_ setup: ApartSetup) throws {
        let apart = try run(wrap: setup.wrap, throughForms: setup.throughForms, includeSignInProbes: true, jobs: 1, judgesApart: true)
        let inLine = try run(wrap: setup.wrap, throughForms: setup.throughForms, includeSignInProbes: true, jobs: 1, judgesApart: false)
        #expect(
            apart.results.contains { result in
                guard DeferredJudgement.applies(to: result.conformanceCase), case .http = result.conformanceCase.steps.first?.action else {
                    return false
                }
                return true
            })
        #expect(apart.results.count == inLine.results.count)
        // Each run has a server of its own, on a port of its own, minting anti-forgery tokens of its own; a burst's
        // timings are the machine's.
        func comparable(_ result: CaseResult) -> String {
            JudgingApartTests.comparable(result)
                .replacingOccurrences(of: #"127\.0\.0\.1(:|%3A)[0-9]+"#, with: "127.0.0.1:PORT", options: .regularExpression)
                .replacingOccurrences(of: #"name=\\"csrf\\" value=\\"[^"\\]*\\""#, with: "csrf", options: .regularExpression)
                .replacingOccurrences(of: #"[0-9]+ ms"#, with: "N ms", options: .regularExpression)
        }
        for (one, other) in zip(apart.results.map(comparable), inLine.results.map(comparable)) where one != other {
            Issue.record("judged apart:\n\(one)\n\nin line:\n\(other)")
        }
    }

    @Test("A 5xx never passes silently: a probe whose checks hold over a 500 warns under TOK-GEN-009, with the status")
    func serverErrorWarns() throws {
        let text = """
            id: token/request/crash-probe
            title: A probe that only asks for no token
            profile: token
            scenario: consent
            steps:
              - request:
                  endpoint: token
                  form:
                    query: grant_type=authorization_code&code=appflip-no-such-code
                checks:
                  - requirement: TOK-CODE-005 MUST
                    expect:
                      json:
                        access_token: absent

            """
        let catalog = try SuiteRun.load().0
        let cases = try CaseLoader.load(
            files: [SuiteFile(path: "cases/token/crash-probe.case", bytes: Array(text.utf8))], base: "cases",
            catalog: catalog
        ).cases
        let reference = ReferenceServer(configuration: Self.settings)
        let crashing: HTTPServer.Handler = { request in
            guard request.path == "/oauth/token", String(decoding: request.body, as: UTF8.self).contains("appflip-no-such-code") else {
                return reference.handler(request)
            }
            return HTTPResponse(
                status: 500, headers: HTTPHeaders([("Content-Type", "text/html")]), body: Array("<h1>Internal Server Error</h1>".utf8))
        }
        for (handler, expected) in [(crashing, Verdict.warn), (reference.handler, Verdict.pass)] {
            let server = try HTTPServer(handler: handler)
            server.start()
            defer { server.stop() }
            let base = "http://127.0.0.1:\(server.port)"
            let targets = TargetUnderTest(
                endpoints: [.authorize: base + "/oauth/authorize", .token: base + "/oauth/token"], clientSecret: Self.settings.clientSecret)
            let result = try #require(try SuiteRun.run(targets, cases: cases).results.first)
            #expect(result.verdict == expected, "\(result.findings)")
            if expected == .warn {
                #expect(result.findings.map(\.requirement.id) == ["TOK-GEN-009"])
                #expect(result.findings.first?.observed == "HTTP 500 answering POST /oauth/token: the server failed on that input")
            }
        }
    }

    @Test("A case whose tested checks could not apply is skipped with the reason, never passed on its setup check")
    func setupAlone() throws {
        let id = "authorize/hardening/sign-in-pages"
        let withoutSignIn = try run(includeSignInProbes: true).results.first { $0.conformanceCase.id == id }
        #expect(withoutSignIn?.verdict == .skip, "\(withoutSignIn?.verdict as Any) \(withoutSignIn?.message ?? "")")
        #expect(
            withoutSignIn?.message?.hasPrefix("not judged: ") == true && withoutSignIn?.message?.contains("sign_in") == true,
            "\(withoutSignIn?.message ?? "")")
        let throughPages = try run(throughForms: true, includeSignInProbes: true).results.first { $0.conformanceCase.id == id }
        #expect(throughPages?.verdict == .pass, "\(throughPages?.message ?? "")")
    }

    @Test("A code is refused after the declared lifetime; a server whose codes never expire fails AF-AUTHZ-013")
    func codeExpiry() throws {
        let expiring = try run(declaredCodeLifetime: 1)
        #expect(expiring.results.first { $0.conformanceCase.id == "token/code/expired" }?.verdict == .pass)
        var lasting = Self.settings
        lasting.codeLifetime = 600
        let run = try run(declaredCodeLifetime: 1, settings: lasting)
        let failed = Set(run.results.flatMap(\.findings).filter { $0.verdict == .fail }.map(\.requirement.id))
        #expect(failed == ["AF-AUTHZ-013"])
    }

    @Test(
        "An access token is refused at the API after the declared lifetime (401, or another 4xx with a warning); tokens that never expire fail TOK-RESP-006"
    )
    func tokenExpiry() throws {
        var short = Self.settings
        short.tokenLifetime = 1
        let expiring = try run(declaredTokenLifetime: 1, settings: short)
        let expiry = expiring.results.first { $0.conformanceCase.id == "token/api/access-token-expires" }
        #expect(expiry?.verdict == .pass, "\(expiry?.message ?? "") \(expiry?.findings.map(\.observed) ?? [])")
        let lasting = try run(declaredTokenLifetime: 1)
        let failed = Set(lasting.results.flatMap(\.findings).filter { $0.verdict == .fail }.map(\.requirement.id))
        #expect(failed == ["TOK-RESP-006"])
        // 403 for an expired token still refuses it (the MUST holds); RFC 6750 §3.1's 401 is a SHOULD: a warning alone.
        let forbidding = try run(
            wrap: { reference in
                { request in
                    var response = reference(request)
                    if request.path == ReferenceServer.apiPath, response.status == 401 { response.status = 403 }
                    return response
                }
            }, declaredTokenLifetime: 1, settings: short)
        let forbidden = forbidding.results.first { $0.conformanceCase.id == "token/api/access-token-expires" }
        #expect(
            forbidden?.verdict == .warn && forbidden?.findings.map(\.requirement.id) == ["TOK-RESP-006-S"],
            "\(forbidden?.findings.map { "\($0.requirement) \($0.observed)" } ?? [])")
        let skipped = try run().results.first { $0.conformanceCase.id == "token/api/access-token-expires" }
        #expect(skipped == nil, "a waiting case is left out of runs that declare no lifetime")
        let undeclared = try SuiteRun.run(
            TargetUnderTest(endpoints: [
                .authorize: "http://127.0.0.1:9/a", .token: "http://127.0.0.1:9/t",
                .revoke: "http://127.0.0.1:9/r", .api: "http://127.0.0.1:9/api",
            ]),
            cases: SuiteRun.load().1.cases.filter { $0.id == "token/api/access-token-expires" })
        #expect(undeclared.results.first?.message?.contains("token_lifetime") == true)
    }

    @Test("Tokens that act for a fixed user fail TOK-CODE-007; without a second user the case is skipped with the reason")
    func perUser() throws {
        let fixed = try run(wrap: { reference in
            { request in
                let response = reference(request)
                guard request.path == ReferenceServer.apiPath, response.status == 200 else { return response }
                return response.editingJSON { $0["user"] = "approver" }
            }
        })
        let failed = Set(fixed.results.flatMap(\.findings).filter { $0.verdict == .fail }.map(\.requirement.id))
        #expect(failed == ["TOK-CODE-007"])
        let stamped = try run(wrap: { reference in
            { request in
                // An API that adds a per-request value cannot tell users apart: the check is not judged, nothing fails.
                let response = reference(request)
                guard request.path == ReferenceServer.apiPath, response.status == 200 else { return response }
                return response.editingJSON { $0["request_id"] = UUID().uuidString }
            }
        })
        let perUser = stamped.results.first { $0.conformanceCase.id == "token/api/per-user" }
        #expect(perUser?.verdict == .pass)
        #expect(perUser?.checks.contains { !$0.isApplicable && ($0.notApplicable ?? "").contains("cannot tell users apart") } == true)
        let perUserCase = try #require(try SuiteRun.load().1.cases.first { $0.id == "token/api/per-user" })
        let alone = try SuiteRun.run(
            TargetUnderTest(endpoints: [
                .authorize: "http://127.0.0.1:9/a", .token: "http://127.0.0.1:9/t",
                .revoke: "http://127.0.0.1:9/r", .api: "http://127.0.0.1:9/api",
            ]), cases: [perUserCase])
        #expect(alone.results.first?.verdict == .skip && (alone.results.first?.message ?? "").contains("second-user"))
    }

    @Test("Without project_id, a case that sends Google's redirect URI is skipped with the reason: the server is never blamed for it")
    func projectIDNeeded() throws {
        let run = try run(projectID: "")
        let needing = run.results.filter { $0.conformanceCase.needs.contains(.projectID) }
        #expect(needing.count >= 10, "the authorize cases send https://oauth-redirect.googleusercontent.com/r/PROJECT_ID")
        for result in needing {
            #expect(
                result.verdict == .skip && result.message?.contains("no project_id is configured") == true,
                "\(result.conformanceCase.id): \(result.verdict) \(result.message ?? "")")
        }
        let failing = run.results.filter { $0.verdict == .fail || $0.verdict == .error }
        #expect(failing.isEmpty, "\(failing.map { "\($0.conformanceCase.id): \($0.message ?? "") \($0.findings.map(\.observed))" })")
        // The loader adds the need from the templates: the valid authorization request is one such case.
        #expect(needing.contains { $0.conformanceCase.id == "authorize/valid/get" } || needing.contains { $0.conformanceCase.profile == .authorize })
    }

    @Test("Without a declared code lifetime the expiry case is skipped with the reason; a long one needs --slow")
    func expiryNeedsDeclaredLifetime() throws {
        let cases = try SuiteRun.load().1.cases
        let expiry = try #require(cases.first { $0.id == "token/code/expired" })
        let undeclared = try SuiteRun.run(
            TargetUnderTest(endpoints: [
                .authorize: "http://127.0.0.1:9/a", .token: "http://127.0.0.1:9/t",
                .revoke: "http://127.0.0.1:9/r",
            ]), cases: [expiry])
        #expect(undeclared.results.first?.verdict == .skip)
        #expect(undeclared.results.first?.message?.contains("code_lifetime") == true)
        var configuration = SuiteRun.configuration
        configuration.codeLifetime = 600
        let slow = try SuiteRun.run(
            TargetUnderTest(endpoints: [
                .authorize: "http://127.0.0.1:9/a", .token: "http://127.0.0.1:9/t",
                .revoke: "http://127.0.0.1:9/r",
            ]), cases: [expiry], configuration: configuration)
        #expect(slow.results.first?.verdict == .skip)
        #expect(slow.results.first?.message?.contains("--slow") == true)
    }

    @Test("Every HTTP profile passes against the reference server")
    func reference() throws {
        let run = try run()
        #expect(run.results.count >= 60)
        #expect(run.exitStatus == .conformant)
        // A case whose tested checks need a configuration this run lacks (sign_in) is skipped, with the reason.
        let notPassing = run.results.filter { $0.verdict != .pass && !Self.allowedSkip($0) }
        #expect(notPassing.isEmpty, "\(notPassing.map { "\($0.conformanceCase.id): \($0.message ?? "") \($0.findings.map(\.observed))" })")
        for profile in [Profile.authorize, .token, .siteAssociation, .flip] {
            #expect(run.results.contains { $0.conformanceCase.profile == profile }, "no \(profile.rawValue) case ran")
        }
        // The reference does not rotate refresh tokens: the rotation rule's condition is not met, which is no gap in
        // a certification (the sign-in page cases, which need configuration, are).
        let rotation = try #require(run.results.first { $0.conformanceCase.id == "token/refresh/rotation-keeps-old-until-new-used" })
        #expect(rotation.verdict == .skip && rotation.conditionUnmet, "\(rotation.verdict) \(rotation.message ?? "")")
        #expect(run.untestedCount == run.results.filter { $0.verdict == .skip && !$0.conditionUnmet }.count)
    }

    @Test(
        "Every HTTP profile passes when the test users sign in and consent through the reference's real pages",
        arguments: [nil, VariantServers.cookiesInAnotherStyle])
    func throughForms(_ variant: VariantServers.Variant?) throws {
        let run = try run(wrap: variant?.wrap ?? { $0 }, throughForms: true)
        let notPassing = run.results.filter { $0.verdict != .pass && !($0.verdict == .skip && $0.conditionUnmet) }
        #expect(notPassing.isEmpty, "\(notPassing.map { "\($0.conformanceCase.id): \($0.message ?? "") \($0.findings.map(\.observed))" })")
    }

    @Test("A sign-in form whose action holds CR LF is never sent as written: no header or request is injected, the walk says why")
    func injectedFormAction() throws {
        let seen = RequestLog()
        let run = try run(
            wrap: { reference in
                { request in
                    seen.add(request)
                    var response = reference(request)
                    let page = String(decoding: response.body, as: UTF8.self)
                    if page.contains(#"action="/login""#) {
                        response.body = Array(
                            page.replacingOccurrences(of: #"action="/login""#, with: #"action="/login&#13;&#10;X-Injected: yes&#13;&#10;""#).utf8)
                    }
                    return response
                }
            }, throughForms: true)
        #expect(!seen.requests.contains { $0.headers["X-Injected"] != nil }, "a header was injected")
        let walked = run.results.filter {
            ($0.message ?? "").contains("not sent: the request target holds CR at byte 7, which would end the request line")
        }
        #expect(!walked.isEmpty, "\(run.results.compactMap(\.message).prefix(5))")
        #expect(!run.results.contains { $0.suiteFault != nil })
    }

    /// A skip a correct server may get: a case whose tested checks need a configuration this run lacks (sign_in), or
    /// one whose requirement's condition this server does not meet (it does not rotate refresh tokens).
    static func allowedSkip(_ result: CaseResult) -> Bool {
        result.verdict == .skip && (result.conditionUnmet || result.message?.hasPrefix("not judged: ") == true)
    }

    struct PageDefect: Sendable, CustomTestStringConvertible {
        var name: String
        var requirement: String
        var verdict: Verdict
        var wrap: @Sendable (@escaping HTTPServer.Handler) -> HTTPServer.Handler
        var testDescription: String { name }
    }

    static let pageDefects: [PageDefect] = [
        PageDefect(name: "login answered with 307", requirement: "AF-AUTHZ-022", verdict: .fail) { reference in
            { request in
                var response = reference(request)
                if request.path == "/login", response.status == 303 { response.status = 307 }
                return response
            }
        },
        PageDefect(name: "consent page framable", requirement: "AF-AUTHZ-021", verdict: .fail) { reference in
            { request in
                var response = reference(request)
                if request.path == "/oauth/authorize", String(decoding: response.body, as: UTF8.self).contains("id=\"consent\"") {
                    response.headers.fields.removeAll { $0.name == "X-Frame-Options" || $0.name == "Content-Security-Policy" }
                }
                return response
            }
        },
        PageDefect(name: "consent accepted without its anti-forgery token", requirement: "AF-AUTHZ-020", verdict: .fail) { reference in
            { request in
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/consent", !body.contains("csrf=") else { return reference(request) }
                return HTTPResponse(
                    status: 303, headers: HTTPHeaders([("Location", "https://oauth-redirect.googleusercontent.com/r/reference-project?code=forged")]))
            }
        },
        PageDefect(name: "consent takes an anti-forgery token issued to another user", requirement: "AF-AUTHZ-020", verdict: .fail) { reference in
            { request in
                // Checks only that the token is one it issued, not whose session it belongs to.
                let response = reference(request)
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/consent", response.status == 403, body.contains("csrf="), body.contains("decision=approve") else {
                    return response
                }
                return HTTPResponse(
                    status: 303, headers: HTTPHeaders([("Location", "https://oauth-redirect.googleusercontent.com/r/reference-project?code=planted")])
                )
            }
        },
        PageDefect(name: "wrong client secrets are never throttled", requirement: "TOK-GEN-006-S", verdict: .warn) { reference in
            { request in
                let response = reference(request)
                guard request.path == "/oauth/token", response.status == 429 else { return response }
                return HTTPResponse(
                    status: 401, headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
                    body: Array(#"{"error":"invalid_client"}"#.utf8))
            }
        },
        PageDefect(name: "a native client is re-approved silently in the same session", requirement: "NAT-AS-006", verdict: .warn) { reference in
            let approved = CodeSet()
            return { request in
                let session =
                    (request.headers["Cookie"] ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                    .first { $0.hasPrefix("reference-session=") } ?? ""
                let query = String(request.query ?? "")
                if request.path == "/oauth/authorize", query.contains("client_id=native-app"), !session.isEmpty, approved.contains(session) {
                    let parameters = Dictionary(
                        query.split(separator: "&").map { pair -> (String, String) in
                            let parts = pair.split(separator: "=", maxSplits: 1)
                            return (String(parts[0]), parts.count > 1 ? String(parts[1]).removingPercentEncoding ?? "" : "")
                        }, uniquingKeysWith: { first, _ in first })
                    let location = (parameters["redirect_uri"] ?? "") + "?code=silent-approval&state=" + (parameters["state"] ?? "")
                    return HTTPResponse(status: 302, headers: HTTPHeaders([("Location", location)]))
                }
                let response = reference(request)
                if request.path == "/oauth/consent", response.headers["Location"]?.contains("code=") == true, !session.isEmpty {
                    approved.insert(session)
                }
                return response
            }
        },
        PageDefect(name: "sign-in follows any return_to", requirement: "AF-AUTHZ-018", verdict: .fail) { reference in
            { request in
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/login", let pair = body.split(separator: "&").first(where: { $0.hasPrefix("return_to=") }),
                    let target = String(pair.dropFirst(10)).removingPercentEncoding, target.hasPrefix("https://")
                else { return reference(request) }
                return HTTPResponse(status: 303, headers: HTTPHeaders([("Location", target)]))
            }
        },
        PageDefect(name: "a verifier outside the unreserved set is accepted", requirement: "TOK-PKCE-005", verdict: .warn) { reference in
            { request in
                let body = String(decoding: request.body, as: UTF8.self)
                guard request.path == "/oauth/token", body.contains("code_verifier="), body.contains("%2B") else { return reference(request) }
                return HTTPResponse(
                    status: 200, headers: HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
                    body: Array(#"{"access_token":"at-accepted","token_type":"Bearer","expires_in":3600}"#.utf8))
            }
        },
        PageDefect(name: "sign-in page loads a third-party script", requirement: "AF-AUTHZ-024", verdict: .warn) { reference in
            { request in
                var response = reference(request)
                if request.path == "/oauth/authorize", String(decoding: response.body, as: UTF8.self).contains("id=\"sign-in\"") {
                    response.body += Array(#"<script src="https://cdn.tracker.example/t.js"></script>"#.utf8)
                }
                return response
            }
        },
    ]

    @Test("Each defect is found at its own level (sign-in pages walked through forms)", arguments: pageDefects)
    func signInPageDefects(_ defect: PageDefect) throws {
        let run = try run(wrap: defect.wrap, throughForms: true)
        let findings = run.results.flatMap(\.findings).filter { $0.requirement.id == defect.requirement }
        #expect(!findings.isEmpty)
        #expect(findings.allSatisfy { $0.verdict == defect.verdict })
    }

    @Test("Probes of the sign-in pages are skipped with the reason when the configuration signs users in by headers")
    func probesNeedSignIn() throws {
        let run = try run(includeSignInProbes: true)
        let probes = run.results.filter(\.conformanceCase.probesSignIn)
        #expect(probes.count == 4)
        #expect(probes.allSatisfy { $0.verdict == .skip && ($0.message ?? "").contains("sign_in") })
    }

    @Test("The throttling probe runs only when opted into, last and alone; otherwise it is skipped with the reason")
    func throttlingProbeOptIn() throws {
        let skipped = try run(throttlingProbe: false).results.first { $0.conformanceCase.runsLast }
        #expect(skipped?.verdict == .skip && (skipped?.message ?? "").contains("throttling_probe: true"), "\(skipped?.message ?? "none")")

        let reference = ReferenceServer(configuration: Self.settings)
        let server = try HTTPServer(handler: reference.handler)
        server.start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let targets = TargetUnderTest(
            endpoints: [.authorize: base + "/oauth/authorize", .token: base + "/oauth/token", .revoke: base + "/oauth/revoke"],
            clientSecret: Self.settings.clientSecret, decorations: [.consent: [("Cookie", "reference-user=approver")]])
        var configuration = SuiteRun.configuration
        configuration.throttlingProbe = true
        let all = try SuiteRun.load().1.cases
        let probe = try #require(all.first { $0.runsLast })
        // The probe first in the list, with ordinary token cases after it: it still runs after all of them.
        let others = all.filter { $0.profile == .token && $0.needsNothingSpecial && !$0.waits && !$0.needsHTTPS }.prefix(12)
        let finished = Locked<[String]>([])
        var runner = Runner(configuration: configuration, timeout: 10, jobs: 3)
        runner.includeSlow = false
        let results = runner.run(
            [probe] + others, targets: targets, progress: { result in finished.withLock { $0.append(result.conformanceCase.id) } })
        #expect(finished.withLock { $0.last } == probe.id, "\(finished.withLock { $0 })")
        #expect(results.first?.conformanceCase.id == probe.id, "results stay in case order")
        #expect(results.first?.verdict == .pass, "\(results.first?.checks.map(\.observed) ?? [])")
        #expect(
            results.first?.checks.first?.observed.contains("throttled: 429 Too Many Requests") == true,
            "\(results.first?.checks.map(\.observed) ?? [])")
    }

    @Test("The foreign-token probe is skipped with the reason when no second user signs in; the others still run")
    func foreignTokenNeedsSecondUser() throws {
        let run = try run(throughForms: true, onlyConsentSignsIn: true)
        let probes = run.results.filter(\.conformanceCase.probesSignIn)
        let foreign = try #require(probes.first { $0.conformanceCase.needsSecondSignIn })
        #expect(foreign.verdict == .skip && (foreign.message ?? "").contains("second user's session"), "\(foreign.message ?? "")")
        #expect(probes.filter { !$0.conformanceCase.needsSecondSignIn }.allSatisfy { $0.verdict == .pass })
    }

    @Test("A sign-in page that sends the browser to another host ends the walk there: that host is never contacted")
    func signInNeverLeavesTheOrigin() throws {
        let elsewhere = try RecordingServer { _ in RecordingServer.ok("<form id=sign-in><input name=username><input name=password></form>") }
        defer { elsewhere.stop() }
        let run = try run(
            wrap: { reference in
                { request in
                    // The login lives on another host that is not among the allowed origins.
                    guard request.path == "/oauth/authorize", request.headers["Cookie"]?.contains("reference-session") != true else {
                        return reference(request)
                    }
                    return HTTPResponse(status: 302, headers: HTTPHeaders([("Location", "http://127.0.0.1:\(elsewhere.port)/login")]))
                }
            }, throughForms: true)
        #expect(elsewhere.connectionCount == 0)
        #expect(run.results.contains { $0.verdict == .fail })
    }

    /// Runs against the server made by `wrap` twice, with two seeds (other states, nonces and verifiers, another
    /// order of connections): every case's verdict must be the same both times. The determinism guard.
    private func runTwice(wrap: @escaping (@escaping HTTPServer.Handler) -> HTTPServer.Handler) throws -> RunResult {
        let first = try run(wrap: wrap, seed: 11)
        let second = try run(wrap: wrap, seed: 12)
        let verdicts = { (run: RunResult) in run.results.map { "\($0.conformanceCase.id): \($0.verdict)" } }
        for (one, other) in zip(verdicts(first), verdicts(second)) where one != other {
            Issue.record("the verdict changed with the seed: \(one) / \(other)")
        }
        #expect(first.results.count == second.results.count)
        return first
    }

    @Test(
        "Each shipped broken server fails exactly the requirements it names and warns under its SHOULDs, the same under two seeds",
        arguments: BrokenServers.all)
    func broken(_ defect: BrokenServers.Defect) throws {
        let run = try runTwice(wrap: defect.wrap)
        let findings = run.results.flatMap(\.findings)
        let failed = Set(findings.filter { $0.verdict == .fail }.map(\.requirement.id))
        let warned = Set(findings.filter { $0.verdict == .warn }.map(\.requirement.id))
        // The HTTP profiles in this process (no flip, no Android activity): what the defect breaks there is detection's.
        let judged = Set(run.results.filter { $0.verdict != .skip }.flatMap(\.conformanceCase.requirements).map(\.id))
        #expect(!failed.isEmpty || !warned.isEmpty, "the defect shows nothing in the HTTP profiles")
        #expect(run.exitStatus == (failed.isEmpty ? .conformant : .nonConformant))
        #expect(failed == defect.fails.intersection(judged), "failed: \(failed.sorted())")
        #expect(defect.warns.intersection(judged).isSubset(of: warned), "warned: \(warned.sorted())")
    }

    @Test("Each correct server with another allowed design passes every HTTP case, under two seeds", arguments: VariantServers.all)
    func variant(_ variant: VariantServers.Variant) throws {
        let run = try runTwice(wrap: variant.wrap)
        let notPassing = run.results.filter { $0.verdict != .pass && !Self.allowedSkip($0) }
        #expect(
            notPassing.isEmpty,
            "\(variant.allowance): \(notPassing.map { "\($0.conformanceCase.id): \($0.message ?? "") \($0.findings.map(\.observed))" })")
    }

    @Test("A site association served as text/plain warns under AF-LINK-025 (SHOULD) and fails nothing")
    func siteAssociationContentType() throws {
        let run = try run(wrap: { reference in
            { request in
                var response = reference(request)
                if request.path == "/.well-known/apple-app-site-association" {
                    response.headers.fields.removeAll { $0.name == "Content-Type" }
                    response.headers.append("Content-Type", "text/plain")
                }
                return response
            }
        })
        #expect(run.exitStatus == .conformant)
        let warned = run.results.flatMap(\.findings).filter { $0.verdict == .warn }.map(\.requirement.id)
        #expect(warned == ["AF-LINK-025"])
    }

    @Test("An API that ignores revocation warns under the SHOULD requirements of revocation, and fails nothing")
    func apiIgnoresRevocation() throws {
        let run = try run(wrap: { reference in
            let answers = AnswerMemory()
            return { request in
                // Remembers every access token it ever issued, with the API's answer for it, and keeps answering that.
                let token = String((request.headers["Authorization"] ?? "").dropFirst(7))
                if request.path == "/api/userinfo", let remembered = answers.answer(for: token) { return remembered }
                let response = reference(request)
                if request.path == "/oauth/token", let access = response.jsonString("access_token") {
                    let api = HTTPRequest(method: "GET", target: "/api/userinfo", headers: HTTPHeaders([("Authorization", "Bearer " + access)]))
                    answers.remember(reference(api), for: access)
                }
                return response
            }
        })
        #expect(run.exitStatus == .conformant)
        let warned = Set(run.results.flatMap(\.findings).filter { $0.verdict == .warn }.map(\.requirement.id))
        // The API keeps answering for the tokens of a replayed code too: TOK-CODE-004-S, the other SHOULD it breaks.
        #expect(warned == ["TOK-REV-006", "TOK-REV-002-S", "TOK-CODE-004-S"])
    }

    @Test("JWT access tokens warn under TOK-RESP-003 (SHOULD NOT) and fail nothing")
    func jwtAccessTokens() throws {
        let run = try run(wrap: { reference in
            { request in
                if request.path == "/api/userinfo", let bearer = request.headers["Authorization"], bearer.split(separator: ".").count == 3 {
                    // The API unwraps the JWT to the reference's token.
                    var forwarded = request
                    forwarded.headers.fields.removeAll { $0.name == "Authorization" }
                    forwarded.headers.append("Authorization", "Bearer " + bearer.split(separator: ".")[1])
                    return reference(forwarded)
                }
                if request.path == "/oauth/revoke" {
                    // So does the revocation endpoint.
                    var forwarded = request
                    let body = String(decoding: request.body, as: UTF8.self).split(separator: "&").map { pair -> String in
                        let parts = pair.split(separator: ".")
                        return pair.hasPrefix("token=") && parts.count == 3 ? "token=" + parts[1] : String(pair)
                    }
                    forwarded.body = Array(body.joined(separator: "&").utf8)
                    return reference(forwarded)
                }
                let response = reference(request)
                guard request.path == "/oauth/token", response.status == 200, let token = response.jsonString("access_token") else { return response }
                // A JWT-shaped token that still works: the header and claims wrap the reference's own token.
                let header = Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                return response.editingJSON { $0["access_token"] = header + "." + token + ".c2ln" }
            }
        })
        #expect(run.exitStatus == .conformant)
        let warned = Set(run.results.flatMap(\.findings).filter { $0.verdict == .warn }.map(\.requirement.id))
        #expect(warned == ["TOK-RESP-003"])
    }

    @Test("The client secret and tokens never appear in evidence")
    func secretsRedacted() throws {
        let run = try run()
        let texts: [String] =
            run.results.flatMap { result -> [String] in
                [result.evidence.link, result.evidence.answer, result.evidence.stderr] + result.evidence.exchanges.map { $0.rendered(times: true) }
            }
            + run.results.flatMap(\.checks).map(\.observed)
        #expect(!texts.contains { $0.contains(Self.settings.clientSecret) })
        #expect(!texts.contains { $0.contains("at-") && $0.range(of: #"at-[A-Za-z0-9_-]{32}"#, options: .regularExpression) != nil })
        #expect(!texts.contains { $0.range(of: #"rt-[A-Za-z0-9_-]{32}"#, options: .regularExpression) != nil })
        #expect(!texts.contains { $0.contains("reference-user=approver") })
    }

    @Test("Each HTTP exchange records when it was sent, how long the answer took and the headers both ways, redacted")
    func exchangeHeadersAndTimes() throws {
        let started = Date()
        let run = try run()
        let exchanges = run.results.flatMap(\.evidence.exchanges)
        let token = try #require(exchanges.first { $0.transcript.contains("/oauth/token") && $0.transcript.contains("→ HTTP 200") })
        #expect(token.requestHeaders.first?.name == "Host")
        #expect(token.requestHeaders.contains { $0.name == "Content-Type" && $0.value == "application/x-www-form-urlencoded" })
        #expect(token.responseHeaders.contains { $0.name.lowercased() == "content-type" && $0.value.hasPrefix("application/json") })
        let sentAt = try #require(token.sentAt)
        #expect(sentAt >= started.addingTimeInterval(-1) && sentAt <= Date())
        #expect((token.milliseconds ?? -1) >= 0)
        // Basic credentials and the decoration's cookie are hidden by the header's name.
        let basic = Data("\(Self.settings.clientID):\(Self.settings.clientSecret)".utf8).base64EncodedString()
        let headers = exchanges.flatMap { $0.requestHeaders + $0.responseHeaders }
        #expect(headers.contains { $0.name == "Authorization" && $0.value.hasPrefix("Basic ‹redacted") })
        #expect(headers.contains { $0.name == "Cookie" && $0.value.contains("‹redacted") })
        #expect(!headers.contains { $0.value.contains(basic) || $0.value.contains(Self.settings.clientSecret) || $0.value.contains("approver") })

        // The reports show them (junit.xml every case's, report.md a finding's); a reproducible run leaves out the times only.
        let schema = try JSONSchema(contentsOf: PackageRoot.url.appendingPathComponent("Conformance/results.schema.json").path)
        for reproducible in [false, true] {
            let files = ReportSet(run: run, profiles: ["authorization", "token"], reproducible: reproducible).render()
            let results = try #require(files.first { $0.name == "results.json" }).text
            let junit = try #require(files.first { $0.name == "junit.xml" }).text
            #expect(results.contains("\"request_headers\"") && results.contains("\"response_headers\""))
            #expect(results.contains("\"sent_at\"") == !reproducible)
            #expect(results.contains("\"milliseconds\"") == !reproducible)
            #expect(schema.validate(Data(results.utf8)) == [])
            #expect(junit.contains("&gt; Host: 127.0.0.1:") || junit.contains("> Host: 127.0.0.1:"))
            #expect(junit.contains(", answered in ") == !reproducible)
        }
    }

    @Test("A case whose endpoint is not configured is skipped and says why")
    func unconfiguredProfileSkipped() throws {
        let cases = try SuiteRun.load().1.cases.filter { $0.profile == .token }.prefix(2)
        let run = try SuiteRun.run(TargetUnderTest(), cases: Array(cases))
        #expect(run.results.allSatisfy { $0.verdict == .skip && ($0.message ?? "").contains("not configured") })
    }
}

@Suite("Target configuration")
struct TargetConfigurationTests {
    private func load(_ text: String, environment: [String: String] = [:]) throws(DiagnosticList) -> TargetConfiguration {
        try TargetConfigurationLoader.load(bytes: Array(text.utf8), file: "target.conf", environment: environment)
    }

    @Test("ca_file is read relative to the configuration file; each resolve entry is HOST:PORT:ADDRESS, or an error at its line")
    func transportSettings() throws {
        let base = "client_id: g\nlink: https://app.example/flip\n"
        let loaded = try TargetConfigurationLoader.load(
            bytes: Array((base + "ca_file: staging-ca.pem\nresolve: [\"auth.example:443:127.0.0.1\"]\n").utf8),
            file: "/etc/partner/target.conf", environment: [:])
        #expect(loaded.caFile == "/etc/partner/staging-ca.pem" && loaded.resolve == ["auth.example:443:127.0.0.1"])
        #expect(try load(base + "ca_file: /abs/ca.pem\n").caFile == "/abs/ca.pem")
        do {
            _ = try load(base + "resolve: [\"auth.example:443\"]\n")
            Issue.record("a resolve entry without an address was read")
        } catch {
            #expect(error.description.contains("target.conf:3:") && error.description.contains("HOST:PORT:ADDRESS"), "\(error.description)")
        }
    }

    @Test("The Android settings: action and package together, a redirect URI, a test-only caller; half of them is refused")
    func androidSettings() throws {
        let base = "client_id: g\nlink: https://app.example/flip\n"
        #expect(try load(base).android == nil)
        let signature = (0..<32).map { String(format: "%02X", $0) }.joined(separator: ":")
        let loaded = try load(
            base + "android_action: com.example.APP_FLIP\nandroid_package: com.example\n"
                + "android_caller:\n  package: com.google.appfliptesttool\n  signature_sha256: \(signature)\n")
        #expect(loaded.android?.action == "com.example.APP_FLIP" && loaded.android?.package == "com.example")
        #expect(loaded.android?.caller == AndroidCaller(package: "com.google.appfliptesttool", signatureSHA256: signature))
        #expect(loaded.android?.redirectURI == AndroidSettings.defaultRedirectURI)
        for (text, problem) in [
            ("android_action: a\n", "need 'android_action'"),
            ("android_action: a\nandroid_package: p\nandroid_caller:\n  package: x\n  signature_sha256: AB:CD\n", "32 colon-separated hex pairs"),
        ] {
            do {
                _ = try load(base + text)
                Issue.record("loaded: \(text)")
            } catch {
                #expect(error.description.contains(problem), "\(error.description)")
            }
        }
    }

    @Test("android_allowed_callers: a list of identities, the caller of valid requests always among them; an Android-only file needs no link")
    func allowedCallers() throws {
        let android = "client_id: g\nandroid_action: com.example.APP_FLIP\nandroid_package: com.example\n"
        // The Google app alone by default: the one caller Google's pages name.
        #expect(try load(android).android?.allowedCallers == [.googleApp])
        let home = AndroidCaller.googleHome
        let listed = try load(
            android + "android_allowed_callers:\n  - package: \(home.package)\n    signature_sha256: \(home.signatureSHA256.lowercased())\n")
        #expect(listed.android?.allowedCallers.map(\.package) == [AndroidCaller.googleApp.package, home.package])
        #expect(listed.android?.allowedCallers.last?.sameIdentity(as: home) == true)
        #expect(listed.link.isEmpty)
        // A link is still required where the HTTP profiles need it.
        do {
            _ = try load("client_id: g\nendpoints:\n  token: https://auth.example/token\n")
            Issue.record("endpoints without a link were read")
        } catch {
            #expect(error.description.contains("link"), "\(error.description)")
        }
        for (text, problem, line) in [
            ("android_allowed_callers:\n  - package: x\n", "signature_sha256", 5),
            ("android_allowed_callers:\n  - package: x\n    signature_sha256: AB:CD\n", "32 colon-separated hex pairs", 6),
            ("android_allowed_callers: com.google.android.apps.chromecast.app\n", "must be a list", 4),
        ] {
            do {
                _ = try load(android + text)
                Issue.record("loaded: \(text)")
            } catch {
                #expect(error.description.contains(problem) && error.description.contains("target.conf:\(line):"), "\(error.description)")
            }
        }
    }

    @Test("narrowed_scope: a strict, non-empty part of the request loads; anything else is refused at its line")
    func narrowedScope() throws {
        let base = "client_id: g\nlink: https://app.example/flip\n"
        let loaded = try load(base + "narrowed_scope:\n  request: devices admin\n  granted: devices\n")
        #expect(loaded.narrowedScope == NarrowedScope(request: "devices admin", granted: "devices"))
        for (request, granted, problem) in [
            ("devices", "devices", "nothing is narrowed"), ("devices", "admin", "does not"),
            ("devices admin", "", "names no scope"),
        ] {
            do {
                _ = try load(base + "narrowed_scope:\n  request: \(request)\n  granted: '\(granted)'\n")
                Issue.record("\(request) → \(granted) loaded")
            } catch {
                #expect(error.diagnostics.contains { $0.message.contains(problem) && $0.location.line == 4 }, "\(error.diagnostics)")
            }
        }
    }

    @Test("A complete configuration loads, secrets from the environment")
    func complete() throws {
        let configuration = try load(
            """
            client_id: google-client
            client_secret_env: SECRET
            project_id: p1
            app_id: TEAM.com.example
            link: https://app.example/flip
            token_auth: basic
            endpoints:
              authorize: http://127.0.0.1:1/a
              token: http://127.0.0.1:1/t
            scenarios:
              consent:
                Cookie: session=${env:SESSION}
            """, environment: ["SECRET": "s3cret", "SESSION": "abc123"])
        #expect(configuration.clientSecret == "s3cret")
        #expect(configuration.tokenAuthentication == .basic)
        #expect(configuration.endpoints[.token] == "http://127.0.0.1:1/t")
        #expect(configuration.decorations[.consent]?.first?.value == "session=abc123")
        #expect(configuration.secrets.contains("s3cret") && configuration.secrets.contains("abc123"))
    }

    @Test("The README's example configuration loads")
    func example() throws {
        let environment = [
            "APPFLIP_CLIENT_SECRET": "x", "APPFLIP_APPROVING_USER_SESSION": "a", "APPFLIP_REFUSING_USER_SESSION": "r",
            "APPFLIP_SECOND_CLIENT_SECRET": "s", "APPFLIP_APPROVER_USERNAME": "alice", "APPFLIP_APPROVER_PASSWORD": "pw-123",
            "APPFLIP_SECOND_USER_SESSION": "b",
        ]
        let configuration = try TargetConfigurationLoader.load(
            path: PackageRoot.url.appendingPathComponent("Conformance/examples/staging.target").path, environment: environment)
        #expect(configuration.endpoints.count == 6)
        // Apple's CDN reads the file from the link's own host: derived from `link` when site_association is set.
        #expect(configuration.endpoints[.linkSiteAssociation] == "https://app.example.com/.well-known/apple-app-site-association")
        #expect(configuration.endpoints[.api] == "http://staging.internal.example:8080/api/userinfo")
        #expect(configuration.narrowedScope == NarrowedScope(request: "devices admin", granted: "devices"))
        #expect(configuration.tokenLifetime == 3600 && configuration.decorations[.secondUser]?.first?.value == "session=b")
        #expect(configuration.codeLifetime == 600)
        #expect(configuration.signIn[.consent]?.fields["password"] == "pw-123")
        #expect(configuration.signIn[.consent]?.consentButton == "approve")
        #expect(configuration.signInOrigins == ["http://login.staging.internal.example:8080"])
        #expect(configuration.secrets.contains("pw-123"), "credentials are redacted like every other secret")
        #expect(configuration.nativeClient?.loopbackURI == "http://127.0.0.1/callback")
        #expect(configuration.nativeClient?.schemeURI == "com.example.smarthome:/oauth2redirect")
        #expect(configuration.decorations[.deny]?.first?.value == "session=r")
        #expect(configuration.secondClient?.id == "conformance-other-client")
    }

    @Test("A secret written in the file (never quoted back), or a missing variable, is an error with a location")
    func secretsNeverInTheFile() {
        do {
            _ = try load("client_id: c\nclient_secret: s3cret-in-the-file\nlink: https://a.example/f\n")
            Issue.record("loaded with a secret in the file")
        } catch {
            // The diagnostic quotes its line, but not the secret on it.
            #expect(error.description.contains("client_secret: ‹redacted›") && !error.description.contains("s3cret-in-the-file"), "\(error)")
        }
        do {
            _ = try load("client_id: c\nclient_secret_env: NOT_SET\nlink: https://a.example/f\n")
            Issue.record("loaded without the variable")
        } catch {
            #expect(error.diagnostics.first?.location.line == 2)
            #expect(error.diagnostics.first?.message.contains("NOT_SET") == true)
        }
    }
}

@Suite("Reach")
struct ReachTests {
    @Test("A redirect to another host is observed, never followed: that host sees no connection")
    func redirectsAreNotFollowed() throws {
        let elsewhere = try RecordingServer { _ in RecordingServer.ok("should never be asked") }
        defer { elsewhere.stop() }
        let target = try RecordingServer { _ in
            .bytes(Array("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:\(elsewhere.port)/steal?code=x\r\nContent-Length: 0\r\n\r\n".utf8))
        }
        defer { target.stop() }
        let cases = try SuiteRun.load().1.cases.filter { conformanceCase in
            conformanceCase.profile == .authorize && !conformanceCase.needsHTTPS && conformanceCase.needsNothingSpecial
                && !conformanceCase.probesSignIn
                && conformanceCase.steps.allSatisfy { step in
                    if case .http(let request) = step.action { return request.endpoint == .authorize }
                    return true
                }
        }
        let targets = TargetUnderTest(
            endpoints: [.authorize: "http://127.0.0.1:\(target.port)/oauth/authorize"],
            decorations: [.consent: [("Cookie", "session=x")]])
        _ = try SuiteRun.run(targets, cases: cases)
        #expect(target.requests.count == cases.flatMap(\.steps).map(\.repeatCount).reduce(0, +))
        #expect(elsewhere.connectionCount == 0)
    }
}

/// Every request a wrapped server received, for tests that look at what reached it.
final class RequestLog: @unchecked Sendable {
    private let received = Locked<[HTTPRequest]>([])

    func add(_ request: HTTPRequest) { received.withLock { $0.append(request) } }

    var requests: [HTTPRequest] { received.withLock { $0 } }
}
