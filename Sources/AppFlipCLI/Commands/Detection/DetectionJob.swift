import AppFlipDefects
import Foundation

/// One shipped defect run against the suite: its partner server (the reference, or the defect itself) started as a
/// process of its own, a target configuration written for it, and `appflip-conformance run` in a process of its own,
/// bounded in time, whose results.json is read back. Nothing here comes from outside the package: every program run is
/// one built beside this executable, with arguments made here.
struct DetectionJob: Sendable {
    var defect: Defect
    var programs: DetectionPrograms
    var seed: UInt64
    /// The most the whole job may take before its run is killed (and the defect counted as not shown).
    var limit: Double

    /// The client secrets the configuration names by variable, with the values the reference server takes.
    static let secrets = [
        "APPFLIP_DETECTION_CLIENT_SECRET": "reference-secret", "APPFLIP_DETECTION_SECOND_SECRET": "other-client-secret",
    ]

    /// Runs the defect and reads what the suite found.
    func run(in directory: URL) -> DetectionOutcome {
        let started = Date()
        var outcome = DetectionOutcome(defect: defect)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var server: ChildProgram?
            defer { server?.stop() }
            var arguments = ["run", "--seed", String(seed), "--reports", directory.appendingPathComponent("reports").path, "--quiet"]
            arguments += ["--color", "never", "--time-limit", String(Int(limit * 0.8)), "--mode", "persistent"]
            if defect.family != .nativeClient {
                let started = try startServer(in: directory)
                server = started.server
                let configuration = directory.appendingPathComponent("detection.target")
                try Data(Self.configuration(base: started.base, pages: defect.signsInThroughPages).utf8).write(to: configuration)
                arguments += ["--config", configuration.path]
                if let caFile = started.caFile { arguments += ["--ca-file", caFile] }
                arguments += target(codeServer: started.base + "/reference/flip-code", ca: started.caPEM)
            } else {
                arguments += target(codeServer: "", ca: nil)
            }
            let child = try ChildProgram.start(
                programs.suite, arguments, environment: Self.secrets,
                output: directory.appendingPathComponent("run.log"))
            let status = child.wait(seconds: limit)
            outcome.exitCode = status
            if status == nil { outcome.problems.append("the run took longer than \(Int(limit)) s and was stopped") }
            try outcome.read(results: directory.appendingPathComponent("reports/results.json"))
        } catch {
            outcome.problems.append("\(error)")
        }
        outcome.seconds = Date().timeIntervalSince(started)
        return outcome
    }

    /// The profiles and the adapter the run is given, for the defect's family.
    private func target(codeServer: String, ca: String?) -> [String] {
        let carrier = programs.carriers[defect.family] ?? defect.family.program
        let minting = ["--code-server", codeServer] + (ca.map { ["--code-server-ca", $0] } ?? [])
        switch defect.family {
        case .server:
            // The server's profiles, and the two whose codes it mints: the flip (the reference link handler) and the
            // Android activity's (the reference activity).
            let activity = ["android-handler", "--client-id", DetectionJob.clientID] + minting
            return ["--profile", "authorize", "--profile", "token", "--profile", "site-association", "--profile", "flip"]
                + ["--profile", "android-app-flip", "--android-handler", programs.reference]
                + activity.flatMap { ["--android-handler-arg", $0] } + ["--", programs.reference, "--client-id", DetectionJob.clientID] + minting
        case .linkHandler:
            return ["--profile", "app-link", "--profile", "flip", "--", carrier, "--defect", defect.name] + minting
        case .androidHandler:
            return ["--profile", "android-app-flip", "--android-handler", carrier]
                + (["--defect", defect.name] + minting).flatMap { ["--android-handler-arg", $0] }
        case .nativeClient:
            return ["--profile", "native-client", "--client-id", DetectionJob.clientID, "--native-client", carrier]
                + ["--defect", defect.name, "--redirect", defect.redirect ?? "scheme"].flatMap { ["--native-client-arg", $0] }
        }
    }

    static let clientID = "google-client"

    /// `appflip-reference serve` on a free loopback port, with the defect when it is a server's; over https where the
    /// suite serves TLS itself, its CA written beside the configuration.
    private func startServer(in directory: URL) throws -> (server: ChildProgram, base: String, caFile: String?, caPEM: String?) {
        var arguments = ["serve", "--port", "0", "--code-lifetime", "2", "--token-lifetime", "3", "--client-id", Self.clientID]
        let caFile = directory.appendingPathComponent("server-ca.pem").path
        if programs.https { arguments += ["--https", caFile] }
        if defect.family == .server { arguments += ["--defect", defect.name] }
        let server = try ChildProgram.start(
            programs.reference, arguments, environment: ["APPFLIP_REFERENCE_CLIENT_SECRET": "reference-secret"], output: nil)
        guard let line = server.firstLine(seconds: 20), let base = line.split(separator: " ").last.map(String.init),
            line.hasPrefix("listening on ")
        else {
            server.stop()
            throw DetectionError("appflip-reference serve did not say where it listens")
        }
        guard programs.https else { return (server, base, nil, nil) }
        let pem = try String(contentsOfFile: caFile, encoding: .utf8)
        return (server, base, caFile, pem)
    }

    /// A partner's configuration for the reference server at `base`: every need given, users signed in by the
    /// server's cookie hook, secrets by variable.
    static func configuration(base: String, pages: Bool) -> String {
        """
        client_id: \(clientID)
        client_secret_env: APPFLIP_DETECTION_CLIENT_SECRET
        project_id: reference-project
        app_id: ABCDE12345.com.example.reference
        link: https://app.example/flip
        android_action: com.example.reference.APP_FLIP
        android_package: com.example.reference
        code_lifetime: 2
        token_lifetime: 3
        second_client_id: other-client
        second_client_secret_env: APPFLIP_DETECTION_SECOND_SECRET
        native_client_id: native-app
        native_redirect_uris: ["http://127.0.0.1/callback", "com.example.reference:/oauth2redirect"]
        narrowed_scope:
          request: devices admin
          granted: devices
        throttling_probe: true
        endpoints:
          authorize: \(base)/oauth/authorize
          token: \(base)/oauth/token
          revoke: \(base)/oauth/revoke
          site_association: \(base)/.well-known/apple-app-site-association
          link_site_association: \(base)/.well-known/apple-app-site-association
          api: \(base)/api/userinfo
          metadata: \(base)/.well-known/oauth-authorization-server

        """ + (pages ? signInThroughPages : signInByCookie)
    }

    /// The test users signed in by the reference's cookie hook.
    static let signInByCookie = """
        scenarios:
          consent:
            Cookie: reference-user=approver
          deny:
            Cookie: reference-user=refuser
          disabled-account:
            Cookie: reference-user=disabled
          second-user:
            Cookie: reference-user=second

        """

    /// The test users signed in through the reference's pages, as a partner's staging configuration does (the disabled
    /// account by the hook: its sign-in ends in no consent form).
    static let signInThroughPages = """
        sign_in:
          consent:
            form: "#sign-in"
            fields:
              username: approver
              password: approver-password
            consent_form: "#consent"
            consent_button: approve
          deny:
            form: "#sign-in"
            fields:
              username: refuser
              password: refuser-password
            consent_form: "#consent"
            consent_button: deny
          second-user:
            form: "#sign-in"
            fields:
              username: second
              password: second-password
            consent_form: "#consent"
            consent_button: approve
        scenarios:
          disabled-account:
            Cookie: reference-user=disabled

        """
}

/// Why a detection job could not run.
struct DetectionError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
