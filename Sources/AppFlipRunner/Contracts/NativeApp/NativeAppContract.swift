import AppFlipBase
import AppFlipModel
import AppFlipRedaction
import Foundation

/// The native app's contract (Documentation/AdapterContracts.md, "The native-client profile and its contract"): one JSON command per line in, one answer per
/// line out, one process per case, against the suite's test authorization server. A native step drives the app
/// (sign in through the browser, replay a redirect, refresh, call the API, sign out) and observes what it did there.
package struct NativeAppContract: AdapterContract {
    package init() {}

    package var key: AdapterContractKey { .nativeApp }
    package var role: String { "native client" }
    /// The target's description names it ("native client …").
    package var labelsDescription: Bool { false }
    package var unconfigured: String { "no native client is configured (--native-client COMMAND)" }

    package func request(of action: Step.Action) -> NativeStep? {
        if case .native(let step) = action { return step }
        return nil
    }

    package func send(_ native: NativeStep, _ step: AdapterStep, through executor: StepExecutor, state: inout StepExecutor.CaseState)
        -> AdapterSending
    {
        return .observed(executor.sendNative(native, label: step.label, recordEvidence: step.recordEvidence, state: &state).map { ($0, []) })
    }

    /// Set once the app can no longer be asked anything (a redirect never reached it, and it may still be waiting).
    package func notSent(_ state: StepExecutor.CaseState) -> String? { state.native.notSent }
}

extension AdapterContractKey {
    /// The native app behind the native-client contract (native-client profile).
    package static let nativeApp = AdapterContractKey(rawValue: "the native client")
}

/// What a case's native steps pass on to the next: the authorization request the app opened last, where the
/// server's answer sent it, and why the app can no longer be asked anything.
struct NativeCaseNotes: Sendable {
    var authorizationURL: String?
    var redirect: String?
    var notSent: String?
}

extension StepExecutor.CaseState {
    var native: NativeCaseNotes {
        get { contractNotes[.nativeApp] as? NativeCaseNotes ?? NativeCaseNotes() }
        set { contractNotes[.nativeApp] = newValue }
    }
}

/// The case's app process and test authorization server, started by its first native step.
final class NativeFlow: AdapterCaseFlow {
    let session: NativeClientSession
    let server: TestAuthorizationServer

    init(session: NativeClientSession, server: TestAuthorizationServer) {
        self.session = session
        self.server = server
    }

    func end() {
        session.close()
        server.stop()
    }
}

extension StepExecutor {
    /// Why a step whose token endpoint presents a certificate the app must refuse cannot judge it: the app never
    /// connected to that endpoint (no handshake with it, no request over it) and sent its token or revocation request
    /// to another one, an earlier sign-in's, as a client that keeps its first configuration does (a
    /// google-auth-oauthlib `Flow` reused across sign-ins). Nothing then shows how the app checks certificates.
    static func keptEarlierEndpoint(_ observation: NativeObservation, certificate: NativeServerScript.TokenCertificate) -> String? {
        guard certificate != .trusted, observation.failedHandshakeCount == 0, observation.completedHandshakeCount == 0,
            !observation.requests.contains(where: { $0.certificate == certificate })
        else { return nil }
        let elsewhere = observation.requests.filter { $0.certificate != certificate && ($0.path == "/token" || $0.path == "/revoke") }
        guard let first = elsewhere.first else { return nil }
        let over = first.certificate.map { "over the \($0.rawValue) certificate" } ?? "over plain http"
        return "the app never connected to the token endpoint this sign-in gave it (the one presenting the \(certificate.rawValue) "
            + "certificate): it sent \(first.method) \(first.path) to another, an earlier sign-in's (\(over)), so how it checks "
            + "certificates cannot be judged here; the adapter must use the endpoints each sign-in's configuration names"
    }

    /// Runs one native-client step: the app process and the test authorization server live for the case.
    func sendNative(_ step: NativeStep, label: String, recordEvidence: Bool, state: inout CaseState) -> Observation? {
        guard let (session, server) = preparedFlow(for: step, label: label, state: &state) else { return nil }
        let certificate = step.server.tokenCertificate
        let handshakesBefore = certificate.map { server.failedHandshakes($0).count } ?? 0
        let completedBefore = certificate.map { server.completedHandshakes($0) } ?? 0
        let before = server.requests.count
        let stepStarted = Date()
        let refreshTokensBefore = server.issuedRefreshTokens
        var observation: NativeObservation
        switch step.command {
        case .signIn:
            switch signIn(step, session: session, server: server, since: before, refreshTokensBefore: refreshTokensBefore, state: &state) {
            case .success(let signedIn): observation = signedIn
            case .failure(let failure): return fail(failure, label: label, session: session, state: &state)
            }
        case .replayRedirect, .unsolicitedRedirect:
            switch redirected(
                step, label: label, session: session, server: server, since: before, refreshTokensBefore: refreshTokensBefore, state: &state)
            {
            case .success(let redirected)?: observation = redirected
            case .failure(let failure)?: return fail(failure, label: label, session: session, state: &state)
            case nil: return nil
            }
        case .refresh, .callAPI, .signOut:
            let command: NativeCommand = step.command == .refresh ? .refresh : step.command == .callAPI ? .callAPI : .signOut
            switch session.exchange(command, timeout: timeout) {
            case .failure(let failure):
                return fail(failure, label: label, session: session, state: &state)
            case .success(let answer):
                observation = NativeObservation(
                    command: step.command, answer: answer, authorizationURL: state.native.authorizationURL,
                    requests: Array(server.requests.dropFirst(before)), refreshTokensBefore: refreshTokensBefore)
            }
        }
        if let overwhelmed = server.overwhelmed {
            // Refused requests may be what the checks miss: judging them would blame a requirement the app did not break.
            return fail(NativeFailure(message: overwhelmed), label: label, session: session, state: &state)
        }
        if let certificate,
            let failure = judgeable(&observation, certificate: certificate, server: server, before: (handshakesBefore, completedBefore))
        {
            return fail(failure, label: label, session: session, state: &state)
        }
        observation.refusedExchange = server.refusedExchange
        observation.caseRequests = server.requests
        if let undelivered = observation.undelivered {
            // The app may still be waiting for its callback: nothing later in the case can be asked of it.
            state.native.notSent = NativeObservation.undeliveredReason(undelivered)
            state.outcome.undeliveredRedirect = UndeliveredRedirect.check(undelivered)
        }
        // The server's own tokens and codes are secrets like any other: never shown.
        state.outcome.learn(
            SecretValues.inNativeTraffic(observation.requests, authorization: observation.answer?.authorization)
                + server.handedOutSecrets)
        state.outcome.recordStderr(session.log, limit: logExcerptLimit)
        if recordEvidence {
            state.outcome.record(evidence(of: step, label: label, observation: observation, server: server, started: stepStarted))
        }
        return .native(observation)
    }

    /// A replayed redirect, or one the app never asked for, delivered to the app: what it did with it; nil when the case
    /// has no earlier redirect (said in `state`).
    private func redirected(
        _ step: NativeStep, label: String, session: NativeClientSession, server: TestAuthorizationServer, since before: Int,
        refreshTokensBefore: [String], state: inout CaseState
    ) -> Result<NativeObservation, NativeFailure>? {
        guard let earlier = state.native.redirect else {
            state.outcome.record(
                .target(label + "no earlier sign-in in the case sent a redirect to " + (step.command == .replayRedirect ? "replay" : "aim at")))
            return nil
        }
        var redirect = earlier
        if step.command == .unsolicitedRedirect {
            // The app's redirect URI, with a code the server will redeem and a state the app never sent.
            let base = String(earlier[..<(earlier.firstIndex(of: "?") ?? earlier.endIndex)])
            redirect =
                base + "?code=" + FormEncoding.encode(server.mintCode()) + "&state=unsolicited-" + FormEncoding.encode(UUID().uuidString)
                + "&iss=" + FormEncoding.encode(server.origin)
        }
        var record = NativeSignIn.Record()
        NativeSignIn(timeout: timeout).deliver(redirect, session: session, into: &record, signingIn: false)
        if let failure = record.failure { return .failure(failure) }
        var observation = NativeObservation(
            command: step.command, answer: record.outcome, authorizationURL: state.native.authorizationURL,
            requests: Array(server.requests.dropFirst(before)), refreshTokensBefore: refreshTokensBefore)
        observation.redirect = redirect
        observation.delivery = record.delivery
        observation.undelivered = record.undelivered
        observation.refusedByClosedListener = record.refusedByClosedListener
        if record.refusedByClosedListener {
            // The app may still be waiting for a callback that cannot come: nothing more can be asked of it.
            state.native.notSent = "the app gave no answer after its closed listener refused the redirect"
        }
        return .success(observation)
    }

    /// The step's handshakes with the token endpoint's certificate, in `observation`; a failure when they leave nothing
    /// to judge (the app kept an earlier sign-in's endpoint, or refused the CA the suite gave it).
    private func judgeable(
        _ observation: inout NativeObservation, certificate: NativeServerScript.TokenCertificate, server: TestAuthorizationServer,
        before: (handshakes: Int, completed: Int)
    ) -> NativeFailure? {
        let (reasons, count) = server.failedHandshakes(certificate)
        observation.tokenCertificate = certificate
        observation.failedHandshakeCount = count - before.handshakes
        observation.failedHandshakes = Array(reasons.dropFirst(before.handshakes))
        observation.completedHandshakeCount = server.completedHandshakes(certificate) - before.completed
        if let elsewhere = Self.keptEarlierEndpoint(observation, certificate: certificate) {
            return NativeFailure(message: elsewhere)
        }
        if certificate == .trusted, observation.failedHandshakeCount > 0, !observation.requests.contains(where: { $0.certificate == .trusted }) {
            // Refusing the CA it was given says nothing of how the app checks certificates: it cannot be judged.
            let reason = observation.failedHandshakes.first.map { " (the server saw: \($0))" } ?? ""
            return NativeFailure(
                message: "the app refused the token endpoint's certificate, issued by the CA the suite gave it "
                    + "(ca_file, ca_pem)\(reason): the adapter must trust that CA for the case to judge anything")
        }
        return nil
    }

    /// The case's app session and test authorization server (started by its first native step), with the token
    /// endpoint's certificate for this step ready; nil when they cannot be had, said in `state`.
    private func preparedFlow(for step: NativeStep, label: String, state: inout CaseState) -> (NativeClientSession, TestAuthorizationServer)? {
        guard let target = targets.adapters[.nativeApp] as? NativeClientTarget else {
            state.outcome.record(.target(label + "no native client is configured"))
            return nil
        }
        if nativeFlow == nil {
            do {
                flows[.nativeApp] = NativeFlow(session: target.makeSession(), server: try TestAuthorizationServer(clientID: configuration.clientID))
            } catch {
                state.outcome.record(.suite(label + "the suite cannot start its test authorization server: \(error)"))
                return nil
            }
        }
        guard let flow = nativeFlow else { return nil }
        let (session, server) = (flow.session, flow.server)
        if let certificate = step.server.tokenCertificate {
            do throws(TestAuthorizationServer.CertificateFailure) {
                try server.prepare(certificate)
            } catch {
                state.outcome.record(error.unsupported ? .notApplicable(label + error.message) : .suite(label + error.message))
                return nil
            }
        }
        server.use(step.server)
        return (session, server)
    }

    /// A sign-in: the app opens the browser, the suite walks it and delivers the redirect.
    private func signIn(
        _ step: NativeStep, session: NativeClientSession, server: TestAuthorizationServer, since before: Int,
        refreshTokensBefore: [String], state: inout CaseState
    ) -> Result<NativeObservation, NativeFailure> {
        var record = NativeSignIn(timeout: timeout + step.server.tokenDelay).run(session, server: server)
        if record.refusedToStart && !step.server.justifiesRefusal {
            record.failure = NativeFailure(
                message: "the app answered sign-in with rejected, not open-browser"
                    + (record.outcome?.reason.map { " (\($0))" } ?? "")
                    + ": the server offered everything a sign-in needs")
        }
        if let failure = record.failure { return .failure(failure) }
        var observation = NativeObservation(
            command: .signIn, answer: record.outcome, authorizationURL: record.authorizationURL,
            requests: Array(server.requests.dropFirst(before)), refreshTokensBefore: refreshTokensBefore)
        observation.previousAuthorizationURL = state.native.authorizationURL
        state.native.authorizationURL = record.authorizationURL
        state.native.redirect = record.redirect
        observation.userAgent = record.userAgent
        observation.redirect = record.redirect
        observation.delivery = record.delivery
        observation.listenerAddresses = record.listenerAddresses
        observation.listenerOpenAfterCallback = record.listenerOpenAfterCallback
        observation.undelivered = record.undelivered
        return .success(observation)
    }

    /// The step's evidence: what the app opened and sent, what the server refused, what the app answered.
    private func evidence(
        of step: NativeStep, label: String, observation: NativeObservation, server: TestAuthorizationServer,
        started: Date
    ) -> Evidence.Exchange {
        var lines = [label + step.command.rawValue]
        if let url = observation.authorizationURL, step.command == .signIn { lines.append("  app opened " + Redaction.redact(url: url)) }
        if let redirect = observation.redirect {
            lines.append("  server redirected to " + Redaction.redact(url: redirect) + " (\(observation.delivery ?? ""))")
        }
        for request in observation.requests where request.path != "/authorize" {
            let body = request.body.isEmpty ? "" : " " + Redaction.redact(query: Substring(String(decoding: request.body, as: UTF8.self)))
            let over = request.certificate.map { " (over https, the \($0.rawValue) certificate)" } ?? ""
            lines.append("  app → \(request.method) \(Redaction.redact(url: request.target))\(body)\(over)")
        }
        if let certificate = observation.tokenCertificate {
            lines.append(
                "  token endpoint over https with the \(certificate.rawValue) certificate" + (certificate.flaw.map { " (\($0))" } ?? "")
                    + ": \(observation.failedHandshakeCount) handshake\(observation.failedHandshakeCount == 1 ? "" : "s") broken off"
                    + (observation.failedHandshakes.first.map { " (\($0))" } ?? ""))
        }
        if let refused = server.refusedTraffic { lines.append("  test server refused: " + refused) }
        lines.append("  app answered " + (observation.answer.map { $0.action.rawValue + ($0.reason.map { ": \($0)" } ?? "") } ?? "nothing"))
        return Evidence.Exchange(
            lines.joined(separator: "\n"), sentAt: started,
            milliseconds: Int((Date().timeIntervalSince(started) * 1000).rounded()))
    }

    private func fail(_ failure: NativeFailure, label: String, session: NativeClientSession, state: inout CaseState) -> Observation? {
        // What the server handed out is secret even when the app failed before using it (it may have logged it).
        if let server = nativeFlow?.server { state.outcome.learn(server.handedOutSecrets) }
        // What the app did to the test server meanwhile is part of the story (a flood of requests, held connections).
        let refused = nativeFlow?.server.refusedTraffic.map { " (meanwhile the test server refused: \($0))" } ?? ""
        let explained = failure.message.contains("test authorization server")
        state.outcome.record(failure.suiteFault ? .suite(label + failure.message) : .target(label + failure.message + (explained ? "" : refused)))
        state.outcome.learn(failure.secrets + SecretPositions.inAnswer(failure.rawAnswer))
        state.outcome.recordAnswer(failure.rawAnswer, limit: TargetExchange.answerExcerptLimit)
        state.outcome.recordStderr(session.log, limit: logExcerptLimit)
        return nil
    }

    /// The case's app process and test authorization server, once its first native step started them.
    private var nativeFlow: NativeFlow? { flows[.nativeApp] as? NativeFlow }
}
