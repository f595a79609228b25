import AppFlipLoading
import AppFlipModel
import AppFlipSyntax
import AppFlipTestSupport
import Foundation
import Testing

/// The Android App Flip case format: `intent:` builds Google's intent, edits are typed and located, and the
/// activity's checks go only where an activity answers.
@Suite("Android intent cases")
struct IntentCaseTests {
    let catalog = Catalog(
        requirements: [
            Requirement(id: "AF-ANDR-002", level: .must, profile: "android-app-flip", title: "t", statement: "s", citations: []),
            Requirement(id: "AF-LINK-005", level: .mustNot, profile: "app-link", title: "t", statement: "s", citations: []),
        ],
        sources: [])

    private func load(_ text: String) throws(DiagnosticList) -> [ConformanceCase] {
        try CaseText.load(text, catalog: catalog)
    }

    private func android(_ intent: String, expect: String = "      result_code: -1\n") -> String {
        "id: android-app-flip/x/one\ntitle: One\nprofile: android-app-flip\nscenario: consent\n" + intent
            + "requirement: AF-ANDR-002 MUST\nexpect:\n" + expect
    }

    @Test("Google's intent: the configured action, package and caller, CLIENT_ID String, SCOPE String[] of the scope's words, REDIRECT_URI String")
    func googleIntent() throws {
        let cases = try load(android("intent: google\n"))
        guard case .intent(let recipe)? = cases.first?.steps.first?.action else {
            Issue.record("no intent step")
            return
        }
        var configuration = RunConfiguration(link: "https://app.example/flip", clientID: "cid", scope: "devices lights")
        configuration.android = AndroidSettings(action: "a.ACTION", package: "a.pkg")
        let intent = recipe.build(in: Template.Context(configuration: configuration, generated: GeneratedValues(seed: 1, caseID: "x")))
        #expect(intent.action == "a.ACTION" && intent.package == "a.pkg" && intent.caller == .googleApp)
        #expect(intent.extras.map(\.name) == ["CLIENT_ID", "SCOPE", "REDIRECT_URI"])
        #expect(intent.extra("CLIENT_ID") == .string("cid"))
        #expect(intent.extra("SCOPE") == .stringArray(["devices", "lights"]))
        #expect(intent.extra("REDIRECT_URI") == .string(AndroidSettings.defaultRedirectURI))
    }

    @Test("Edits replace in place, add after, remove, and change the caller; types are kept")
    func edits() throws {
        let text = android(
            """
            intent:
              set:
                - name: SCOPE
                  type: String
                  value: ${scope}
                - name: EXTRA_COUNT
                  type: int
                  value: -7
              remove: [REDIRECT_URI]
              caller:
                package: com.example.other
                signature: AB:CD

            """)
        guard case .intent(let recipe)? = try load(text).first?.steps.first?.action else {
            Issue.record("no intent step")
            return
        }
        let configuration = RunConfiguration(link: "https://app.example/flip", clientID: "cid")
        let intent = recipe.build(in: Template.Context(configuration: configuration, generated: GeneratedValues(seed: 1, caseID: "x")))
        #expect(intent.extras.map(\.name) == ["CLIENT_ID", "SCOPE", "EXTRA_COUNT"])
        #expect(intent.extra("SCOPE") == .string("devices"))
        #expect(intent.extra("EXTRA_COUNT") == .int(-7))
        #expect(intent.caller == AndroidCaller(package: "com.example.other", signatureSHA256: "AB:CD"))
        let none = try load(android("intent:\n  caller: none\n"))
        guard case .intent(let noCaller)? = none.first?.steps.first?.action else {
            Issue.record("no intent step")
            return
        }
        #expect(noCaller.build(in: Template.Context(configuration: configuration, generated: GeneratedValues(seed: 1, caseID: "x"))).caller == nil)
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var text: String
        var message: String
        var testDescription: String { message }
    }

    static let bad: [Bad] = [
        Bad(text: "intent: valid\n", message: "'intent' is 'google'"),
        Bad(text: "intent:\n  set:\n    - name: X\n      type: long\n      value: 1\n", message: "an extra's type is String, String[] or int"),
        Bad(text: "intent:\n  set:\n    - name: X\n      type: int\n      value: 99999999999\n", message: "a 32-bit integer"),
        Bad(text: "intent:\n  remove: [EXTRA_OTHER]\n", message: "'remove' takes extras Google sends"),
        Bad(text: "intent:\n  caller: somebody\n", message: "'caller' is google"),
        Bad(text: "link: base\n", message: "starts the activity with 'intent'"),
    ]

    @Test("A malformed intent is a located error", arguments: bad)
    func malformed(_ bad: Bad) {
        #expect {
            _ = try load(android(bad.text))
        } throws: { error in
            let text = (error as? DiagnosticList)?.description ?? ""
            return text.contains(bad.message) && text.contains("t.case:")
        }
    }

    @Test("A one-word check value other than its word is a located error naming the word")
    func oneWord() {
        #expect {
            _ = try load(android("intent: google\n", expect: "      finished: yes\n"))
        } throws: { error in
            let text = (error as? DiagnosticList)?.description ?? ""
            return text.contains("'finished' takes 'true'") && text.contains("t.case:8:")
        }
    }

    @Test("An activity check judges only an intent step, and a link check never one")
    func checksInTheirPlace() {
        #expect {
            _ = try load(android("intent: google\n", expect: "      action: open\n"))
        } throws: { error in
            ((error as? DiagnosticList)?.description ?? "").contains("'action' does not judge an Android activity's result")
        }
        let link =
            "id: app-link/x/one\ntitle: One\nprofile: app-link\nscenario: consent\nlink: base\nrequirement: AF-LINK-005 MUST NOT\nexpect:\n  finished: true\n"
        #expect {
            _ = try load(link)
        } throws: { error in
            ((error as? DiagnosticList)?.description ?? "").contains("'finished' judges an Android activity's result")
        }
    }
}
