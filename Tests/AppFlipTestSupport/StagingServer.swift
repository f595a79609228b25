import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A partner's staging deployment for the tests that certify as a partner does: `appflip-reference serve --https` in a
/// process of its own, on a free port, with a CA of its own (a staging CA: only `--ca-file` trusts it) and short
/// lifetimes so a certification's waits are seconds. Ended (SIGKILL) when released.
package final class StagingServer {
    private let process = Process()
    package let port: Int
    /// The staging CA's certificate (PEM), as a file and as text.
    package let caFile: String
    package let pem: String

    package init(directory: String) throws {
        caFile = directory + "/staging-ca.pem"
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("appflip-reference"))
        process.arguments = ["serve", "--port", "0", "--https", caFile, "--code-lifetime", "2", "--token-lifetime", "3"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "listening on https://127.0.0.1:PORT", once ready.
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let port = text.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "appflip-reference serve said: \(text)"])
        }
        self.port = port
        pem = try String(contentsOfFile: caFile, encoding: .utf8)
    }

    deinit {
        // SIGKILL: a test process that ran a command in-process may ignore SIGTERM, and its children with it.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Where the link handler and the Android activity mint codes this server redeems.
    package var codeServer: String { "https://127.0.0.1:\(port)/reference/flip-code" }

    /// The variables the configuration names, with the values this server takes.
    package static let secrets: [String: String] = [
        "PARTNER_CLIENT_SECRET": "reference-secret", "PARTNER_SECOND_SECRET": "other-client-secret",
        "PARTNER_APPROVER_PASSWORD": "approver-password", "PARTNER_REFUSER_PASSWORD": "refuser-password",
        "PARTNER_SECOND_PASSWORD": "second-password",
    ]

    /// The configuration a partner writes from README for the App Flip programs: every need given, secrets by
    /// variable, a test hook written in (a secret like any header's); `narrowed` is the `narrowed_scope` entry.
    package func configuration(narrowed: String = "narrowed_scope:\n  request: devices admin\n  granted: devices") -> String {
        let base = "https://127.0.0.1:\(port)"
        func user(_ scenario: String, _ name: String, _ variable: String, press button: String) -> String {
            "  \(scenario):\n    form: \"#sign-in\"\n    fields:\n      username: \(name)\n      password: ${env:\(variable)}\n"
                + "    consent_form: \"#consent\"\n    consent_button: \(button)\n"
        }
        return """
            client_id: google-client
            client_secret_env: PARTNER_CLIENT_SECRET
            project_id: reference-project
            app_id: ABCDE12345.com.example.reference
            link: https://app.example/flip
            android_action: com.example.reference.APP_FLIP
            android_package: com.example.reference
            code_lifetime: 2
            token_lifetime: 3
            second_client_id: other-client
            second_client_secret_env: PARTNER_SECOND_SECRET
            \(narrowed)
            throttling_probe: true
            endpoints:
              authorize: \(base)/oauth/authorize
              token: \(base)/oauth/token
              revoke: \(base)/oauth/revoke
              site_association: \(base)/.well-known/apple-app-site-association
              link_site_association: \(base)/.well-known/apple-app-site-association
              api: \(base)/api/userinfo
            sign_in:

            """
                + user("consent", "approver", "PARTNER_APPROVER_PASSWORD", press: "approve")
                + user("deny", "refuser", "PARTNER_REFUSER_PASSWORD", press: "deny")
                + user("second-user", "second", "PARTNER_SECOND_PASSWORD", press: "approve")
                + "scenarios:\n  disabled-account:\n    Cookie: reference-user=disabled\n"
    }
}
