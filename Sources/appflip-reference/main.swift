import AppFlipDefects
import AppFlipHTTP
import AppFlipReference
import AppFlipReferenceClient
import AppFlipReferenceServer
import AppFlipTLS
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
let serving = arguments.first == "serve"
if serving { arguments.removeFirst() }
let nativeClient = arguments.first == "native-client"
if nativeClient { arguments.removeFirst() }
let androidHandler = arguments.first == "android-handler"
if androidHandler { arguments.removeFirst() }

let usage = """
    \(ReferenceArguments.usage)

    usage: appflip-reference serve [--client-id ID] [--project-id ID] [--app-id ID] [--host 127.0.0.1] [--port 8080]
                                   [--https CA_FILE] [--code-lifetime 600] [--token-lifetime 3600] [--defect NAME]

    Serves every endpoint a partner implements, correctly, with in-memory state: GET /oauth/authorize,
    POST /oauth/token, POST /oauth/revoke, GET /.well-known/apple-app-site-association, and the link handler at
    POST \(ReferenceServer.linkHandlerPath). The client secret is APPFLIP_REFERENCE_CLIENT_SECRET, or
    "reference-secret". Test users: the cookie reference-user=approver or second (approve), refuser (refuses),
    disabled (disabled account). Prints "listening on http://HOST:PORT" once ready (--port 0 picks a free port).
    With --https CA_FILE it serves TLS instead, with a certificate for HOST from a CA made in memory at start, whose
    certificate (PEM) it writes to CA_FILE for a client to trust (run --ca-file CA_FILE), and prints
    "listening on https://HOST:PORT". --code-lifetime and --token-lifetime set how many seconds a code and an access
    token live (a certification waits each out: short ones for a test).
    --defect NAME serves the reference with one deliberate defect (or, marked so, one correct design of another
    kind), to prove the suite catches it (appflip-conformance detection runs them all). Never for a partner's use:
    \(DefectCatalog.usageList(.server))

    usage: appflip-reference android-handler [--client-id ID] [--code-server URL]

    The reference Android App Flip activity behind the Android adapter contract (Documentation/AdapterContracts.md): it allows the Google app
    and Google Home with their certificates, compares CLIENT_ID exactly, reads SCOPE as Google's String[], and
    finishes with RESULT_OK and a code, -2 with int ERROR_TYPE and ERROR_CODE, or RESULT_CANCELED.

    usage: appflip-reference native-client [--redirect scheme|loopback] [--scheme-uri URI]

    A correct native OAuth client behind the native-client adapter contract (Documentation/AdapterContracts.md): PKCE S256, a fresh state and
    verifier per sign-in, a private-use-scheme redirect (default com.example.reference:/oauth2redirect) or a
    loopback listener on 127.0.0.1 open only until its callback.
    """

func fail(_ message: String) -> Never {
    try? FileHandle.standardError.write(contentsOf: Data("error: \(message)\n\n\(usage)\n".utf8))
    exit(2)
}

/// `-h`/`--help` anywhere among a subcommand's options: the usage on standard output, exit 0.
if serving || nativeClient || androidHandler, arguments.contains(where: { $0 == "-h" || $0 == "--help" }) {
    try? FileHandle.standardOutput.write(contentsOf: Data((usage + "\n").utf8))
    exit(0)
}

if nativeClient {
    var mode = NativeClientApp.RedirectMode.scheme
    var schemeURI = "com.example.reference:/oauth2redirect"
    while !arguments.isEmpty {
        let name = arguments.removeFirst()
        guard !arguments.isEmpty else { fail("\(name) needs a value") }
        let value = arguments.removeFirst()
        switch name {
        case "--redirect":
            guard let chosen = NativeClientApp.RedirectMode(rawValue: value) else { fail("--redirect takes scheme or loopback") }
            mode = chosen
        case "--scheme-uri": schemeURI = value
        default: fail("unknown option \(name)")
        }
    }
    exit(NativeClientLoop.serve(NativeClientApp(mode: mode, schemeURI: schemeURI)))
}

if androidHandler {
    switch ReferenceArguments.parseOptions(arguments) {
    case .success(let options):
        var activity = AndroidActivity(clientID: options.clientID, mintCode: { _, _ in CodeMinter.mint() })
        if let server = options.codeServer {
            guard let minter = RemoteCodeMinter.minter(url: server, authority: options.codeServerCA) else {
                fail("--code-server takes an http:// or https:// URL")
            }
            activity.mintCode = minter
        }
        exit(AdapterLoop.serve(activity))
    case .failure(let error):
        fail(error.message.isEmpty ? "android-handler takes --client-id ID and --code-server URL" : error.message)
    }
}

if !serving {
    switch ReferenceArguments.parseOptions(arguments) {
    case .success(let options):
        var handler = LinkHandler(clientID: options.clientID)
        if let server = options.codeServer {
            guard let minter = RemoteCodeMinter.minter(url: server, authority: options.codeServerCA) else {
                fail("--code-server takes an http:// or https:// URL")
            }
            handler.mintCode = minter
        }
        exit(AdapterLoop.serve(handler))
    case .failure(let error):
        if error.message.isEmpty {
            try? FileHandle.standardOutput.write(contentsOf: Data((usage + "\n").utf8))
            exit(0)
        }
        fail(error.message)
    }
}

var clientID = ReferenceArguments.defaultClientID
var projectID = "reference-project"
var appID = "ABCDE12345.com.example.reference"
var host = "127.0.0.1"
var port = 8080
var caFile: String?
var codeLifetime = 600.0
var tokenLifetime = 3600.0
var defect: String?
while !arguments.isEmpty {
    let name = arguments.removeFirst()
    guard !arguments.isEmpty else { fail("\(name) needs a value") }
    let value = arguments.removeFirst()
    switch name {
    case "--client-id": clientID = value
    case "--project-id": projectID = value
    case "--app-id": appID = value
    case "--host": host = value
    case "--https": caFile = value
    case "--defect":
        guard DefectCatalog.named(value, in: .server).first != nil else { fail("--defect: no server defect is called '\(value)'") }
        defect = value
    case "--code-lifetime", "--token-lifetime":
        guard let seconds = Double(value), (1...86_400).contains(seconds) else { fail("\(name) takes 1 to 86400 seconds") }
        if name == "--code-lifetime" { codeLifetime = seconds } else { tokenLifetime = seconds }
    case "--port":
        guard let number = Int(value), (0...65_535).contains(number) else { fail("--port takes 0 to 65535") }
        port = number
    default: fail("unknown argument '\(name)'")
    }
}
do {
    let secret = ProcessInfo.processInfo.environment["APPFLIP_REFERENCE_CLIENT_SECRET"] ?? "reference-secret"
    var configuration = ReferenceServerConfiguration(
        clientID: clientID, clientSecret: secret, projectID: projectID, appID: appID, codeLifetime: codeLifetime,
        tokenLifetime: tokenLifetime)
    if let defect { configuration = ServerDefectBehaviours.configuration(for: defect, configuration) }
    let reference = ReferenceServer(configuration: configuration)
    var handler = reference.handler
    if let defect {
        guard let behaviour = ServerDefectBehaviours.behaviour(defect, configuration: configuration) else {
            fail("--defect: '\(defect)' is listed but has no behaviour in this build")
        }
        handler = behaviour.wrap(handler)
    }
    var identity: TLSServerIdentity?
    if let caFile {
        let authority = try CertificateAuthority(name: "appflip-reference serve CA")
        identity = try authority.serverIdentity(for: [host, "localhost"])
        do {
            try Data(authority.pem.utf8).write(to: URL(fileURLWithPath: caFile))
        } catch {
            fail("--https: cannot write the CA certificate to \(caFile): \(error.localizedDescription)")
        }
    }
    let plain = defect.flatMap { ServerDefectBehaviours.plainHTTP(for: $0, reference.handler) }
    let server = try HTTPServer(host: host, port: port, tls: identity, plainHandler: plain, handler: handler)
    try? FileHandle.standardOutput.write(contentsOf: Data("listening on \(server.scheme)://\(host):\(server.port)\n".utf8))
    server.run()
} catch {
    fail("cannot listen on \(host):\(port): \(error)")
}
