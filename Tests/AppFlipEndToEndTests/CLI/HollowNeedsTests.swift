import AppFlipCLI
import AppFlipModel
import AppFlipRunner
import AppFlipTestSupport
import Foundation
import Testing

/// A certification's needs hold only with usable values: a blank value, a placeholder the docs show, a second client
/// that is the first, or a sign-in user without a name or a secret is refused before anything is sent.
@Suite("Hollow needs")
struct HollowNeedsTests {
    /// Every App Flip for iOS need given, on a port nothing answers (nothing may be contacted); `edit` changes it.
    private func configuration(_ edit: (String) -> String = { $0 }) -> String {
        let base = "https://127.0.0.1:9"
        func user(_ scenario: String, _ name: String, _ password: String) -> String {
            "  \(scenario):\n    form: \"#sign-in\"\n    fields:\n      username: \"\(name)\"\n      password: \"\(password)\"\n"
                + "    consent_form: \"#consent\"\n    consent_button: approve\n"
        }
        let text = """
            client_id: google-client
            client_secret_env: HOME
            project_id: reference-project
            app_id: ABCDE12345.com.example.reference
            link: https://app.example/flip
            code_lifetime: 2
            token_lifetime: 3
            second_client_id: other-client
            second_client_secret_env: HOME
            narrowed_scope: none
            throttling_probe: true
            endpoints:
              authorize: \(base)/oauth/authorize
              token: \(base)/oauth/token
              revoke: \(base)/oauth/revoke
              site_association: \(base)/.well-known/apple-app-site-association
              api: \(base)/api/userinfo
            sign_in:

            """ + user("consent", "approver", "approver-password") + user("deny", "refuser", "refuser-password")
            + user("second-user", "second", "second-password")
        return edit(text)
    }

    private func certify(_ text: String) throws -> (status: Int32, err: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hollow-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try text.write(toFile: directory + "/target.conf", atomically: true, encoding: .utf8)
        let captured = Captured()
        let status = Command.main(
            [
                "run", "--config", directory + "/target.conf", "--certification", "app-flip-ios", "--reports", directory + "/reports",
                "--timeout", "1", "--", BuiltProducts.path("appflip-conformance"), "reference-handler",
            ], console: captured.console)
        return (status, captured.err)
    }

    @Test("Blank, placeholder, same-client and nameless or secretless users: each named, exit 2, nothing sent")
    func hollowValuesRefused() throws {
        let hollow = configuration {
            $0.replacingOccurrences(of: "project_id: reference-project", with: "project_id: \" \"")
                .replacingOccurrences(of: "app_id: ABCDE12345.com.example.reference", with: "app_id: TEAMID.bundle")
                .replacingOccurrences(of: "second_client_id: other-client", with: "second_client_id: google-client")
                .replacingOccurrences(of: "password: \"approver-password\"", with: "password: \"\"")
                .replacingOccurrences(of: "username: \"refuser\"", with: "username: \"  \"")
        }
        let result = try certify(hollow)
        #expect(result.status == 2, "\(result.err)")
        for expected in [
            "  project_id (app-flip-ios): it is blank;",
            "  app_id (app-flip-ios): 'TEAMID.bundle' is the placeholder the docs show, not yours;",
            "  second_client_id (app-flip-ios): second_client_id is client_id itself",
            "  sign_in.consent (app-flip-ios): the sign-in field password is blank;",
            "  sign_in.deny (app-flip-ios): the sign-in field username is blank;",
        ] {
            #expect(result.err.contains(expected), "\(expected) is not said:\n\(result.err)")
        }
        #expect(!result.err.contains("  sign_in.second-user ("), "\(result.err)")
    }

    @Test("Usable values of other shapes are met: a user named by email with a PIN, a second client differing by more than case")
    func usableValuesMet() throws {
        let configuration = RunConfiguration(link: "https://partner.example/flip", clientID: "google-client", projectID: "p-1", appID: "T.b")
        var targets = TargetUnderTest(clientSecret: "s", secondClient: (id: "Google-Client-2", secret: "t"))
        targets.signIn[.consent] = SignInScript(form: "#f", fields: ["email": "a@b.example", "pin": "0000"])
        for need: ProgramNeed in [
            .value(.projectID), .value(.appID), .value(.link), .value(.clientSecret), .value(.secondClient), .signIn(.consent), .user(.consent),
        ] {
            #expect(ProgramNeedsCheck.hollowness(need, targets: targets, configuration: configuration) == nil, "\(need)")
        }
        // The same user with only credentials, or only a name, is hollow.
        targets.signIn[.consent] = SignInScript(form: "#f", fields: ["password": "x", "pin": "0"])
        #expect(ProgramNeedsCheck.hollowness(.signIn(.consent), targets: targets, configuration: configuration) != nil)
        targets.signIn[.consent] = SignInScript(form: "#f", fields: ["login": "x"])
        #expect(ProgramNeedsCheck.hollowness(.signIn(.consent), targets: targets, configuration: configuration) != nil)
    }

    @Test("The placeholder list holds every value the example configuration shows in place of a partner's own")
    func placeholdersFollowTheExample() throws {
        let example = try String(contentsOf: PackageRoot.url.appendingPathComponent("Conformance/examples/staging.target"), encoding: .utf8)
        for (key, value) in [(ProgramNeed.Value.projectID, "project_id"), (.appID, "app_id"), (.link, "link"), (.secondClient, "second_client_id")] {
            let line = try #require(example.split(separator: "\n").first { $0.hasPrefix(value + ": ") })
            let shown = line.dropFirst(value.count + 2).split(separator: " ").first.map(String.init) ?? ""
            #expect(ProgramNeed.placeholders[key]?.contains(shown) == true, "\(value): \(shown)")
        }
        let readme = try PackageRoot.text("Documentation/Certification.md")
        #expect(readme.contains("`TEAMID.bundle`") && ProgramNeed.placeholders[.appID]?.contains("TEAMID.bundle") == true)
    }
}
