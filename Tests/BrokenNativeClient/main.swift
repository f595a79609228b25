import AppFlipDefects
// Deliberately broken native clients, each with exactly one defect, to prove the native-client cases catch it.
//
//   broken-native-client --defect NAME [--redirect scheme|loopback]
//
// Each defect replaces one stage of the reference client (NativeClientApp.Behaviour) and nothing else.
import AppFlipReferenceClient
import Foundation

// The names and what each does wrong are the shipped catalog's (AppFlipDefects), which also says what a run must find.
let defects = Dictionary(
    DefectCatalog.all.filter { $0.family == .nativeClient }.map { ($0.name, $0.summary) }, uniquingKeysWith: { first, _ in first })

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
    mode: mode,
    schemeURI: defect == "double-slash"
        ? "com.example.reference://oauth2redirect"
        : defect == "scheme-without-period" ? "reference:/oauth2redirect" : "com.example.reference:/oauth2redirect")
switch defect {
case "plain-pkce": app.behaviour.challengeMethod = "plain"
case "no-response-type": app.behaviour.authorizationParameters = { $0.filter { $0.0 != "response_type" } }
case "repeats-scope": app.behaviour.authorizationParameters = { parameters in parameters + parameters.filter { $0.0 == "scope" } }
case "refuses-unknown-members": app.behaviour.refusesUnknownMembers = true
case "base64-challenge":
    // The standard base64 alphabet with the padding stripped: '+' and '/' where base64url has '-' and '_' (about three
    // sign-ins in four carry one).
    app.behaviour.authorizationParameters = { parameters in
        parameters.map { name, value in
            name == "code_challenge" ? (name, value.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")) : (name, value)
        }
    }
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
