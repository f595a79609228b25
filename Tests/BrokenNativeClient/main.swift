// Deliberately broken native clients, each with exactly one defect, to prove the native-client cases catch it.
//
//   broken-native-client --defect NAME [--redirect scheme|loopback]
//
// Each defect replaces one stage of the reference client (NativeClientApp.Behaviour) and nothing else.
import AppFlipReferenceClient
import Foundation

let defects: [String: String] = [
    "plain-pkce": "uses the plain challenge method",
    "fixed-verifier": "uses the same verifier for every sign-in",
    "no-state": "sends no state (relies on PKCE)",
    "state-not-checked": "sends a state but accepts a redirect with any state",
    "localhost": "its loopback redirect URI names localhost, not 127.0.0.1",
    "other-loopback-address": "its loopback redirect URI and listener use 127.1.0.1: loopback, but not a literal Google accepts",
    "double-slash": "its private-use redirect URI has two slashes after the scheme",
    "redirect-differs": "sends the code exchange another redirect_uri (a trailing slash)",
    "old-refresh-token": "keeps the first refresh token after a rotation",
    "any-token-type": "uses a token whatever its token_type",
    "follows-redirect": "re-posts the code exchange to a 307's Location",
    "plain-after-error": "falls back to plain PKCE after the server refused a request",
    "no-revoke": "signs out without revoking",
    "embedded": "opens the sign-in page in an embedded web view",
    "listener-any": "its loopback listener binds 0.0.0.0, reachable from the network",
    "listener-stays-open": "its loopback listener stays open after the callback",
    "holds-connections": "opens 40 connections to the authorization server when asked to sign in, and holds them without a word",
    "floods-server": "sends the authorization server 1,100 requests and three of 1 MiB when asked to sign in, then signs in as the reference",
    "listener-closed-early": "closes its loopback listener before the browser comes, then says so when asked for the redirect",
    "listener-silent": "its loopback listener takes the browser's request and never answers it, nor tells the app",
    "accepts-replay": "keeps a sign-in pending after its response, so a replayed response is exchanged again",
    "ignores-issuer": "exchanges a code from a response that names another issuer (a mix-up)",
    "accepts-unsolicited": "with no sign-in pending, exchanges whatever response arrives",
    "no-verifier": "sends the code exchange without its code_verifier",
    "short-verifier": "uses a fixed 42-character verifier (one short of the minimum)",
    "wrong-verifier": "sends the code exchange another verifier than the one it hashed",
    "plain-from-metadata": "uses plain when the discovery document offers no S256",
    "retries-slow-exchange": "gives up on a code exchange after half a second and sends the same code again",
    "time-state": "derives its state from the clock (long enough, but guessable)",
    "refuses-sign-in": "breaks the contract: answers every sign-in with rejected",
    // Correct, but not as the reference does it: these must pass.
    "refuses-without-s256": "correct: refuses to sign in when the discovery document offers no S256",
    "hex-state": "correct: a state of 64 random hex digits",
    "basic-client-auth":
        "correct: names itself by HTTP Basic with the installed-app secret and sends no client_id in the body (Google's installed-app library)",
    "authenticates-twice": "sends HTTP Basic and client_secret in the body: two client authentications at once",
    "client-credentials-after-error": "correct: after an error response, requests a client_credentials token (no code: no downgrade)",
    "verifier-in-query": "puts the code_verifier in the token request's URL as well as its body",
    "verifier-on-sign-out": "sends the code_verifier again with the revocation request on sign-out",
    "revokes-in-query": "correct: revokes with the token in the query of the POST, as Google documents its revocation endpoint",
    "accepts-any-certificate": "makes its TLS connections verifying nothing: any certificate is accepted",
    "no-host-check": "verifies the certificate's chain (against ca_file) but not that it names the host",
    "ca-file": "correct: trusts ca_file in a TLS context of its own and verifies the chain and the host (the reference trusts ca_pem)",
    "ignores-given-ca": "breaks the contract: trusts only the system's store, not the CA the configuration gives",
    "wrong-secret": "names itself by HTTP Basic with a client secret other than the configured one (the server refuses: invalid_client)",
    "basic-no-secret": "correct: names itself by HTTP Basic with an empty password, a public client, as some libraries do",
    "no-pkce": "sends no code_challenge and no code_verifier (no PKCE at all)",
    "keeps-first-endpoints": "keeps the first sign-in's token and revocation endpoints for every later sign-in (a reused Flow)",
]

var arguments = Array(CommandLine.arguments.dropFirst())
var defect = ""
var mode = NativeClientApp.RedirectMode.scheme
while !arguments.isEmpty {
    let name = arguments.removeFirst()
    guard let value = arguments.first else { break }
    arguments.removeFirst()
    switch name {
    case "--defect": defect = value
    case "--redirect": mode = NativeClientApp.RedirectMode(rawValue: value) ?? .scheme
    default: break
    }
}
guard defects[defect] != nil else {
    let list = defects.keys.sorted().joined(separator: ", ")
    try? FileHandle.standardError.write(
        contentsOf: Data("usage: broken-native-client --defect NAME [--redirect scheme|loopback]; NAME is one of \(list)\n".utf8))
    exit(2)
}
let app = NativeClientApp(
    mode: mode, schemeURI: defect == "double-slash" ? "com.example.reference://oauth2redirect" : "com.example.reference:/oauth2redirect")
switch defect {
case "plain-pkce": app.behaviour.challengeMethod = "plain"
case "basic-client-auth": app.behaviour.clientAuthentication = .basic
case "authenticates-twice": app.behaviour.clientAuthentication = .twice
case "revokes-in-query": app.behaviour.revokesInQuery = true
case "verifier-in-query": app.behaviour.verifierInQuery = true
case "verifier-on-sign-out": app.behaviour.verifierOnSignOut = true
case "client-credentials-after-error": app.behaviour.clientCredentialsAfterError = true
case "fixed-verifier": app.behaviour.fixedVerifier = "fixed-verifier-fixed-verifier-fixed-verifier-0123"
case "no-state": app.behaviour.sendsState = false
case "state-not-checked": app.behaviour.checksState = false
case "localhost": app.behaviour.loopbackHost = "localhost"
case "other-loopback-address":
    app.behaviour.loopbackHost = "127.1.0.1"
    app.behaviour.listenAddress = "127.1.0.1"
case "redirect-differs": app.behaviour.exchangeRedirectURI = { $0 + "/" }
case "old-refresh-token": app.behaviour.keepsOldRefreshToken = true
case "any-token-type": app.behaviour.acceptsAnyTokenType = true
case "follows-redirect": app.behaviour.followsRedirects = true
case "plain-after-error": app.behaviour.plainAfterError = true
case "no-revoke": app.behaviour.revokesOnSignOut = false
case "embedded": app.behaviour.userAgent = "embedded"
case "listener-any": app.behaviour.listenAddress = "0.0.0.0"
case "listener-stays-open": app.behaviour.closesListener = false
case "holds-connections":
    app.behaviour.beforeCommand = { command in
        guard command["command"] as? String == "sign-in", let origin = Hostile.origin(of: command) else { return }
        Hostile.hold(40, to: origin)
    }
case "floods-server":
    app.behaviour.beforeCommand = { command in
        guard command["command"] as? String == "sign-in", let origin = Hostile.origin(of: command) else { return }
        Hostile.flood(origin)
    }
case "listener-closed-early": app.behaviour.unusableListener = .closedEarly
case "listener-silent": app.behaviour.unusableListener = .silent
case "accepts-replay": app.behaviour.keepsPendingAfterResponse = true
case "ignores-issuer": app.behaviour.checksIssuer = false
case "accepts-unsolicited": app.behaviour.acceptsUnsolicited = true
case "no-verifier": app.behaviour.exchangeVerifier = { _ in nil }
case "short-verifier": app.behaviour.fixedVerifier = String(repeating: "v", count: 42)
case "wrong-verifier": app.behaviour.exchangeVerifier = { String($0.reversed()) }
case "plain-from-metadata": app.behaviour.withoutS256InMetadata = .usePlain
case "retries-slow-exchange":
    app.behaviour.exchangeTimeout = 0.5
    app.behaviour.retriesExchange = true
case "time-state": app.behaviour.makeState = { "flow-" + String(format: "%040llu", UInt64(Date().timeIntervalSince1970 * 1_000_000)) }
case "refuses-sign-in": app.behaviour.refusesSignIn = true
case "keeps-first-endpoints": app.behaviour.keepsFirstEndpoints = true
case "refuses-without-s256": app.behaviour.withoutS256InMetadata = .refuse
case "ignores-given-ca": app.behaviour.tlsConnector = OwnTLS.connector(.full)
case "wrong-secret":
    app.behaviour.clientAuthentication = .basic
    app.behaviour.presentedSecret = { $0 + "-wrong" }
case "basic-no-secret":
    app.behaviour.clientAuthentication = .basic
    app.behaviour.presentedSecret = { _ in "" }
case "no-pkce":
    app.behaviour.sendsChallenge = false
    app.behaviour.exchangeVerifier = { _ in nil }
case "accepts-any-certificate", "no-host-check", "ca-file":
    app.behaviour.beforeCommand = { OwnTLS.note($0) }
    app.behaviour.tlsConnector = OwnTLS.connector(defect == "ca-file" ? .full : defect == "no-host-check" ? .chainOnly : .none)
case "hex-state":
    app.behaviour.makeState = {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
default: break
}
exit(NativeClientLoop.serve(app))
