import AppFlipLoading
import AppFlipModel
import AppFlipSyntax
import AppFlipTestSupport
import Foundation
import Testing

/// Native-client steps and checks are kept to native-client cases, and the other way round, with a located error.
@Suite("Native-client case loading")
struct NativeCaseLoaderTests {
    private func diagnostics(_ text: String) -> [Diagnostic] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("native-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try? text.write(toFile: directory + "/a.case", atomically: true, encoding: .utf8)
        do {
            _ = try CaseLoader.load(from: directory, catalog: try SuiteRun.load().0)
            return []
        } catch let error as DiagnosticList {
            return error.diagnostics
        } catch {
            return []
        }
    }

    private func nativeCase(profile: String = "native-client", step: String = "sign_in: default", expect: String = "app: signed-in") -> String {
        "id: native-client/x/one\ntitle: t\nprofile: \(profile)\nscenario: consent\nsteps:\n  - \(step)\n    checks:\n"
            + "      - requirement: NAT-TOK-001 MUST\n        expect:\n          \(expect)\n"
    }

    @Test("Every sign-in step is judged by the URL audit's every-sign-in parts, besides its own checks")
    func everySignInAudited() throws {
        let (_, suite) = try SuiteRun.load()
        let native = suite.cases.filter { $0.profile == .nativeClient }
        var signIns = 0
        for conformanceCase in native {
            for step in conformanceCase.steps {
                guard case .native(let action) = step.action else { continue }
                let judged = Set(step.checks.map(\.requirement.id))
                if action.command == .signIn {
                    signIns += 1
                    #expect(
                        judged.isSuperset(of: ["NAT-REQ-001", "NAT-REQ-002", "NAT-PKCE-003", "NAT-PKCE-004", "NAT-REDIR-001", "NAT-STATE-001"]),
                        "\(conformanceCase.id): \(judged.sorted())")
                }
            }
        }
        #expect(signIns >= 20, "\(signIns) sign-in steps")
        // A step that names a requirement itself keeps its own group for it, not a second one.
        let request = try #require(native.first { $0.id == "native-client/request/authorization-request" })
        let groups = request.steps[0].checks.filter { $0.requirement.id == "NAT-REDIR-004-S" }
        #expect(groups.count == 1)
    }

    @Test("A well-formed native-client case loads")
    func loads() {
        #expect(diagnostics(nativeCase()).isEmpty, "\(diagnostics(nativeCase()))")
        #expect(diagnostics(nativeCase(step: "refresh:\n      refresh: invalid-grant\n      rotate_refresh: yes", expect: "app: rejected")).isEmpty)
        #expect(diagnostics(nativeCase(step: "sign_in:\n      token_certificate: wrong-host", expect: "server_certificate: refused")).isEmpty)
    }

    @Test(
        "Misplaced steps, checks and server answers are located errors",
        arguments: [
            ("a native step in a token case", "profile: token", "sign_in: default", "app: signed-in", "belongs to a native-client case"),
            ("an answer check in a native step", "profile: native-client", "sign_in: default", "action: open", "does not judge a native-client step"),
            (
                "an unknown server answer", "profile: native-client", "sign_in:\n      authorization: teapot", "app: signed-in",
                "'authorization' takes"
            ),
            ("a word instead of default", "profile: native-client", "sign_in: now", "app: signed-in", "takes 'default' or a mapping"),
            ("an audit of a requirement the URL cannot show", "profile: native-client", "sign_in: default", "audit: NAT-TOK-001", "'audit' takes"),
            (
                "an unknown certificate", "profile: native-client", "sign_in:\n      token_certificate: self-signed", "server_certificate: refused",
                "'self-signed' is not a valid 'token_certificate'"
            ),
            (
                "server_certificate outside a native step", "profile: token", "request:\n      endpoint: token", "server_certificate: refused",
                "server_certificate"
            ),
        ])
    func misplaced(_ example: (String, String, String, String, String)) {
        let (_, profile, step, expect, message) = example
        let text = nativeCase(step: step, expect: expect).replacingOccurrences(of: "profile: native-client", with: profile)
        let found = diagnostics(text)
        #expect(found.contains { $0.message.contains(message) && $0.location.line > 0 }, "\(found.map(\.message))")
    }
}
