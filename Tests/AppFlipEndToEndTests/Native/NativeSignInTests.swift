import AppFlipBase
import AppFlipHTTP
import AppFlipModel
import AppFlipRunner
import AppFlipTestSupport
import Foundation
import Testing

/// The native-client profile's machinery end to end: the suite's test authorization server, the suite as the
/// browser, and the reference native client behind the contract, in both redirect modes.
@Suite("Native sign-in", .serialized)
struct NativeSignInTests {
    private func withClient(
        _ mode: String, script: TestAuthorizationServer.Script = TestAuthorizationServer.Script(),
        _ body: (NativeClientSession, TestAuthorizationServer) throws -> Void
    ) throws {
        let server = try TestAuthorizationServer(clientID: "native-app")
        defer { server.stop() }
        server.use(script)
        let target = NativeClientTarget(executable: BuiltProducts.path("appflip-reference"), arguments: ["native-client", "--redirect", mode])
        let session = target.makeSession()
        defer { session.close() }
        try body(session, server)
    }

    @Test(
        "The reference client signs in with a correct request, PKCE verified, the same redirect URI at the token endpoint",
        arguments: ["scheme", "loopback"])
    func signIn(_ mode: String) throws {
        try withClient(mode) { session, server in
            let record = NativeSignIn().run(session, server: server)
            #expect(record.failure == nil, "\(String(describing: record.failure))")
            #expect(record.outcome?.action == .signedIn, "\(String(describing: record.outcome)) \(session.log)")
            let url = try #require(record.authorizationURL)
            let findings = AuthorizationRequestAudit().audit(url).filter { $0.isFinding && $0.verdict != .info }
            #expect(findings.isEmpty, "\(findings.map(\.observed))")
            let tokenRequest = try #require(server.requests.first { $0.path == "/token" })
            let sent = URLParts(url).parameters
            let verifier = try #require(tokenRequest.form.all(named: "code_verifier").first?.value.map { String(decoding: $0, as: UTF8.self) })
            let challenge = try #require(sent.all(named: "code_challenge").first?.value.map { String(decoding: $0, as: UTF8.self) })
            #expect(PKCE.s256Challenge(for: verifier) == challenge)
            #expect(tokenRequest.form.all(named: "redirect_uri").first?.value == sent.all(named: "redirect_uri").first?.value)
            if mode == "loopback" {
                #expect(record.delivery == "loopback GET: HTTP 200", "\(record.delivery ?? "")")
                #expect(record.redirect?.hasPrefix("http://127.0.0.1:") == true)
            } else {
                #expect(record.delivery == "deliver-redirect")
            }
        }
    }

    @Test(
        "A redirect whose state was altered or dropped is rejected, and no code is exchanged",
        arguments: [
            NativeServerScript.AuthorizationAnswer.wrongState, .missingState,
        ])
    func stateMismatch(_ answer: NativeServerScript.AuthorizationAnswer) throws {
        var script = TestAuthorizationServer.Script()
        script.authorization = answer
        try withClient("scheme", script: script) { session, server in
            let record = NativeSignIn().run(session, server: server)
            #expect(record.outcome?.action == .rejected, "\(String(describing: record.outcome))")
            #expect(!server.requests.contains { $0.path == "/token" })
        }
    }

    @Test("A token of an unknown type is not used; unknown members are ignored")
    func tokenTypes() throws {
        var script = TestAuthorizationServer.Script()
        script.token = .tokenType("mac")
        try withClient("scheme", script: script) { session, server in
            #expect(NativeSignIn().run(session, server: server).outcome?.action == .rejected)
            #expect((try? session.exchange(.callAPI, timeout: 5).get())?.action == .noToken)
        }
        script.token = .unknownMembers
        try withClient("scheme", script: script) { session, server in
            #expect(NativeSignIn().run(session, server: server).outcome?.action == .signedIn)
            #expect((try? session.exchange(.callAPI, timeout: 5).get())?.authorization?.hasPrefix("Bearer access-") == true)
        }
    }

    @Test("A rotated refresh token replaces the old one; invalid_grant ends the session; sign-out revokes")
    func refreshAndRevoke() throws {
        var script = TestAuthorizationServer.Script()
        script.rotateRefreshTokens = true
        try withClient("scheme", script: script) { session, server in
            #expect(NativeSignIn().run(session, server: server).outcome?.action == .signedIn)
            // Each refresh retires the token it used: the second succeeds only with the rotated one.
            #expect((try? session.exchange(.refresh, timeout: 5).get())?.action == .refreshed)
            #expect((try? session.exchange(.refresh, timeout: 5).get())?.action == .refreshed)
            script.refresh = .invalidGrant
            server.use(script)
            let refused = try? session.exchange(.refresh, timeout: 5).get()
            #expect(refused?.action == .rejected && refused?.reason?.contains("invalid_grant") == true)
        }
        try withClient("scheme") { session, server in
            #expect(NativeSignIn().run(session, server: server).outcome?.action == .signedIn)
            #expect((try? session.exchange(.signOut, timeout: 5).get())?.action == .signedOut)
            #expect(server.requests.contains { $0.path == "/revoke" && $0.form.all(named: "token").count == 1 })
        }
    }

    @Test("A 307 from the token endpoint is not followed: the verifier goes nowhere else")
    func redirectNotFollowed() throws {
        var script = TestAuthorizationServer.Script()
        script.token = .redirect
        try withClient("scheme", script: script) { session, server in
            #expect(NativeSignIn().run(session, server: server).outcome?.action == .rejected)
            #expect(!server.requests.contains { $0.path == TestAuthorizationServer.movedTokenPath })
        }
    }
}
