import AppFlipBase
import AppFlipDefects
import AppFlipHTTP
import AppFlipModel
import AppFlipReferenceServer
import AppFlipRunner
import AppFlipSetup
import AppFlipTestSupport
import Foundation
import Testing

/// The proof that the Android profile catches defects: each broken activity has one defect, and the run fails
/// exactly the requirement it breaks (a SHOULD only warns); a correct activity that decides differently passes.
@Suite("Broken Android activities are caught", .serialized)
struct BrokenAndroidHandlerTests {
    struct Defect: Sendable, CustomTestStringConvertible {
        var name: String
        var status: AppFlipModel.ExitStatus
        /// The requirements failed: exactly these, no other.
        var failed: Set<String>
        /// The SHOULD requirements the defect must show as warnings.
        var warned: Set<String>
        var testDescription: String { name }
    }

    /// The shipped catalog's broken activities (AppFlipDefects): what `detection` runs too.
    static let defects: [Defect] = AndroidHandlerDefects.all.filter { $0.role == .defect }.map { entry in
        Defect(name: entry.name, status: entry.fails.isEmpty ? .conformant : .nonConformant, failed: entry.fails, warned: entry.warns)
    }

    /// Runs every Android case against `defect`, its codes minted by an in-process reference server so they redeem.
    static func run(_ defect: String) throws -> RunResult {
        try run(BuiltProducts.path("broken-android-handler"), ["--defect", defect], mode: .persistent)
    }

    static func run(
        _ program: String, _ arguments: [String], mode: SubprocessTarget.Mode,
        allowedCallers: [AndroidCaller]? = nil,
        partnerServer: ((@escaping HTTPServer.Handler) -> HTTPServer.Handler)? = nil
    ) throws -> RunResult {
        let setup = try RunSetup.reference(TargetSpecification(seed: 7), handler: .inProcess, nativeClient: nil)
        defer { setup.referenceServer?.stop() }
        var targets = setup.targets
        var codeServer = setup.codeServerArguments
        // A partner's server of its own (the reference's, wrapped): the activity mints its codes there and Google
        // redeems them there.
        var partner: HTTPServer?
        defer { partner?.stop() }
        if let partnerServer {
            let reference = ReferenceServer(
                configuration: ReferenceServerConfiguration(
                    clientID: setup.configuration.clientID,
                    clientSecret: RunSetup.referenceSecret,
                    codeLifetime: 3, tokenLifetime: 4))
            let server = try HTTPServer(handler: partnerServer(reference.handler))
            server.start()
            partner = server
            let base = "http://127.0.0.1:\(server.port)"
            targets.endpoints[.token] = base + "/oauth/token"
            codeServer = ["--code-server", base + ReferenceServer.mintPath]
        }
        targets.adapters[.androidActivity] = try RunSetup.androidHandler(program, arguments: arguments + codeServer, mode: mode)
        let cases = try SuiteRun.load().1.cases.filter { $0.profile == .androidAppFlip }
        var configuration = setup.configuration
        if let allowedCallers { configuration.android.allowedCallers = allowedCallers }
        return try SuiteRun.run(targets, cases: cases, configuration: configuration, timeout: 5)
    }

    @Test("Each defect fails exactly the requirement it breaks", arguments: defects)
    func caught(_ defect: Defect) throws {
        let run = try Self.run(defect.name)
        let findings = run.results.flatMap(\.findings)
        let failed = Set(findings.filter { $0.verdict == .fail }.map(\.requirement.id))
        #expect(failed == defect.failed, "failed: \(failed.sorted())")
        #expect(run.exitStatus == defect.status)
        let warned = Set(findings.filter { $0.verdict == .warn }.map(\.requirement.id))
        #expect(defect.warned.isSubset(of: warned), "warned: \(warned.sorted())")
        #expect(
            run.count(.error) == 0, "errors: \(run.results.filter { $0.verdict == .error }.map { "\($0.conformanceCase.id): \($0.message ?? "")" })")
    }

    @Test(
        "A crash on huge input fails AF-ANDR-013 in the robustness cases it happens in, with what Google receives; a hang stays an error",
        arguments: [SubprocessTarget.Mode.oneShot, .persistent])
    func crash(_ mode: SubprocessTarget.Mode) throws {
        let run = try Self.run(BuiltProducts.path("broken-android-handler"), ["--defect", "crash-on-huge-extra"], mode: mode)
        let failed = run.results.filter { $0.verdict == .fail }
        #expect(
            !failed.isEmpty && failed.allSatisfy { $0.conformanceCase.id.hasPrefix("android-app-flip/robustness/huge") },
            "\(failed.map(\.conformanceCase.id))")
        for result in failed {
            let finding = try #require(result.findings.first { $0.verdict == .fail })
            #expect(finding.requirement.id == "AF-ANDR-013")
            #expect(
                finding.observed.contains("the activity crashed: the handler closed its output without answering (the process exited with status 3)"),
                "\(finding.observed)")
        }
        #expect(run.count(.error) == 0)
        #expect(run.exitStatus == .nonConformant)
    }

    @Test("appflip-reference android-handler passes every case, one-shot and persistent", arguments: [SubprocessTarget.Mode.oneShot, .persistent])
    func referenceProgram(_ mode: SubprocessTarget.Mode) throws {
        let run = try Self.run(BuiltProducts.path("appflip-reference"), ["android-handler"], mode: mode)
        #expect(run.exitStatus == .conformant)
        #expect(
            run.results.count >= 30 && run.results.allSatisfy { $0.verdict == .pass },
            "\(run.results.filter { $0.verdict != .pass }.map(\.conformanceCase.id))")
    }

    @Test(
        "An activity that allows only the Google app passes; its refusal of Google Home informs under AF-ANDR-014, and fails AF-ANDR-001 once Google Home is configured"
    )
    func googleAppOnly() throws {
        let run = try Self.run(BuiltProducts.path("broken-android-handler"), ["--defect", "google-app-only"], mode: .persistent)
        #expect(run.exitStatus == .conformant)
        #expect(run.count(.fail) == 0 && run.count(.error) == 0 && run.count(.warn) == 0)
        let informed = run.results.flatMap(\.findings).filter { $0.verdict == .info }
        #expect(informed.map(\.requirement.id) == ["AF-ANDR-014"], "\(informed.map(\.observed))")
        #expect(informed.first?.observed.contains("com.google.android.apps.chromecast.app refused, which it may be") == true)
        let configured = try Self.run(
            BuiltProducts.path("broken-android-handler"), ["--defect", "google-app-only"], mode: .persistent,
            allowedCallers: [.googleApp, .googleHome])
        let failed = configured.results.flatMap(\.findings).filter { $0.verdict == .fail }
        #expect(failed.map(\.requirement.id) == ["AF-ANDR-001"], "\(failed.map(\.observed))")
        #expect(configured.results.flatMap(\.findings).allSatisfy { $0.requirement.id != "AF-ANDR-014" })
        // The reference allows both: with Google Home configured it passes, the MAY not judged.
        let reference = try Self.run(
            BuiltProducts.path("appflip-reference"), ["android-handler"], mode: .persistent,
            allowedCallers: [.googleApp, .googleHome])
        #expect(reference.exitStatus == .conformant && reference.results.allSatisfy { $0.verdict == .pass })
    }

    @Test("Codes of eight digits from the partner's server, which still redeem once, fail AF-ANDR-015 alone")
    func shortCodes() throws {
        let aliases = ShortCodes()
        let run = try Self.run(
            BuiltProducts.path("appflip-reference"), ["android-handler"], mode: .persistent,
            partnerServer: { reference in
                { request in
                    var forwarded = request
                    if request.path == "/oauth/token" { forwarded.body = aliases.real(inForm: request.body) }
                    let response = reference(forwarded)
                    guard request.path == ReferenceServer.mintPath, response.status == 200 else { return response }
                    var short = response
                    short.body = Array(aliases.alias(for: String(decoding: response.body, as: UTF8.self)).utf8)
                    return short
                }
            })
        let failed = run.results.flatMap(\.findings).filter { $0.verdict == .fail }
        #expect(failed.map(\.requirement.id) == ["AF-ANDR-015"], "\(failed.map { "\($0.requirement): \($0.observed)" })")
        #expect(failed.first?.observed.contains("shortest 8 characters") == true, "\(failed.map(\.observed))")
        #expect(run.count(.error) == 0)
    }

    @Test("An activity that compares digests by their hex digits alone (case, colons) passes every case")
    func normalisedDigest() throws {
        let run = try Self.run(BuiltProducts.path("broken-android-handler"), ["--defect", "normalised-digest"], mode: .persistent)
        #expect(run.exitStatus == .conformant)
        #expect(run.results.allSatisfy { $0.verdict == .pass }, "\(run.results.filter { $0.verdict != .pass }.map(\.conformanceCase.id))")
    }

    @Test("An activity that makes different legitimate choices passes every case")
    func legitimateVariant() throws {
        let run = try Self.run("legitimate-variant")
        #expect(run.exitStatus == .conformant)
        #expect(run.count(.fail) == 0 && run.count(.error) == 0)
        #expect(run.results.flatMap(\.findings).filter { $0.verdict == .warn }.isEmpty)
    }
}

/// Eight-digit stand-ins for a server's real codes: what a partner whose server issues short numeric codes hands out.
private final class ShortCodes: @unchecked Sendable {
    /// Each alias's real code, and the last number handed out.
    private let book = Locked((real: [String: String](), next: 40_000_000))

    func alias(for code: String) -> String {
        book.withLock { book in
            book.next += Int.random(in: 1...999_999)
            let alias = String(format: "%08d", book.next % 100_000_000)
            book.real[alias] = code
            return alias
        }
    }

    /// A token request's form with an alias replaced by the real code it stands for.
    func real(inForm body: [UInt8]) -> [UInt8] {
        let text = String(decoding: body, as: UTF8.self)
        let pairs = text.split(separator: "&").map { pair -> String in
            guard pair.hasPrefix("code="), let code = book.withLock({ $0.real[String(pair.dropFirst(5))] }) else { return String(pair) }
            return "code=" + code
        }
        return Array(pairs.joined(separator: "&").utf8)
    }
}
