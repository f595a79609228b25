import AppFlipChecks
import AppFlipDefects
import AppFlipModel
import AppFlipRunner
import AppFlipSystem
import AppFlipTLS
import AppFlipTestSupport
import Foundation
import Testing

/// The native-client cases against clients with one defect each: every defect fails (or warns) under exactly the
/// requirement it breaks, and the reference client, in both redirect modes, passes every case. Not serialized: each
/// run has its own servers, ports and browser, and the 43 defects one after another were `swift test`'s last 80 s,
/// mostly waiting (issue 40).
@Suite("Broken native clients")
struct BrokenNativeClientTests {
    struct Defect: Sendable, CustomTestStringConvertible {
        var name: String
        var mode = "scheme"
        var failed: Set<String> = []
        var warned: Set<String> = []
        var testDescription: String { name + " (\(mode))" }
    }

    /// The shipped catalog's native clients (AppFlipDefects), defects and correct variants: what `detection` runs too.
    static let defects: [Defect] = NativeClientDefects.all.filter { $0.role != .fixture }.map { entry in
        let met: Bool
        switch entry.condition {
        case nil: met = true
        case .ownTLS: met = TLSTrust.isAvailable
        case .socketTable: met = ListeningSockets.addresses(listeningOn: 1) != nil
        }
        return Defect(
            name: entry.name, mode: entry.redirect ?? "scheme", failed: met ? entry.fails : [], warned: met ? entry.warns : [])
    }

    private func run(_ executable: String, _ arguments: [String], only: Set<String>? = nil) throws -> RunResult {
        let cases = try SuiteRun.load().1.cases.filter { $0.profile == .nativeClient && (only?.contains($0.id) ?? true) }
        #expect(cases.count >= (only?.count ?? 20))
        var targets = TargetUnderTest()
        targets.adapters[.nativeApp] = NativeClientTarget(executable: executable, arguments: arguments)
        // Eight cases at a time (the library's most): a run here mostly waits (a listener that never answers the
        // browser costs each case its 5 s GET and the 1 s grace), so more at once is the same verdicts sooner.
        return try SuiteRun.run(targets, cases: cases, jobs: 8)
    }

    @Test("Each defect fails or warns under exactly the requirement it breaks, and nothing errors", arguments: defects)
    func blamed(_ defect: Defect) throws {
        let run = try run(BuiltProducts.path("broken-native-client"), ["--defect", defect.name, "--redirect", defect.mode])
        let findings = run.results.flatMap(\.findings)
        let failed = Set(findings.filter { $0.verdict == .fail }.map(\.requirement.id))
        let warned = Set(findings.filter { $0.verdict == .warn }.map(\.requirement.id))
        let errors = run.results.filter { $0.verdict == .error }.map { "\($0.conformanceCase.id): \($0.message ?? "")" }
        #expect(errors.isEmpty, "\(errors)")
        #expect(failed == defect.failed, "\(findings.filter { $0.verdict == .fail }.map { "\($0.requirement): \($0.observed)" })")
        #expect(warned == defect.warned, "\(findings.filter { $0.verdict == .warn }.map { "\($0.requirement): \($0.observed)" })")
    }

    @Test("Refusing a sign-in is an answer only when the server gives a reason (metadata without S256); otherwise the case is an error")
    func refusal() throws {
        let justified = "native-client/pkce/metadata-plain-only"
        let unjustified = "native-client/token/code-exchange"
        let run = try run(BuiltProducts.path("broken-native-client"), ["--defect", "refuses-sign-in"], only: [justified, unjustified])
        let results = Dictionary(uniqueKeysWithValues: run.results.map { ($0.conformanceCase.id, $0) })
        #expect(results[justified]?.verdict == .pass, "\(String(describing: results[justified]?.message))")
        let refused = try #require(results[unjustified])
        #expect(refused.verdict == .error)
        #expect(
            refused.message?.contains("answered sign-in with rejected, not open-browser (this app does not sign in)") == true,
            "\(refused.message ?? "")")
    }

    @Test(
        "An app that keeps its first sign-in's token endpoint never meets the bad certificate: NAT-REQ-004 is not judged, an error says why",
        .enabled(if: TLSTrust.isAvailable))
    func keptFirstEndpoints() throws {
        let ids: Set<String> = ["native-client/tls/other-ca", "native-client/tls/expired", "native-client/tls/wrong-host"]
        let run = try run(BuiltProducts.path("broken-native-client"), ["--defect", "keeps-first-endpoints"], only: ids)
        #expect(Set(run.results.map(\.conformanceCase.id)) == ids)
        for result in run.results {
            #expect(result.verdict == .error, "\(result.conformanceCase.id): \(result.verdict) \(result.findings)")
            #expect(result.findings.isEmpty, "nothing is blamed on NAT-REQ-004: \(result.findings)")
            #expect(
                result.message?.contains("the app never connected to the token endpoint this sign-in gave it") == true
                    && result.message?.contains("it sent POST /token to another, an earlier sign-in's (over the trusted certificate)") == true,
                "\(result.message ?? "")")
        }
    }

    @Test(
        "An app that refuses the CA it was given is not judged under NAT-REQ-004: the case is an error that says so",
        .enabled(if: TLSTrust.isAvailable))
    func givenCARefused() throws {
        let ids: Set<String> = ["native-client/tls/other-ca", "native-client/tls/expired", "native-client/tls/wrong-host"]
        let run = try run(BuiltProducts.path("broken-native-client"), ["--defect", "ignores-given-ca"], only: ids)
        #expect(Set(run.results.map(\.conformanceCase.id)) == ids)
        for result in run.results {
            #expect(result.verdict == .error, "\(result.conformanceCase.id): \(result.verdict)")
            #expect(result.suiteFault == nil)
            #expect(
                result.message?.contains("the app refused the token endpoint's certificate, issued by the CA the suite gave it (ca_file, ca_pem)")
                    == true,
                "\(result.message ?? "")")
            #expect(result.message?.contains("unknown ca") == true, "\(result.message ?? "")")
            #expect(result.findings.isEmpty, "\(result.findings.map(\.observed))")
        }
    }

    @Test(
        "A loopback listener the browser cannot use warns under NAT-REDIR-004-S in every case, judges what the app sent before, and leaves the rest not judged",
        arguments: ["listener-closed-early", "listener-silent"])
    func listenerUnusable(_ defect: String) throws {
        let request = "native-client/request/authorization-request"
        let exchange = "native-client/token/code-exchange"
        let replayed = "native-client/state/replayed"
        let run = try run(
            BuiltProducts.path("broken-native-client"), ["--defect", defect, "--redirect", "loopback"], only: [request, exchange, replayed])
        let results = Dictionary(uniqueKeysWithValues: run.results.map { ($0.conformanceCase.id, $0) })
        for result in run.results {
            #expect(result.verdict == .warn, "\(result.conformanceCase.id): \(result.verdict) \(result.message ?? "")")
            let warning = try #require(result.findings.first { $0.requirement.id == "NAT-REDIR-004-S" })
            #expect(warning.observed.contains("the redirect never reached the app"), "\(warning.observed)")
            #expect(
                warning.observed.contains(defect == "listener-silent" ? "gave the browser no answer" : "accepted no connection"),
                "\(warning.observed)")
        }
        // The authorization request was judged (the audit held); the listener's finding is said once.
        let audited = try #require(results[request])
        #expect(audited.notJudged == nil)
        #expect(audited.checks.contains { $0.requirement.id == "NAT-REQ-001" && $0.verdict == .pass })
        #expect(audited.findings.count == 1, "\(audited.findings.map(\.observed))")
        // What needed the callback is not judged, and says why; a certification would count it as not judged.
        for id in [exchange, replayed] {
            let result = try #require(results[id])
            #expect(result.notJudged?.contains("the redirect never reached the app") == true, "\(id): \(result.notJudged ?? "")")
            // Only the audit every sign-in gets (setup: the request was opened, and judged) applies.
            #expect(result.checks.filter { !AuditCheck.everySignIn.contains($0.requirement.id) }.allSatisfy { !$0.isApplicable })
        }
        #expect(run.notJudgedCount == 2)
    }

    @Test(
        "An app that crowds the test authorization server is blamed for it: held connections and floods are its errors, never the suite's",
        arguments: ["holds-connections", "floods-server"])
    func hostileTraffic(_ defect: String) throws {
        let request = "native-client/request/authorization-request"
        let exchange = "native-client/token/code-exchange"
        let run = try run(BuiltProducts.path("broken-native-client"), ["--defect", defect], only: [request, exchange])
        #expect(run.exitStatus != .suiteFailure)
        for result in run.results {
            #expect(result.suiteFault == nil, "\(result.conformanceCase.id): \(result.suiteFault ?? "")")
            #expect(result.verdict == .error, "\(result.conformanceCase.id): \(result.verdict)")
            let expected =
                defect == "holds-connections"
                ? "the app held 16 connections to the test authorization server open, so the browser's request was refused (503)"
                : "requests past the limit of 1000 a case (answered 429); 3 requests refused for a limit (the body is 1048576 bytes; the limit is 65536)"
            #expect(result.message?.contains(expected) == true, "\(result.message ?? "")")
        }
    }

    @Test("The reference client passes every native-client case in both redirect modes", arguments: ["scheme", "loopback"])
    func reference(_ mode: String) throws {
        let run = try run(BuiltProducts.path("appflip-reference"), ["native-client", "--redirect", mode])
        let notPassing = run.results.filter { $0.verdict != .pass }
        #expect(
            notPassing.isEmpty, "\(notPassing.map { "\($0.conformanceCase.id): \($0.verdict) \($0.message ?? "") \($0.findings.map(\.observed))" })")
    }
}
