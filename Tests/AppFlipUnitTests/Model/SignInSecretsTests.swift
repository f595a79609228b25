import AppFlipLoading
import Testing

@testable import AppFlipModel

/// Which sign-in values the reports hide: credentials and what the partner marks secret, never a plain user name,
/// which the reproduce commands and the adapters' arguments need to show.
@Suite("Sign-in secrets")
struct SignInSecretsTests {
    private func load(_ fields: String, environment: [String: String] = [:]) throws -> TargetConfiguration {
        let text = """
            client_id: google-client
            link: https://app.example/flip
            endpoints:
              authorize: https://auth.example/o/authorize/
            sign_in:
              consent:
                form: "username,password"
                fields:
            \(fields)
            """
        return try TargetConfigurationLoader.load(bytes: Array(text.utf8), file: "target.conf", environment: environment)
    }

    @Test("A user name written in the file is shown; a password written there is hidden")
    func writtenValues() throws {
        let configuration = try load("      username: approver\n      password: approver-password")
        #expect(configuration.signIn[.consent]?.fields["username"] == "approver")
        #expect(!configuration.secrets.contains("approver"))
        #expect(configuration.secrets.contains("approver-password"))
    }

    @Test("A value from the environment is hidden whatever its field: ${env:NAME} marks it secret")
    func environmentValues() throws {
        let configuration = try load(
            "      login: ${env:APPFLIP_USER}\n      otp_code: 123456",
            environment: ["APPFLIP_USER": "quiet-user"])
        #expect(configuration.secrets.contains("quiet-user"))
        #expect(configuration.secrets.contains("123456"), "a one-time code is a credential by its name")
    }

    @Test(
        "Field names that say credential",
        arguments: [
            ("password", true), ("user[password]", true), ("passwd", true), ("pin", true), ("totp_code", true), ("client_secret", true),
            ("api_key", true), ("username", false), ("email", false), ("login", false), ("remember_me", false),
        ])
    func credentialNames(_ name: String, _ credential: Bool) {
        #expect(SignInScript.isCredential(name) == credential)
    }
}
