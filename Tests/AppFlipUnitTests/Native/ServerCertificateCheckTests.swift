import AppFlipChecks
import AppFlipEvidence
import AppFlipModel
import Foundation
import Testing

/// `server_certificate: refused` on observations made by hand: a request over the certificate the app must refuse
/// fails, whatever it carries; nothing sent holds, with the alert the server saw; a trusted certificate, or a redirect
/// that never reached the app, is not judged.
@Suite("The server_certificate check")
struct ServerCertificateCheckTests {
    private let context = Template.Context(
        configuration: RunConfiguration(link: "https://a.example/f", clientID: "c"),
        generated: GeneratedValues(seed: 1, caseID: "x"))

    private func observation(
        _ certificate: NativeServerScript.TokenCertificate?, requests: [NativeServerRequest] = [],
        answer: NativeAnswer.Action = .rejected
    ) -> Observation {
        var native = NativeObservation(
            command: .signIn, answer: NativeAnswer(action: answer), authorizationURL: nil, requests: requests,
            refreshTokensBefore: [])
        native.tokenCertificate = certificate
        return .native(native)
    }

    private func request(over certificate: NativeServerScript.TokenCertificate?, body: String) -> NativeServerRequest {
        var request = NativeServerRequest(method: "POST", target: "/token", body: Array(body.utf8), contentType: "application/x-www-form-urlencoded")
        request.certificate = certificate
        return request
    }

    @Test(
        "A request over a certificate the app must refuse fails, naming what it carried; any request at all",
        arguments: [
            ("grant_type=authorization_code&code=abc&code_verifier=v", "POST /token (code, code_verifier)"),
            ("", "POST /token"),
        ])
    func accepted(_ body: String, _ said: String) {
        let outcome = ServerCertificateCheck().evaluate(
            observation(.otherCA, requests: [request(over: .otherCA, body: body)], answer: .signedIn),
            in: context)
        guard case .violated(let observed) = outcome else { return #expect(Bool(false), "\(outcome)") }
        #expect(observed.contains("the app accepted a certificate issued by a CA the app was not given, and sent \(said)"), "\(observed)")
    }

    @Test("Nothing sent over it holds, with the handshakes the app broke off; requests elsewhere in the step do not count")
    func refused() {
        var native = NativeObservation(
            command: .signIn, answer: NativeAnswer(action: .rejected), authorizationURL: nil,
            requests: [request(over: nil, body: "")], refreshTokensBefore: [])
        native.tokenCertificate = .expired
        native.failedHandshakeCount = 1
        native.failedHandshakes = ["sslv3 alert certificate expired"]
        let outcome = ServerCertificateCheck().evaluate(.native(native), in: context)
        guard case .held(let observed) = outcome else { return #expect(Bool(false), "\(outcome)") }
        #expect(
            observed.contains("expired a day ago: it broke off the TLS handshake (the server saw: sslv3 alert certificate expired)"), "\(observed)")
        let never = ServerCertificateCheck().evaluate(observation(.wrongHost), in: context)
        guard case .held(let quiet) = never else { return #expect(Bool(false), "\(never)") }
        #expect(quiet.contains("it made no TLS connection to the token endpoint"), "\(quiet)")
    }

    @Test("A handshake completed and hung up without a request is said as such, not as no connection")
    func completedThenClosed() {
        if case .native(var native) = observation(.wrongHost) {
            native.completedHandshakeCount = 2
            let outcome = ServerCertificateCheck().evaluate(.native(native), in: context)
            guard case .held(let observed) = outcome else { return #expect(Bool(false), "\(outcome)") }
            #expect(observed.contains("it completed 2 TLS handshakes and closed the connection without a request"), "\(observed)")
            #expect(!observed.contains("no TLS connection"), "\(observed)")
        }
    }

    @Test("Not judged where there is no certificate to refuse, or the redirect never reached the app")
    func notApplicable() {
        for certificate in [nil, NativeServerScript.TokenCertificate.trusted] {
            let outcome = ServerCertificateCheck().evaluate(
                observation(certificate, requests: [request(over: certificate, body: "code=a")]), in: context)
            guard case .notApplicable = outcome else { return #expect(Bool(false), "\(String(describing: certificate)): \(outcome)") }
        }
        if case .native(var native) = observation(.otherCA) {
            native.undelivered = "the listener accepted no connection"
            guard case .notApplicable(let reason) = ServerCertificateCheck().evaluate(.native(native), in: context) else {
                return #expect(Bool(false))
            }
            #expect(reason.contains("the redirect never reached the app"))
        }
    }
}
