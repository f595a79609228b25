import AppFlipHTTP
import AppFlipTestSupport
import Foundation
import Testing

/// The sign-in walk as the browser it stands for, over https: the `Referer` and `Origin` a browser sends on every form
/// submission (which a CSRF check such as Django's demands), and a walk that stops at the pages judged as an error,
/// never as a pass. Against the reference server behind a check written as Django's is, and against a real Django
/// with django-oauth-toolkit when the machine has them.
@Suite("Sign-in walk as a browser", .serialized)
struct SignInBrowserTests {
    /// Django's CSRF rule for a POST over https (`CsrfViewMiddleware._check_referer` and `_origin_verified`): an
    /// `Origin`, when sent, must be the site's own; a `Referer` must be sent and be on the site's own host. Its pages
    /// say `Referrer-Policy: same-origin`, Django's default (`SECURE_REFERRER_POLICY`), in place of the reference's.
    static func csrfChecked(_ handler: @escaping HTTPServer.Handler) -> HTTPServer.Handler {
        csrfChecked(pagePolicy: "same-origin")(handler)
    }

    static func csrfChecked(pagePolicy: String) -> (@escaping HTTPServer.Handler) -> HTTPServer.Handler {
        { handler in
            { request in
                guard request.method == "POST" else {
                    var response = handler(request)
                    response.headers.fields.removeAll { HTTPHeaders.sameName($0.name, "Referrer-Policy") }
                    response.headers.append("Referrer-Policy", pagePolicy)
                    return response
                }
                let site = "https://" + (request.headers["Host"] ?? "")
                if let origin = request.headers["Origin"], origin != site {
                    return HTTPResponse(status: 403, body: Array("Origin checking failed - \(origin) does not match any trusted origins.".utf8))
                }
                guard let referer = request.headers["Referer"] else {
                    return HTTPResponse(status: 403, body: Array("Referer checking failed - no Referer.".utf8))
                }
                guard referer.hasPrefix(site + "/") else {
                    return HTTPResponse(status: 403, body: Array("Referer checking failed - \(referer) does not match.".utf8))
                }
                return handler(request)
            }
        }
    }

    /// Every POST to the sign-in form refused, as a CSRF check refuses a walk that sends no Referer.
    static func signInRefused(_ handler: @escaping HTTPServer.Handler) -> HTTPServer.Handler {
        { request in
            request.method == "POST" && request.path == "/login"
                ? HTTPResponse(status: 403, body: Array("<h1>403 Forbidden</h1>".utf8)) : handler(request)
        }
    }

    private static func verdicts(_ results: [String: Any]) -> [String: String] {
        let cases = results["cases"] as? [[String: Any]] ?? []
        return Dictionary(cases.compactMap { entry in (entry["id"] as? String).map { ($0, entry["verdict"] as? String ?? "") } }) { first, _ in first
        }
    }

    @Test(
        "A sign-in page that refuses a POST without its own Origin and Referer, as Django's does over https, is walked to the reference's own verdict",
        .enabled(if: TLSFixture.available))
    func csrfCheckedPagesPass() throws {
        let fixture = try TLSFixture(wrap: Self.csrfChecked)
        defer { fixture.stop() }
        let (status, text) = try fixture.runSuite(profiles: ["authorize"], signingIn: true)
        #expect(status == 0, "\(text)")
        #expect(!text.contains("Referer checking failed") && !text.contains("sign-in walk stopped"), "\(text)")
        let verdicts = Self.verdicts(try fixture.results())
        #expect(verdicts["authorize/success/prod"] == "pass" && verdicts["authorize/errors/refused"] == "pass", "\(verdicts)")
        #expect(verdicts["authorize/hardening/consent-csrf"] == "pass", "the consent forged without its token is still refused")
    }

    @Test(
        "Pages that ask for no-referrer get Origin null and no Referer, as from a browser, so that check refuses them: an error, not a pass",
        .enabled(if: TLSFixture.available))
    func noReferrerPagesStop() throws {
        let fixture = try TLSFixture(wrap: Self.csrfChecked(pagePolicy: "no-referrer"))
        defer { fixture.stop() }
        let (status, text) = try fixture.runSuite(profiles: ["authorize"], filter: "authorize/success/prod", signingIn: true)
        #expect(status == 3, "\(text)")
        #expect(text.contains("ERROR authorize/success/prod") && text.contains("was answered HTTP 403"), "\(text)")
    }

    @Test(
        "A walk stopped by a refused sign-in is an error that says where, and no case that signs in passes",
        .enabled(if: TLSFixture.available))
    func stoppedWalkIsAnError() throws {
        let fixture = try TLSFixture(wrap: Self.signInRefused)
        defer { fixture.stop() }
        let (status, text) = try fixture.runSuite(profiles: ["authorize"], signingIn: true)
        #expect(status == 3, "\(text)")
        #expect(
            text.contains(
                "the sign-in walk stopped before the authorization endpoint judged this request: the sign-in form's POST to https://127.0.0.1:\(fixture.port)/login was answered HTTP 403; Google's valid request, walked the same way, stops there too"
            ), "\(text)")
        let results = try fixture.results()
        let verdicts = Self.verdicts(results)
        for id in [
            "authorize/success/prod", "authorize/errors/refused", "authorize/hardening/consent-csrf", "authorize/state/long-2048",
            "authorize/errors/state-repeated",
        ] {
            #expect(verdicts[id] == "error", "\(id): \(verdicts[id] ?? "missing")")
        }
        // What passes never reached the sign-in form: the reference refuses an unknown client or redirect URI on its
        // error page before anyone signs in, and the transport probes sign nobody in. No passing case submitted it.
        #expect(verdicts["authorize/redirect-uri/attacker"] == "pass" && verdicts["authorize/client-id/unknown"] == "pass")
        let cases = results["cases"] as? [[String: Any]] ?? []
        let passedThroughSignIn = cases.filter { entry in
            entry["verdict"] as? String == "pass"
                && (entry["evidence"].map { "\($0)" } ?? "").contains("POST https://127.0.0.1:\(fixture.port)/login")
        }
        #expect(passedThroughSignIn.isEmpty, "\(passedThroughSignIn.compactMap { $0["id"] as? String })")
    }
}

/// A real partner stack: Django's sign-in page and CSRF protection, django-oauth-toolkit's authorization page (a
/// Cancel button without a name), token and revocation endpoints, over https with the test's own CA.
@Suite("Django and django-oauth-toolkit over https", .serialized)
struct DjangoPartnerTests {
    static let secret = "django-secret-value"

    /// Whether this machine can run the fixture: python3 with django and django-oauth-toolkit (CI installs them; a
    /// bare machine skips these tests, and Swift Testing lists them as skipped with this condition).
    static var available: Bool {
        guard TLSFixture.available, let python = PlainPythonServer.python3,
            let run = try? ProgramRun.run(python, ["-c", "import django, oauth2_provider"], environment: ["PATH": "/usr/bin:/bin"])
        else { return false }
        return run.status == 0
    }

    final class Server {
        let directory: String
        let base: String
        private let process: Process

        init(refusingSignIn: Bool = false) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("django-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let openssl = try ProgramRun.run(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory + "/key.pem",
                    "-out", directory + "/cert.pem", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1",
                ], environment: ["PATH": "/usr/bin:/bin"])
            guard openssl.status == 0 else { throw CocoaError(.fileWriteUnknown) }
            process = Process()
            process.executableURL = URL(fileURLWithPath: PlainPythonServer.python3 ?? "/usr/bin/python3")
            process.arguments =
                [
                    PackageRoot.url.appendingPathComponent("Tests/Fixtures/django_partner.py").path, directory + "/cert.pem",
                    directory + "/key.pem", "google-client", DjangoPartnerTests.secret, "partner-project",
                ]
                + (refusingSignIn ? ["refuse-sign-in"] : [])
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            var line: [UInt8] = []
            while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix("listening on ") else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw CocoaError(.fileReadCorruptFile)
            }
            base = String(text.dropFirst("listening on ".count))
        }

        /// Runs the built suite against this server, its CA trusted with `--ca-file`, the users signing in through its pages.
        func run(profiles: [String]) throws -> (status: Int32, text: String, verdicts: [String: String]) {
            func user(_ scenario: String, _ name: String, press button: String) -> String {
                """
                  \(scenario):
                    form: "username,password"
                    fields:
                      username: \(name)
                      password: \(name)-password
                    consent_form: "#authorizationForm"
                    consent_button: \(button)

                """
            }
            let configuration = """
                client_id: google-client
                client_secret_env: APPFLIP_TEST_SECRET
                project_id: partner-project
                link: https://app.example/flip
                endpoints:
                  authorize: \(base)/o/authorize/
                  token: \(base)/o/token/
                  revoke: \(base)/o/revoke_token/
                sign_in:

                """ + user("consent", "approver", press: "Authorize") + user("deny", "refuser", press: "Cancel")
                + user("second-user", "second", press: "Authorize")
            try configuration.write(toFile: directory + "/target.conf", atomically: true, encoding: .utf8)
            let arguments =
                [
                    "run", "--config", directory + "/target.conf", "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog,
                    "--reports", directory + "/reports", "--ca-file", directory + "/cert.pem",
                ] + profiles.flatMap { ["--profile", $0] }
            let result = try ProgramRun.run(
                BuiltProducts.path("appflip-conformance"), arguments,
                environment: ["PATH": "/usr/bin:/bin", "APPFLIP_TEST_SECRET": DjangoPartnerTests.secret])
            let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/reports/results.json"))
            let cases = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["cases"] as? [[String: Any]] ?? []
            let verdicts = Dictionary(cases.compactMap { entry in (entry["id"] as? String).map { ($0, entry["verdict"] as? String ?? "") } }) {
                first, _ in first
            }
            return (result.status, result.output, verdicts)
        }

        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// What this stack earns by its own behaviour, each a MUST it breaks (the reasons beside each).
    static let expectedFailures: [String: String] = [
        // DOT compares the redirect URI's host without case; RFC 6749 §3.1.2.3 says simple string comparison.
        "authorize/redirect-uri/uppercase-host": "AF-AUTHZ-005",
        // Django's LoginView drops a `next` longer than 2,048 characters (url_has_allowed_host_and_scheme), so after the
        // sign-in the user lands on /accounts/profile/ and the request with a 2,048-byte state is lost.
        "authorize/state/long-2048": "AF-AUTHZ-007",
        // A Basic client authentication refused with `WWW-Authenticate: Bearer` (RFC 6749 §5.2: the scheme used).
        "token/client/basic-wrong-secret-challenge": "TOK-GEN-005",
        // A redirect_uri mismatch at the token endpoint answered invalid_request (RFC 6749 §5.2: invalid_grant).
        "token/code/other-redirect-uri": "TOK-CODE-002",
        // A missing grant_type answered unsupported_grant_type (a missing parameter is invalid_request).
        "token/request/grant-type-missing": "TOK-CODE-006",
        // Basic and body credentials in one request accepted (RFC 6749 §2.3).
        "token/client/both-methods": "TOK-GEN-004",
        // A code_verifier accepted for a code requested without a challenge (RFC 9700 §4.8.2, PKCE downgrade).
        "token/code/verifier-without-challenge": "TOK-PKCE-003",
        // A rotated refresh token revoked at once, before the new one is used (Google's rule, catalog note A15).
        "token/refresh/rotation-keeps-old-until-new-used": "TOK-REF-005",
        // A repeated code parameter accepted (RFC 6749 §3.2).
        "token/request/code-repeated": "TOK-GEN-003",
    ]

    @Test(
        "Judged with exactly the failures its own behaviour earns: none from the sign-in walk, none an error; Cancel without a name denies",
        .enabled(if: DjangoPartnerTests.available), .timeLimit(.minutes(5)))
    func exactFailures() throws {
        let server = try Server()
        defer { server.stop() }
        let run = try server.run(profiles: ["authorize", "token"])
        #expect(run.status == 1, "\(run.text)")
        let failed = run.verdicts.filter { $0.value == "fail" }.keys.sorted()
        #expect(failed == Self.expectedFailures.keys.sorted(), "\(run.text)")
        #expect(run.verdicts.filter { $0.value == "error" }.isEmpty, "\(run.text)")
        for (id, requirement) in Self.expectedFailures {
            #expect(run.text.contains("FAIL \(id) ") && run.text.contains("\(requirement) MUST"), "\(id) under \(requirement)")
        }
        #expect(run.verdicts["authorize/errors/refused"] == "pass", "the deny user pressed DOT's nameless Cancel: access_denied")
        #expect(run.verdicts["authorize/errors/state-repeated"] == "pass", "DOT's error page for a repeated state is an accepted answer")
        #expect(run.verdicts["authorize/success/prod"] == "pass" && run.verdicts["authorize/success/sandbox"] == "pass")
    }

    @Test(
        "Its sign-in refusing every POST: each case that signs in is an error naming the 403, none passes",
        .enabled(if: DjangoPartnerTests.available), .timeLimit(.minutes(5)))
    func refusedSignIn() throws {
        let server = try Server(refusingSignIn: true)
        defer { server.stop() }
        let run = try server.run(profiles: ["authorize"])
        #expect(run.status == 3, "\(run.text)")
        #expect(run.text.contains("the sign-in form's POST to \(server.base)/accounts/login/ was answered HTTP 403"), "\(run.text)")
        let passing = Set(run.verdicts.filter { $0.value == "pass" }.keys)
        #expect(
            passing.isSubset(of: [
                "authorize/transport/https-only", "authorize/transport/legacy-tls", "authorize/transport/certificate",
                "authorize/hardening/sign-in-before-redirect",
            ]), "\(passing.sorted())")
        #expect(run.verdicts["authorize/redirect-uri/attacker"] == "error")
    }
}
