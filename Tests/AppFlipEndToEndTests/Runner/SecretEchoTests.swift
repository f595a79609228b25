import AppFlipHTTP
import AppFlipModel
import AppFlipReferenceServer
import AppFlipReporting
import AppFlipRunner
import AppFlipTestSupport
import Foundation
import Testing

/// A server that echoes each request back, in the forms real servers use, must never get the client secret into a
/// report: not raw, not in the Basic credential, not JSON-escaped (`\/` or `\uXXXX`), percent- or form-encoded in
/// either hex case, HTML-escaped, base64 or hex; and not cut in half by the body excerpt either.
@Suite("Secrets echoed by a server", .serialized)
struct SecretEchoTests {
    static let secret = "s3cr/et+ke y=="

    /// The secret as the suite sends it: raw (inside the Basic credential), and form-encoded in a body.
    static let sent = [secret, "s3cr%2Fet%2Bke%20y%3D%3D", "s3cr%2Fet%2Bke+y%3D%3D"]

    enum Echo: String, CaseIterable, Sendable {
        case raw, json, jsonUnicode, percent, percentLower, form, html, base64, hex

        /// How this server writes text back, by Foundation's encoders (not the code under test).
        func encode(_ text: String) -> String {
            let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
            let percent = text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
            switch self {
            case .raw: return text
            case .json:
                let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data()
                return String(String(decoding: data, as: UTF8.self).dropFirst(2).dropLast(2))
            case .percent: return percent
            case .percentLower:
                var result = ""
                var rest = Substring(percent)
                while let first = rest.first {
                    if first == "%" {
                        result += "%" + rest.dropFirst().prefix(2).lowercased()
                        rest = rest.dropFirst(3)
                    } else {
                        result.append(first)
                        rest = rest.dropFirst()
                    }
                }
                return result
            case .form: return percent.replacingOccurrences(of: "%20", with: "+")
            case .jsonUnicode:
                // Every character but letters and digits as \uXXXX, as an ASCII-only JSON writer may.
                return text.unicodeScalars.map { scalar in
                    scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) ? String(scalar) : String(format: "\\u%04x", scalar.value)
                }.joined()
            case .html:
                // Named references for the markup characters, numeric ones (decimal and hex in turn) for the rest.
                let named: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"]
                var decimal = false
                return text.unicodeScalars.map { scalar in
                    if let name = named[scalar] { return name }
                    guard !(scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "\n") else { return String(scalar) }
                    decimal.toggle()
                    return decimal ? "&#\(scalar.value);" : "&#x\(String(scalar.value, radix: 16));"
                }.joined()
            case .base64: return Data(text.utf8).base64EncodedString()
            case .hex: return text.utf8.map { String(format: "%02X", $0) }.joined()
            }
        }

        /// The request written back, padded so that the secret's first echo straddles the 512th byte, where the
        /// evidence cuts a body (a secret cut before redaction would leave its first half behind).
        func render(_ request: HTTPRequest) -> String {
            let text =
                "\(request.method) \(request.target)\n" + request.headers.fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
                + "\n\n" + String(decoding: request.body, as: UTF8.self)
            let echoed = self == .json ? #"{"error":"invalid_request","echo":""# + encode(text) + #""}"# : encode(text)
            guard let first = forbidden.compactMap({ echoed.range(of: $0)?.lowerBound }).min() else { return echoed }
            let offset = echoed.utf8.distance(from: echoed.startIndex, to: first)
            return String(repeating: " ", count: max(0, 505 - offset)) + echoed
        }

        /// Every form in which this server shows the secret or the Basic credential built from it.
        var forbidden: [String] {
            let basic = ["google-client:" + SecretEchoTests.secret, "google-client:s3cr%2Fet%2Bke+y%3D%3D"].map {
                Data($0.utf8).base64EncodedString()
            }
            let shown = SecretEchoTests.sent + basic
            return shown + shown.map(encode)
        }
    }

    @Test("No form of the secret reaches report.md, junit.xml or results.json", arguments: Echo.allCases)
    func echoed(_ echo: Echo) throws {
        // Authorization as the reference does it (codes issued); the token endpoint echoes what it was sent.
        let reference = ReferenceServer(configuration: ReferenceServerConfiguration(clientSecret: Self.secret)).handler
        let server = try HTTPServer { request in
            guard request.path == "/oauth/token" else { return reference(request) }
            return HTTPResponse(
                status: 400, headers: HTTPHeaders([("Content-Type", echo == .json ? "application/json" : "text/plain")]),
                body: Array(echo.render(request).utf8))
        }
        server.start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let prefixes = ["token/client-authentication", "token/exchange", "token/request"]
        let cases = try SuiteRun.load().1.cases.filter { candidate in
            prefixes.contains { candidate.id.hasPrefix($0) } && candidate.needsNothingSpecial && !candidate.needsHTTPS
        }
        #expect(cases.count >= 5)
        let targets = TargetUnderTest(
            endpoints: [.authorize: base + "/oauth/authorize", .token: base + "/oauth/token", .revoke: base + "/oauth/revoke"],
            clientSecret: Self.secret, tokenAuthentication: .basic,
            decorations: [.consent: [("Cookie", "reference-user=approver; session=abc123456")]])
        var configuration = SuiteRun.configuration
        configuration.projectID = "reference-project"
        let run = try SuiteRun.run(targets, cases: cases, configuration: configuration)
        #expect(
            run.results.flatMap(\.evidence.exchanges).map(\.transcript).contains { $0.contains("/oauth/token\n") && $0.contains("→ HTTP 400") },
            "the token endpoint's echo is in the evidence")
        let reports = ReportSet(run: run, profiles: ["token"]).render().map(\.text).joined(separator: "\n")
        for form in echo.forbidden {
            #expect(!reports.contains(form), "\(echo): the secret shows as \(form)")
            // Nor its first half, left at a cut (base64 and hex: at least four characters of it).
            let half = String(form.prefix(max(4, form.count / 2)))
            #expect(!reports.contains(half), "\(echo): the start of the secret shows as \(half)")
        }
        #expect(!reports.contains("abc123456"), "\(echo): the session cookie shows")
    }

    @Test("A sign-in form that sends the password in its URL, and pages that echo it into the suite's own messages, show no form of it")
    func signInPassword() throws {
        let password = "pw-Ünïcode&co+42/=="
        let encoded = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        // A GET login form (the password lands in the URL), then a redirect loop that carries it on: the walk ends in
        // "more than N requests: …" with the last pages' URLs, and a consent page whose button echoes it (HTML).
        let server = try HTTPServer { request in
            let html = { (body: String) in
                HTTPResponse(
                    status: 200, headers: HTTPHeaders([("Content-Type", "text/html")]), body: Array(("<html><body>" + body + "</body></html>").utf8))
            }
            switch request.path {
            case "/oauth/authorize":
                return html(
                    "<form method=\"get\" action=\"/login\"><input name=\"user\"><input name=\"pwd\" type=\"password\"><button>Sign in</button></form>"
                )
            case "/login", "/again":
                let hop = request.target.count % 7
                return HTTPResponse(
                    status: 302,
                    headers: HTTPHeaders([("Location", "/again?n=\(hop)&seen=" + encoded + "&b64=" + Data(password.utf8).base64EncodedString())]))
            default:
                return html(
                    "<form action=\"/consent\"><button name=\"decision\" value=\"" + password.replacingOccurrences(of: "&", with: "&amp;")
                        + "\">ok</button></form>")
            }
        }
        server.start()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        var targets = TargetUnderTest(endpoints: [.authorize: base + "/oauth/authorize"], secrets: [password])
        targets.signIn = [
            .consent: SignInScript(
                form: "user,pwd", fields: ["user": "approver", "pwd": password], consentForm: "action:/consent",
                consentButton: "decision=approve")
        ]
        let cases = try SuiteRun.load().1.cases.filter { $0.id.hasPrefix("authorize/") && $0.needsNothingSpecial && !$0.needsHTTPS }.prefix(8)
        #expect(!cases.isEmpty)
        let run = try SuiteRun.run(targets, cases: Array(cases))
        let reports = ReportSet(run: run, profiles: ["authorize"]).render().map(\.text).joined(separator: "\n")
        #expect(reports.contains("more than") || reports.contains("signed in through the pages"), "the walk is in the evidence")
        for form in [
            password, encoded, Data(password.utf8).base64EncodedString(), password.replacingOccurrences(of: "&", with: "&amp;"),
            String(password.prefix(8)), String(encoded.prefix(12)),
        ] {
            #expect(!reports.contains(form), "the password shows as \(form)")
        }
    }
}
