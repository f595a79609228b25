import AppFlipEvidence
import AppFlipHTTP
import AppFlipReferenceServer
import AppFlipReporting
import AppFlipTLS
import AppFlipTestSupport
import Foundation
import Testing

/// HTTPS through the system's OpenSSL: verification on by default, and the profiles end to end over TLS against a
/// server behind a TLS front written apart from the suite (Python's ssl module), its throwaway CA trusted with
/// `--ca-file` alone: nothing touches the machine's trust store.
@Suite("HTTPS", .serialized, .enabled(if: TLSFixture.available))
struct HTTPSTests {
    @Test("A self-signed certificate is refused: verification is on by default")
    func verificationOn() throws {
        let fixture = try TLSFixture()
        defer { fixture.stop() }
        let client = try HTTPClient(origin: HTTPOrigin(scheme: "https", host: "127.0.0.1", port: fixture.port), network: .system)
        defer { client.close() }
        do {
            _ = try client.send(HTTPRequest(method: "GET", target: "/.well-known/apple-app-site-association"))
            Issue.record("an untrusted certificate was accepted")
        } catch {
            #expect(error.message.lowercased().contains("certificate"), "\(error.message)")
        }
    }

    @Test("A target with an invalid escape and a GET with a body go over https as written, as over http")
    func exactOverTLS() throws {
        let fixture = try TLSFixture()
        defer { fixture.stop() }
        let trust = try TLSTrust(
            caFile: fixture.directory + "/cert.pem", pem: [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.directory + "/cert.pem"))))
        let client = try HTTPClient(origin: HTTPOrigin(scheme: "https", host: "127.0.0.1", port: fixture.port), network: Network(trust: trust))
        defer { client.close() }
        let escaped = try client.send(HTTPRequest(method: "GET", target: "/oauth/authorize?x=%ZZ"))
        #expect((400...499).contains(escaped.status), "answered \(escaped.status)")
        let withBody = try client.send(
            HTTPRequest(
                method: "GET", target: "/oauth/token", headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]),
                body: Array("grant_type=authorization_code".utf8)))
        #expect((400...499).contains(withBody.status), "answered \(withBody.status)")
    }

    @Test("Without --ca-file the run says once which origin it cannot trust, why and the way out; no case is sent (exit 3)")
    func untrustedSaidOnce() throws {
        let fixture = try TLSFixture()
        defer { fixture.stop() }
        let (status, text) = try fixture.runSuite(profiles: ["authorize", "token"], trustingCA: false)
        #expect(status == 3, "\(text)")
        #expect(text.contains("the certificate of 127.0.0.1 cannot be verified") && text.contains("--ca-file"), "\(text)")
        #expect(!text.contains("PASS ") && !text.contains("FAIL "), "\(text)")
    }

    @Test(
        "Every HTTP profile passes over https when the staging CA is trusted, and the report names the TLS",
        .enabled(if: TLSFixture.available))
    func profilesOverTLS() throws {
        let fixture = try TLSFixture()
        defer { fixture.stop() }
        let (status, text) = try fixture.runSuite(profiles: ["authorize", "token", "site-association"])
        #expect(status == 0, "\(text)")
        #expect(text.contains(" 0 fail, 0 error"), "\(text)")
        #expect(text.contains(" 0 warn,"), "\(text)")
        let results = try ResultsDocument.load(run: fixture.directory + "/reports").document
        for judgedOnlyOverTLS in ["transport/https-only", "transport/legacy-tls", "transport/hsts", "site-association/link-host"] {
            let cases = results.cases.filter { $0.id.contains(judgedOnlyOverTLS) }
            #expect(!cases.isEmpty && cases.allSatisfy { $0.verdict != "skip" }, "\(judgedOnlyOverTLS): \(cases.map { "\($0.id) \($0.verdict)" })")
        }
        let report = try String(contentsOfFile: fixture.directory + "/reports/report.md", encoding: .utf8)
        #expect(report.contains("| TLS | https://127.0.0.1:\(fixture.port): TLS 1.3, TLS\\_AES"), "\(report)")
        let junit = try String(contentsOfFile: fixture.directory + "/reports/junit.xml", encoding: .utf8)
        #expect(junit.contains("<property name=\"tls.1\" value=\"https://127.0.0.1:\(fixture.port): TLS 1.3"), "\(junit)")
    }

    @Test(
        "Proxies named in the environment are never used: the requests go straight to the target",
        .enabled(if: TLSFixture.available))
    func proxiesIgnored() throws {
        let fixture = try TLSFixture()
        defer { fixture.stop() }
        let proxy = try RecordingServer { _ in .closeWithoutAnswer }
        defer { proxy.stop() }
        let address = "http://127.0.0.1:\(proxy.port)"
        let (status, text) = try fixture.runSuite(
            profiles: ["authorize"], filter: "authorize/success*",
            environment: [
                "https_proxy": address, "HTTPS_PROXY": address, "http_proxy": address, "all_proxy": address, "ALL_PROXY": address,
            ])
        #expect(status == 0, "\(text)")
        #expect(proxy.connectionCount == 0, "the proxy was contacted")
    }

    @Test(
        "A server that still takes TLS 1.0/1.1 fails the old-TLS probes under AF-AUTHZ-001 and TOK-GEN-001",
        .enabled(if: TLSFixture.available))
    func legacyTLSFails() throws {
        let fixture = try TLSFixture(legacy: true)
        defer { fixture.stop() }
        let (status, text) = try fixture.runSuite(profiles: ["authorize", "token"], filter: "*transport*")
        #expect(status == 1, "\(text)")
        #expect(text.contains("FAIL authorize/transport/legacy-tls"), "\(text)")
        #expect(text.contains("FAIL token/transport/legacy-tls"), "\(text)")
        #expect(text.contains("AF-AUTHZ-001 MUST:") && text.contains("TOK-GEN-001 MUST:"), "\(text)")
        #expect(text.contains("was answered: TLS 1.1"), "\(text)")
        #expect(text.contains(" 2 fail, 0 error"), "\(text)")
    }

    @Test(
        "A server that takes TLS 1.0/1.1 only after 6 s still fails: the probe waits as long as any request may",
        .enabled(if: TLSFixture.available))
    func slowLegacyTLSFails() throws {
        let fixture = try TLSFixture(legacy: true, options: ["slow"])
        defer { fixture.stop() }
        let (status, text) = try fixture.runSuite(profiles: ["authorize"], filter: "authorize/transport/legacy-tls")
        #expect(status == 1, "\(text)")
        #expect(text.contains("FAIL authorize/transport/legacy-tls") && text.contains("was answered: TLS 1.1"), "\(text)")
    }

    @Test(
        "A token answer delimited by the close: cut without close_notify it is an error, never judged; with close_notify it is judged whole",
        .enabled(if: TLSFixture.available), arguments: [false, true])
    func closeDelimitedBody(notified: Bool) throws {
        let fixture = try TLSFixture(options: notified ? ["close-notify"] : []) { handler in
            { request in
                var response = handler(request)
                guard request.path == "/oauth/token" else { return response }
                // Framed by the connection's close (RFC 9112 §6.3), and, without close_notify, cut halfway.
                response.headers.fields.removeAll { HTTPHeaders.sameName($0.name, "Content-Length") }
                response.headers.append("Transfer-Encoding", "identity")
                response.headers.append("Connection", "close")
                if !notified { response.body = Array(response.body.prefix(response.body.count / 2)) }
                return response
            }
        }
        defer { fixture.stop() }
        let (status, text) = try fixture.runSuite(profiles: ["token"], filter: "token/exchange/*")
        if notified {
            #expect(status == 0 && text.contains(" 0 fail, 0 error"), "\(text)")
        } else {
            #expect(status == 3, "\(text)")
            #expect(text.contains("closed without a TLS close_notify") && text.contains("RFC 9112 §9.8"), "\(text)")
            #expect(!text.contains("FAIL ") && !text.contains("not a JSON object"), "a cut body is judged as nothing: \(text)")
        }
    }

    @Test(
        "Authorization pages without HSTS, or with max-age=0, warn under AF-AUTHZ-026",
        arguments: [nil, "max-age=0"])
    func missingHSTSWarns(replacement: String?) throws {
        let fixture = try TLSFixture { handler in
            { request in
                var response = handler(request)
                response.headers.fields.removeAll { $0.name == "Strict-Transport-Security" }
                if let replacement { response.headers.append("Strict-Transport-Security", replacement) }
                return response
            }
        }
        defer { fixture.stop() }
        let (status, text) = try fixture.runSuite(profiles: ["authorize"], filter: "*transport*")
        #expect(status == 0, "\(text)")
        #expect(text.contains("WARN authorize/transport/hsts") && text.contains("AF-AUTHZ-026 SHOULD:"), "\(text)")
        #expect(text.contains(" 1 warn,"), "\(text)")
    }

    @Test(
        "A link host that redirects the site association fails AF-LINK-001, as Apple's CDN follows no redirect",
        .enabled(if: TLSFixture.available))
    func redirectingLinkHostFails() throws {
        let fixture = try TLSFixture { handler in
            { request in
                guard request.path == "/moved/apple-app-site-association" else { return handler(request) }
                return HTTPResponse(status: 301, headers: HTTPHeaders([("Location", "/.well-known/apple-app-site-association")]))
            }
        }
        defer { fixture.stop() }
        let (status, text) = try fixture.runSuite(profiles: ["site-association"], linkHostPath: "/moved/apple-app-site-association")
        #expect(status == 1, "\(text)")
        #expect(text.contains("FAIL site-association/link-host") && text.contains("AF-LINK-001 MUST:"), "\(text)")
        #expect(text.contains(" 1 fail, 0 error"), "\(text)")
    }
}

/// A throwaway CA-signed certificate, the reference server on loopback, and a TLS proxy in front of it.
final class TLSFixture: @unchecked Sendable {
    let directory: String
    let port: Int
    private let server: HTTPServer
    private let proxy: Process

    static var available: Bool {
        #if os(Linux)
            ["/usr/bin/openssl", "/usr/bin/env"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } && python3 != nil
        #else
            false
        #endif
    }

    static var python3: String? { PlainPythonServer.python3 }

    /// The certificates the TLS front presents.
    enum Chain {
        /// One self-signed certificate, which the run trusts as its own CA (`cert.pem`).
        case selfSigned
        /// A leaf issued by an intermediate issued by a root; the run trusts the root and the intermediate
        /// (`ca.pem`), and the front sends the leaf alone, or the leaf and the intermediate.
        case leafOnly
        case sendsIntermediate
    }

    /// The CA file the run is given with `--ca-file`.
    let caFile: String

    /// `legacy`: the TLS front also takes TLS 1.0 and 1.1; `options`: more of `tls_proxy.py`'s (`slow`, `no-fs`);
    /// `chain`: what it presents; `wrap` alters the reference server's answers; `upstream`: a server's port on
    /// loopback to put the front before instead of the reference's.
    init(
        legacy: Bool = false, options: [String] = [], chain: Chain = .selfSigned, upstream: Int? = nil,
        wrap: (@escaping HTTPServer.Handler) -> HTTPServer.Handler = { $0 }
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let served: String
        switch chain {
        case .selfSigned:
            try Self.openssl([
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory + "/key.pem", "-out", directory + "/cert.pem",
                "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
            served = directory + "/cert.pem"
            caFile = served
        case .leafOnly, .sendsIntermediate:
            try Self.chain(in: directory)
            served = directory + (chain == .leafOnly ? "/leaf.pem" : "/fullchain.pem")
            caFile = directory + "/ca.pem"
        }
        let reference = ReferenceServer(configuration: ReferenceServerConfiguration(clientSecret: "reference-secret"))
        server = try HTTPServer(handler: wrap(reference.handler))
        server.start()
        proxy = Process()
        proxy.executableURL = URL(fileURLWithPath: Self.python3 ?? "/usr/bin/python3")
        proxy.arguments =
            [
                PackageRoot.url.appendingPathComponent("Tests/Fixtures/tls_proxy.py").path, served,
                directory + "/key.pem", String(upstream ?? server.port),
            ] + (legacy ? ["legacy"] : []) + options
        let output = Pipe()
        proxy.standardOutput = output
        try proxy.run()
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            proxy.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    /// Runs the built suite over https against this fixture, the test CA trusted with `--ca-file` (unless not).
    /// With `signingIn`, the users sign in through the reference's real pages (`sign_in`) instead of its cookie hook.
    func runSuite(
        profiles: [String], filter: String? = nil, linkHostPath: String = "/.well-known/apple-app-site-association",
        environment: [String: String] = [:], trustingCA: Bool = true, signingIn: Bool = false
    ) throws -> (Int32, String) {
        try Self.runSuite(
            base: "https://127.0.0.1:\(port)", directory: directory, caFile: trustingCA ? caFile : nil,
            profiles: profiles, filter: filter, linkHostPath: linkHostPath, environment: environment, signingIn: signingIn)
    }

    /// Runs the built suite over https against a reference server at `base`, trusting `caFile` (with `--ca-file`),
    /// its configuration and reports in `directory`.
    static func runSuite(
        base: String, directory: String, caFile: String?, profiles: [String], filter: String? = nil,
        linkHostPath: String = "/.well-known/apple-app-site-association", environment: [String: String] = [:],
        signingIn: Bool = false
    ) throws -> (Int32, String) {
        let configuration = """
            client_id: google-client
            client_secret_env: APPFLIP_TEST_SECRET
            project_id: reference-project
            app_id: ABCDE12345.com.example.reference
            link: https://app.example/flip
            endpoints:
              authorize: \(base)/oauth/authorize
              token: \(base)/oauth/token
              revoke: \(base)/oauth/revoke
              site_association: \(base)/.well-known/apple-app-site-association
              link_site_association: \(base)\(linkHostPath)
            scenarios:
              consent:
                Cookie: reference-user=approver
              deny:
                Cookie: reference-user=refuser
            """ + (signingIn ? "\n" + Self.signIn : "")
        try configuration.write(toFile: directory + "/target.conf", atomically: true, encoding: .utf8)
        let arguments =
            [
                "run", "--config", directory + "/target.conf", "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog,
                "--reports", directory + "/reports",
            ] + (caFile.map { ["--ca-file", $0] } ?? [])
            + profiles.flatMap { ["--profile", $0] } + (filter.map { ["--filter", $0] } ?? [])
        let result = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"), arguments,
            environment: ["PATH": "/usr/bin:/bin", "APPFLIP_TEST_SECRET": "reference-secret"].merging(environment) { _, new in new })
        return (result.status, result.output)
    }

    /// Runs the openssl command, quietly; throws when it fails.
    private static func openssl(_ arguments: [String]) throws {
        let run = try ProgramRun.run("/usr/bin/openssl", arguments, environment: ["PATH": "/usr/bin:/bin"])
        guard run.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: run.output]) }
    }

    /// A root, an intermediate and a leaf for 127.0.0.1 (RSA keys), in `directory`: `leaf.pem`, `fullchain.pem` (the
    /// leaf and the intermediate), `key.pem` (the leaf's), `ca.pem` (the root and the intermediate).
    private static func chain(in directory: String) throws {
        func path(_ name: String) -> String { directory + "/" + name }
        try "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n".write(
            toFile: path("ca.ext"), atomically: true, encoding: .utf8)
        try "basicConstraints=critical,CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1\n"
            .write(toFile: path("leaf.ext"), atomically: true, encoding: .utf8)
        try openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("root.key"), "-out", path("root.pem"), "-days", "1",
            "-subj", "/CN=Staging Root", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        try openssl([
            "req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("intermediate.key"), "-out", path("intermediate.csr"),
            "-subj", "/CN=Staging Intermediate",
        ])
        try openssl([
            "x509", "-req", "-in", path("intermediate.csr"), "-CA", path("root.pem"), "-CAkey", path("root.key"), "-set_serial", "2",
            "-days", "1", "-extfile", path("ca.ext"), "-out", path("intermediate.pem"),
        ])
        try openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("key.pem"), "-out", path("leaf.csr"), "-subj", "/CN=127.0.0.1"])
        try openssl([
            "x509", "-req", "-in", path("leaf.csr"), "-CA", path("intermediate.pem"), "-CAkey", path("intermediate.key"),
            "-set_serial", "3", "-days", "1", "-extfile", path("leaf.ext"), "-out", path("leaf.pem"),
        ])
        let leaf = try String(contentsOfFile: path("leaf.pem"), encoding: .utf8)
        let intermediate = try String(contentsOfFile: path("intermediate.pem"), encoding: .utf8)
        let root = try String(contentsOfFile: path("root.pem"), encoding: .utf8)
        try (leaf + intermediate).write(toFile: path("fullchain.pem"), atomically: true, encoding: .utf8)
        try (root + intermediate).write(toFile: path("ca.pem"), atomically: true, encoding: .utf8)
    }

    /// The reference's users signing in through its pages, as `--target reference` does.
    static let signIn = ["consent": ("approver", "approve"), "deny": ("refuser", "deny"), "second-user": ("second", "approve")]
        .sorted { $0.key < $1.key }
        .reduce("sign_in:") { text, entry in
            text + """

                  \(entry.key):
                    form: "#sign-in"
                    fields:
                      username: \(entry.value.0)
                      password: \(entry.value.0)-password
                    consent_form: "#consent"
                    consent_button: \(entry.value.1)
                """
        }

    /// The run's results.json, as written by the last `runSuite`.
    func results() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/reports/results.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    func stop() {
        // Foundation's Process hands the spawning thread's blocked signals to the child, so SIGTERM may never
        // arrive; SIGKILL cannot be blocked.
        if proxy.isRunning { kill(proxy.processIdentifier, SIGKILL) }
        proxy.waitUntilExit()
        server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
