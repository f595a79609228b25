import AppFlipBase
import AppFlipCLI
import AppFlipDigest
import AppFlipEvidence
import AppFlipHTTP
import AppFlipLoading
import AppFlipModel
import AppFlipReferenceServer
import AppFlipReporting
import AppFlipSuite
import AppFlipSystem
import AppFlipTestSupport
import Foundation
import Testing

/// Captures what a command prints.
final class Captured: @unchecked Sendable {
    private let lines = Locked((out: [String](), err: [String]()))

    var console: Console {
        Console(
            out: { line in self.lines.withLock { $0.out.append(line) } },
            err: { line in self.lines.withLock { $0.err.append(line) } })
    }

    var out: String { lines.withLock { $0.out.joined(separator: "\n") } }
    var err: String { lines.withLock { $0.err.joined(separator: "\n") } }
}

@Suite("Command line", .serialized)
struct CommandTests {
    private func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
        let captured = Captured()
        let status = Command.main(arguments, console: captured.console)
        return (status, captured.out, captured.err)
    }

    private let paths = ["--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog]

    @Test("A bad flag gets usage help and exit 2, with a suggestion")
    func badFlag() {
        let result = run(["run", "--target", "reference", "--jbos", "2"])
        #expect(result.status == 2)
        #expect(result.err.contains("unknown option '--jbos' (did you mean '--jobs'?)"))
        #expect(result.err.contains("usage: appflip-conformance run"))
        // The error, one usage line and where the help is: not the whole help.
        #expect(result.err.contains("See 'appflip-conformance help run'."))
        #expect(result.err.split(separator: "\n").count == 3, "\(result.err)")
        // An option that takes one value, given twice, is refused (never one of them silently); repeatable ones are not.
        for arguments in [
            ["run", "--target", "reference", "--reports", "a", "--reports", "b"], ["validate-url", "--reports", "a", "--reports", "b", "x"],
            ["run", "--target", "reference", "--jobs", "2", "--jobs=3"],
        ] {
            let twice = run(arguments)
            #expect(twice.status == 2 && twice.err.contains("is given twice"), "\(arguments): \(twice.err)")
        }
        #expect(
            Command.check(["run", "--target", "reference", "--profile", "token", "--profile", "authorize", "--filter", "a", "--filter", "b"]) == nil)
    }

    @Test("The exit codes are listed in one place: help prints them from it, Documentation/ExitCodes.md's table has exactly them, in order")
    func exitCodes() throws {
        let readme = try PackageRoot.text("Documentation/ExitCodes.md")
        let table = readme.components(separatedBy: "| Exit | Meaning |").dropFirst().first ?? ""
        let codes = table.split(separator: "\n").dropFirst(1).prefix { $0.hasPrefix("|") }
            .compactMap { Int32($0.split(separator: "|").first?.trimmingCharacters(in: .whitespaces) ?? "") }
        #expect(codes == ExitStatus.allCases.map(\.rawValue), "\(codes)")
        for topic in [["help"], ["help", "run"]] {
            let help = run(topic).out
            for status in ExitStatus.allCases { #expect(help.contains(status.summary), "\(topic): \(status)") }
        }
    }

    @Test(
        "A handler that cannot be used is found once before the run and said once, with its standard error; one error in every case is printed once")
    func failFastOnce() throws {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("preflight-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: reports) }
        let link = ["run", "--link", "https://app.example/flip", "--client-id", "c", "--profile", "app-link", "--reports", reports] + paths
        // An interpreter started on a script that does not exist, as `python3 ./no-such.py` is.
        let script = reports + "-handler.sh"
        try ExecutableFile.write("#!/bin/sh\necho \"python3: can't open file './no-such.py'\" >&2\nexit 2\n", to: script)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let dead = run(link + ["--", script])
        #expect(dead.status == 3, "\(dead.err)")
        // Whether it exits before or after the request is written is the scheduler's: either is said.
        #expect(
            dead.err.contains("TARGET UNREACHABLE: the handler did not answer a first request before the run: the handler closed its "), "\(dead.err)"
        )
        #expect(
            dead.err.contains("(the process exited with status 2); its standard error: python3: can't open file './no-such.py' — 130 cases not sent"),
            "\(dead.err)")
        #expect(dead.err.components(separatedBy: "can't open file").count == 2, "said more than once:\n\(dead.err)")
        // Nothing listening at the handler URL: checked before the run, said once.
        let port = try HTTPServer(handler: { _ in HTTPResponse(status: 200) })
        let closed = port.port
        port.stop()
        let unreachable = run(
            [
                "run", "--link", "https://app.example/flip", "--client-id", "c", "--profile", "app-link", "--reports", reports,
                "--handler-url", "http://127.0.0.1:\(closed)/handle",
            ] + paths)
        #expect(
            unreachable.status == 3 && unreachable.err.contains("TARGET UNREACHABLE: http://127.0.0.1:\(closed) could not be reached"),
            "\(unreachable.err)")
        #expect(unreachable.err.components(separatedBy: "could not be reached").count == 2, "\(unreachable.err)")
        // A handler that runs but answers garbage every time: the first case's error, then one line for the rest.
        let garbage = run(link + ["--", BuiltProducts.path("broken-handler"), "--defect", "garbage"])
        #expect(garbage.status == 3)
        #expect(garbage.err.components(separatedBy: "the answer line is not a JSON object").count == 3, "\(garbage.err)")
        #expect(garbage.err.contains("more cases with the same error: unusable answer: the answer line is not a JSON object"), "\(garbage.err)")
    }

    @Test(
        "Documentation/Configuration.md's option table names exactly run's options (one table: CommandOption.run), and its certification row the refused ones"
    )
    func optionTable() throws {
        let readme = try PackageRoot.text("Documentation/Configuration.md")
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `--") || $0.hasPrefix("| `-") }
        var documented = Set<String>()
        for row in rows {
            let first = row.split(separator: "|").first ?? ""
            for word in first.split(whereSeparator: { " `,".contains($0) }) where word.hasPrefix("--") { documented.insert(String(word)) }
        }
        let declared = Set(CommandOption.run.map(\.name)).subtracting(["--help"])
        #expect(documented.isSuperset(of: declared), "missing from Documentation/Configuration.md: \(declared.subtracting(documented).sorted())")
        #expect(
            declared.isSuperset(of: documented.filter { !["--max-urls"].contains($0) }),
            "Documentation/Configuration.md names options run does not have: \(documented.subtracting(declared).sorted())")
        let certification = try #require(rows.first { $0.hasPrefix("| `--certification") })
        for option in CommandOption.refused.map(\.name) {
            #expect(certification.contains("`\(option)`"), "\(option) is not in the --certification row")
        }
        #expect(run(["help", "run"]).out.contains("refuses \(CommandOption.certificationRefusals)"))
    }

    @Test("A usage error shows the usage form of what was typed: a handler command, a handler URL, a native client, a configuration")
    func usageForm() {
        let forms = [
            (["run", "--link", "x", "--client-id", "y", "--jbos", "2", "--", "./h"], "-- HANDLER"),
            (["run", "--link", "x", "--client-id", "y", "--handler-url", "http://h", "--jbos", "2"], "--handler-url URL"),
            (["run", "--profile", "native-client", "--native-client", "./a", "--jbos", "2"], "--native-client ADAPTER"),
            (["run", "--jbos", "2"], "--target reference"),
            // Endpoints from a configuration, a profile that is not native-client's: not the native client's form.
            (["run", "--profile", "authorize", "--config", "t.conf", "--jbos", "2"], "--config FILE"),
            (["run", "--profile=token", "--config=t.conf", "--ca-file", "/nonexistent/ca.pem"], "--config FILE"),
        ]
        for (arguments, form) in forms {
            let result = run(arguments)
            let usage = result.err.split(separator: "\n").first { $0.hasPrefix("usage: ") } ?? ""
            #expect(result.status == 2 && usage.contains(form), "\(arguments): \(result.err)")
        }
    }

    @Test("Version, help topics and bounds follow the usual conventions")
    func conventions() {
        for arguments in [["-V"], ["--version"], ["version"], ["run", "--version"], ["diff", "-V"]] {
            let result = run(arguments)
            #expect(result.status == 0 && result.out == SuiteVersion.line, "\(arguments): \(result.out)")
            #expect(result.out.hasPrefix("appflip-conformance \(SuiteVersion.current)"))
        }
        let help = run(["help", "run"])
        #expect(help.status == 0 && help.out.contains("exit codes:") && help.out.contains("130 interrupted"))
        let unknown = run(["help", "rnu"])
        #expect(unknown.status == 2 && unknown.err.contains("no help for 'rnu' (did you mean 'run'?)"))
        let command = run(["dif"])
        #expect(command.status == 2 && command.err.contains("unknown command 'dif' (did you mean 'diff'?)") && !command.err.contains("commands:"))
        let jobs = run(["run", "--target", "reference", "--jobs", "1000"])
        #expect(jobs.err.contains("--jobs takes a number from 1 to 256, not '1000'"), "\(jobs.err)")
        let timeout = run(["run", "--target", "reference", "--timeout", "0"])
        #expect(timeout.err.contains("from 0.1 to 3600,"), "\(timeout.err)")
        let list = run(["list", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--filter", "nothing/matches"])
        #expect(list.status == 2 && list.err.contains("no case matches --filter nothing/matches"))
    }

    @Test("appflip-reference: help for each subcommand on standard output, exit 0; an unwritable --https CA file is said as such")
    func referenceConventions() throws {
        for subcommand in [["serve"], ["native-client"], ["android-handler"], []] {
            let help = try ProgramRun.run(BuiltProducts.path("appflip-reference"), subcommand + ["--help"])
            #expect(
                help.status == 0 && help.output.contains("usage: appflip-reference serve")
                    && !help.output.split(separator: "\n").contains(where: { $0.hasPrefix("error:") }),
                "\(subcommand): \(help.output.prefix(300))")
        }
        let unwritable = try ProgramRun.run(BuiltProducts.path("appflip-reference"), ["serve", "--port", "0", "--https", "/nonexistent-dir/ca.pem"])
        #expect(
            unwritable.status == 2 && unwritable.output.contains("error: --https: cannot write the CA certificate to /nonexistent-dir/ca.pem"),
            "\(unwritable.output.prefix(300))")
    }

    @Test(
        "Bad values and combinations are usage errors",
        arguments: [
            ["run"], ["run", "--target", "other"], ["run", "--mode", "forever", "--target", "reference"],
            ["run", "--timeout", "0", "--target", "reference"], ["run", "--jobs", "x", "--target", "reference"],
            ["run", "--link", "http://app.example/flip", "--client-id", "c", "--", "/bin/sh"],
            ["run", "--client-id", "c", "--", "/bin/sh"], ["run", "--target", "reference", "--redirect-uri", "https://evil.example/"],
            ["frobnicate"], ["lint", "a", "b"], ["run", "--target", "reference", "--samples", "1"],
            ["run", "--target", "reference", "--samples", "many"], ["run", "--target", "reference", "--quiet", "--verbose"],
            ["run", "--target", "reference", "--color", "sometimes"], ["run", "--target", "reference", "--shard", "5/4"],
            [
                "run", "--client-id", "c", "--android-handler", "/bin/true", "--android-action", "a", "--android-package", "p",
                "--android-allowed-caller", "com.google.android.apps.chromecast.app=3D:7A",
            ],
            ["run", "--target", "reference", "--ca-file", "ca.pem"], ["run", "--target", "reference", "--resolve", "a.example:443:127.0.0.1"],
        ])
    func usageErrors(_ arguments: [String]) {
        let result = run(arguments)
        #expect(result.status == 2, "\(result.err)")
        #expect(result.err.contains("error:"))
    }

    @Test("A missing handler executable is a clear exit 2")
    func missingExecutable() {
        let result = run(["run", "--link", "https://app.example/flip", "--client-id", "c"] + paths + ["--", "./no-such-handler"])
        #expect(result.status == 2)
        #expect(result.err.contains("cannot find the handler executable './no-such-handler'"))
    }

    @Test("A malformed case file is an exit 2 with file:line:column, the line and a caret")
    func malformedCaseFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bad.case").path
        try "id: a/b\ntitle: t\nprofile: app-link\nscenario: consent\nlink: base\nrequirement: AF-LINK-005 MUST NOT\nexpct:\n  action: decline\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let result = run(["lint", file, "--catalog", PackageRoot.catalog])
        #expect(result.status == 2)
        #expect(result.err.contains("\(file):7:1: error: unknown key 'expct' in a case (did you mean 'expect'?)\n    expct:\n    ^"))
        let runResult = run(["run", "--target", "reference", "--cases", file, "--catalog", PackageRoot.catalog])
        #expect(runResult.status == 2)
    }

    @Test("lint reports the project's cases clean")
    func lintProject() {
        let result = run(["lint", PackageRoot.cases, "--catalog", PackageRoot.catalog])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("no problems"))
    }

    @Test("list honours --filter by ID prefix, glob and requirement")
    func list() {
        let byPrefix = run(["list", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--filter", "app-link/baseline"])
        #expect(byPrefix.out.split(separator: "\n").count == 2)
        let byGlob = run(["list", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--filter", "app-link/redirect-uri/allowed/*"])
        #expect(byGlob.out.split(separator: "\n").count == 12)
        let byRequirement = run(["list", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--filter", "AF-LINK-014"])
        #expect(byRequirement.out.split(separator: "\n").count == 2)
    }

    @Test("list --profile keeps one profile; without --filter it then names each requirement no case judges, and why; --programs lists the programs")
    func listUnjudged() throws {
        let android = run(["list", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--profile", "android-app-flip"])
        #expect(android.status == 0, "\(android.err)")
        let lines = android.out.split(separator: "\n").map(String.init)
        let cases = lines.filter { !$0.hasPrefix("#") }
        #expect(!cases.isEmpty && cases.allSatisfy { $0.hasPrefix("android-app-flip/") }, "\(cases.prefix(3))")
        let unjudged = lines.filter { $0.hasPrefix("# ") }
        #expect(
            unjudged.map { String($0.dropFirst(2).prefix { $0 != " " }) } == [
                "AF-ANDR-016", "AF-ANDR-017", "AF-ANDR-018", "AF-ANDR-019", "AF-ANDR-020",
            ],
            "\(unjudged)")
        #expect(unjudged[0].contains("(MUST, android-app-flip) (Android) The App Flip activity is exported — not observable: The manifest is read"))
        let all = run(["list", PackageRoot.cases, "--catalog", PackageRoot.catalog])
        #expect(all.out.contains("\n# AF-LINK-021 (MUST, app-link) The consent screen says the account is being linked to Google — not observable: "))
        #expect(run(["list", "--profile", "androids"]).status == 2)
        let programs = run(["list", "--programs", "--catalog", PackageRoot.catalog])
        #expect(programs.status == 0)
        #expect(
            programs.out.contains("app-flip-android: App Flip for Android — 145 cases of android-app-flip, authorize, token\n"), "\(programs.out)")
        #expect(
            programs.out.contains(
                "  to attest: TOK-GEN-006 (MUST), AF-ANDR-016 (MUST), AF-ANDR-017 (MUST), AF-ANDR-018 (MUST), AF-ANDR-019 (SHOULD), AF-ANDR-020 (MUST)"
            ))
        // What a certification of each needs, before a run: the adapter, then the configuration keys.
        #expect(
            programs.out.contains(
                "\n  needs: an adapter for the Android handler, endpoints.authorize, endpoints.token, endpoints.revoke, endpoints.api, https, "),
            "\(programs.out)")
        #expect(programs.out.contains("\n  needs: an adapter for the native client\n"), "\(programs.out)")
        #expect(run(["list", "--programs", "--profile", "token"]).status == 2)
    }

    @Test("Two runs with the same inputs and seed write byte-identical reports when --reproducible is given")
    func deterministicReports() throws {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("repro-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: reports) }
        var outputs: [[String]] = []
        for _ in 0..<2 {
            // The answers must be the same too: the reference mints random codes, this fixture one derived from the link.
            let result = run(
                [
                    "run", "--reproducible", "--seed", "99", "--jobs", "2", "--reports", reports, "--mode", "persistent",
                    "--link", "https://app.example/flip", "--client-id", "google-client",
                ] + paths
                    + ["--", BuiltProducts.path("broken-handler"), "--defect", "link-derived-code"])
            #expect(result.status == 0, "\(result.err)")
            outputs.append(try ["junit.xml", "report.md"].map { try String(contentsOfFile: reports + "/" + $0, encoding: .utf8) })
        }
        for (first, second) in zip(outputs[0], outputs[1]) where first != second {
            let difference = zip(first.split(separator: "\n"), second.split(separator: "\n")).first { $0.0 != $0.1 }
            Issue.record("reports differ: \(String(describing: difference))")
        }
        #expect(outputs[0].first?.contains("timestamp=") == false)
        // Two processes: each draws its own redaction key, so --reproducible shows placeholders without a fingerprint.
        var processes: [String] = []
        let directory = reports + "-processes"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for _ in 0..<2 {
            let (status, output) = try ProgramRun.run(
                BuiltProducts.path("appflip-conformance"),
                [
                    "run", "--reproducible", "--seed", "99", "--jobs", "2", "--reports", directory, "--mode", "persistent", "--link",
                    "https://app.example/flip",
                    "--client-id", "google-client",
                ] + paths + ["--", BuiltProducts.path("broken-handler"), "--defect", "link-derived-code"])
            #expect(status == 0, "\(output)")
            processes.append(try String(contentsOfFile: directory + "/results.json", encoding: .utf8))
        }
        #expect(processes[0] == processes[1], "two processes' reproducible reports differ")
        #expect(processes[0].contains("‹redacted›") && !processes[0].contains("‹redacted hmac:"))
    }

    @Test("--samples sets how many values the sampling checks judge, and the reports say so")
    func samples() throws {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("reports-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: reports) }
        let result = run(
            [
                "run", "--profile", "native-client", "--client-id", "native-app", "--native-client", BuiltProducts.path("broken-native-client"),
                "--native-client-arg", "--defect", "--native-client-arg", "time-state", "--filter", "native-client/state/fresh-and-random",
                "--samples", "7", "--reports", reports,
            ] + paths)
        #expect(result.status == 0, "\(result.err)")
        let markdown = try String(contentsOfFile: reports + "/report.md", encoding: .utf8)
        let junit = try String(contentsOfFile: reports + "/junit.xml", encoding: .utf8)
        #expect(markdown.contains("| Samples | 7 per sampling check (--samples) |"))
        // The clock-derived state warns, and its finding shows the sample the run took.
        #expect(markdown.contains("(7 samples, shortest 45 characters)"), "\(markdown)")
        #expect(junit.contains("<property name=\"samples\" value=\"7\"/>"))
        #expect(markdown.contains("--samples 7"))
    }

    @Test("A certification whose configuration lacks what its programs need is refused before any connection, each key named")
    func certificationNeeds() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("certification-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A server that records every connection: a refused certification must not have touched it.
        let reference = ReferenceServer(configuration: ReferenceServerConfiguration(clientSecret: "s"))
        let connections = Locked(0)
        let counting: HTTPServer.Handler = { request in
            connections.withLock { $0 += 1 }
            return reference.handler(request)
        }
        let listener = try HTTPServer(handler: counting)
        listener.start()
        defer { listener.stop() }
        let base = "http://127.0.0.1:\(listener.port)"
        let configuration =
            "client_id: google-client\nproject_id: reference-project\nlink: https://app.example/flip\nendpoints:\n"
            + "  authorize: \(base)/oauth/authorize\n  token: \(base)/oauth/token\nscenarios:\n  consent:\n    Cookie: reference-user=approver\n"
            + "  deny:\n    Cookie: reference-user=refuser\n"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try configuration.write(toFile: directory + "/target.conf", atomically: true, encoding: .utf8)
        let started = Date()
        let result = run([
            "run", "--config", directory + "/target.conf", "--certification", "app-flip-ios", "--reports", directory + "/reports",
            "--", BuiltProducts.path("appflip-conformance"), "reference-handler",
        ])
        #expect(result.status == 2, "\(result.out)\n\(result.err)")
        #expect(Date().timeIntervalSince(started) < 5, "the needs are checked from the configuration alone")
        // One usage error naming every missing key, with what to write; what is configured is not named.
        for key in [
            "endpoints.revoke", "endpoints.api", "endpoints.site_association", "https", "sign_in.consent", "sign_in.deny", "second-user",
            "client_secret_env", "app_id", "second_client_id", "code_lifetime", "token_lifetime", "narrowed_scope", "throttling_probe",
        ] {
            #expect(result.err.contains("\n  \(key) (app-flip-ios): "), "\(key) is not named:\n\(result.err)")
        }
        for key in ["endpoints.authorize", "endpoints.token", "project_id", "  link", "the link handler"] {
            #expect(!result.err.contains("\n  \(key) ("), "\(key) is named though configured:\n\(result.err)")
        }
        #expect(
            result.err.contains("https (app-flip-ios): https:// for every endpoint")
                && result.err.contains("configured with http://: authorize, token"),
            "\(result.err)")
        #expect(
            result.err.contains("narrowed_scope (app-flip-ios): {request, granted}, a request your server grants in part, or 'none'"), "\(result.err)"
        )
        #expect(connections.withLock { $0 } == 0, "a refused certification connected to the target")
        #expect(!FileManager.default.fileExists(atPath: directory + "/reports/results.json"))
        // Without --certification the same configuration runs what it can (the needs are a certification's).
        let ordinary = run(["run", "--config", directory + "/target.conf", "--profile", "authorize", "--quiet", "--reports", directory + "/plain"])
        #expect(ordinary.status == 0, "\(ordinary.out)\n\(ordinary.err.suffix(800))")
        #expect(connections.withLock { $0 } > 0)
    }

    @Test("A certification takes the suite's own cases and catalog only: --cases or --catalog beside --certification is a usage error")
    func certificationRefusesCustomSuite() {
        for option in ["--cases", "--catalog"] {
            let path = option == "--cases" ? PackageRoot.cases : PackageRoot.catalog
            let result = run(["run", "--target", "reference", "--certification", "app-flip-ios", option, path])
            #expect(
                result.status == 2 && result.err.contains("--certification refuses \(option): a certification judges the suite's own cases"),
                "\(result.err)")
        }
    }

    @Test("The reference over https earns a certification pass of a program: every case judged, exit 0, the program named everywhere")
    func referenceCertification() throws {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("certified-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: reports) }
        // The native-client program is the quickest; CI certifies the reference in every program (.ci/run). The
        // built tool runs it, as the reference native app is that executable.
        func certify(_ extra: [String]) throws -> (status: Int32, out: String) {
            let result = try ProgramRun.run(
                BuiltProducts.path("appflip-conformance"),
                [
                    "run", "--target", "reference", "--certification=native-client",
                    "--quiet", "--seed", "11",
                ] + extra)
            return (result.status, result.output)
        }
        // The suite's part alone: every case passes, exit 0, and the program awaits the attestation no machine can give.
        let awaiting = try certify(["--reports", reports + "/awaiting"])
        #expect(awaiting.status == 0, "\(awaiting.out)")
        #expect(
            awaiting.out.contains("\nPASSED BY THE SUITE, AWAITING ATTESTATION: Native app as an OAuth client (NAT-MIX-001)\n"), "\(awaiting.out)")
        #expect(!awaiting.out.contains("\nCERTIFIED"), "\(awaiting.out)")
        let waiting = try ResultsDocument.load(run: reports + "/awaiting").document
        #expect(waiting.outcome.certification?.map(\.status) == ["awaiting-attestation"] && waiting.outcome.exitCode == 0)
        let awaitingMarkdown = try String(contentsOfFile: reports + "/awaiting/report.md", encoding: .utf8)
        #expect(
            awaitingMarkdown.hasPrefix(
                "# AppFlip Conformance report\n\n**✍️ PASSED BY THE SUITE, AWAITING ATTESTATION: Native app as an OAuth client "
                    + "(NAT-MIX-001)**\n"), "\(awaitingMarkdown.prefix(400))")
        #expect(awaitingMarkdown.contains("| **NAT-MIX-001** ") && awaitingMarkdown.contains("| **not attested** |"))
        let awaitingJUnit = try String(contentsOfFile: reports + "/awaiting/junit.xml", encoding: .utf8)
        #expect(awaitingJUnit.contains("value=\"PASSED BY THE SUITE, AWAITING ATTESTATION: Native app as an OAuth client (NAT-MIX-001)\""))
        let awaitingHTML = try String(contentsOfFile: reports + "/awaiting/report.html", encoding: .utf8)
        #expect(awaitingHTML.contains("PASSED BY THE SUITE, AWAITING ATTESTATION: Native app as an OAuth client (NAT-MIX-001)"))
        // With the attestation given, and only then, passed and attested; never CERTIFIED, which only a reviewer says.
        try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
        try AttestationFixture.write(["NAT-MIX-001"], to: reports + "/attest.txt")
        // Attestations count in a signed bundle only.
        let key = try SigningKeys.write("partner", in: reports).privateKey
        let certified = try certify([
            "--attest", reports + "/attest.txt", "--reports", reports + "/certified", "--bundle", reports + "/bundle.tar", "--sign-key", key,
        ])
        #expect(certified.status == 0, "\(certified.out)")
        #expect(certified.out.contains("\nPASSED BY THE SUITE, ATTESTED BY THE PARTNER: Native app as an OAuth client\n"), "\(certified.out)")
        #expect(!certified.out.contains("CERTIFIED") || certified.out.contains("NOT A CERTIFICATION"), "\(certified.out)")
        let document = try ResultsDocument.load(run: reports + "/certified").document
        #expect(Set(document.cases.map(\.profile)) == ["native-client"])
        #expect(document.cases.allSatisfy { $0.verdict == "pass" }, "\(document.cases.filter { $0.verdict != "pass" }.map(\.id))")
        #expect(document.suite.casesBuiltIn == true && document.suite.catalogBuiltIn == true && document.suite.catalogDigest?.count == 64)
        let program = try #require(document.outcome.certification?.first)
        #expect(
            document.outcome.certification?.count == 1 && program.program == "native-client" && program.status == "attested-by-partner"
                && program.reason == nil && program.title == "Native app as an OAuth client")
        let markdown = try String(contentsOfFile: reports + "/certified/report.md", encoding: .utf8)
        #expect(
            markdown.hasPrefix("# AppFlip Conformance report\n\n**☑️ PASSED BY THE SUITE, ATTESTED BY THE PARTNER: Native app as an OAuth client**\n"),
            "\(markdown.prefix(400))")
        #expect(program.toAttest == ["NAT-MIX-001"], "\(program.toAttest)")
        let junit = try String(contentsOfFile: reports + "/certified/junit.xml", encoding: .utf8)
        #expect(
            junit.contains(
                "<property name=\"certification.native-client\" value=\"PASSED BY THE SUITE, ATTESTED BY THE PARTNER: Native app as an OAuth client\"/>"
            ))
        let verify = run(["verify", reports + "/bundle.tar"])
        #expect(
            verify.status == 0
                && verify.out.contains("\ncertification run: PASSED BY THE SUITE, ATTESTED BY THE PARTNER: Native app as an OAuth client\n"),
            "\(verify.out)")
        #expect(
            verify.out.contains("\ncatalog: sha256 \(document.suite.catalogDigest ?? "-") — the catalog built into this binary\n"), "\(verify.out)")
        // The re-run a certification bundle offers is the reviewer's command: no recorded option is in it.
        let rerun = try #require(verify.out.split(separator: "\n").first { $0.hasPrefix("re-run: ") })
        #expect(!rerun.contains("--cases") && !rerun.contains("--certification") && rerun.contains(" --rerun TARGET-OPTIONS"), "\(rerun)")
    }

    @Test("A CI log read from its end names the root causes: the console's last lines before the verdict, the most widespread first")
    func rootCausesLast() {
        let result = run(
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link", "--mode", "persistent",
                "--reports", FileManager.default.temporaryDirectory.appendingPathComponent("causes-\(UUID().uuidString)").path,
            ]
                + paths + ["--", BuiltProducts.path("broken-handler"), "--defect", "fixed-code"])
        #expect(result.status == 1)
        let lines = result.out.split(separator: "\n").map(String.init)
        let verdict = lines.firstIndex { $0.contains(" cases: ") && $0.contains("NOT conformant") }
        let cause = lines.firstIndex { $0.hasPrefix("ROOT CAUSE 1 of ") }
        #expect(cause != nil && verdict != nil && (cause ?? 0) < (verdict ?? 0), "\(result.out.suffix(1500))")
        #expect(lines.contains { $0.hasPrefix("ROOT CAUSE 1 of ") && $0.contains("AF-LINK-012") }, "\(result.out.suffix(1500))")
        // A passing run has none.
        #expect(
            !run(
                [
                    "run", "--target", "reference", "--profile", "site-association", "--reports",
                    FileManager.default.temporaryDirectory.appendingPathComponent("nocause-\(UUID().uuidString)").path,
                ] + paths
            ).out.contains("ROOT CAUSE"))
    }

    @Test("The commands with help are known without building their help (run's reads the catalog; an adapter start must not)")
    func topicNames() {
        #expect(Usage.topicNames == Set(Usage.topics.keys))
    }

    @Test(
        "A certification's shards certify nothing alone; merged, the program's outcome is derived from all their cases, into a bundle that verifies")
    func certificationShards() throws {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("cert-shards-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: reports) }
        try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
        let attest = try AttestationFixture.write(["NAT-MIX-001"], to: reports + "/attest.txt")
        for shard in 1...2 {
            let (status, output) = try ProgramRun.run(
                BuiltProducts.path("appflip-conformance"),
                [
                    "run", "--target", "reference", "--certification", "native-client", "--seed", "5", "--shard", "\(shard)/2", "--quiet",
                    "--attest", attest, "--reports", reports + "/shard-\(shard)",
                ])
            #expect(status == 0, "\(output)")
            #expect(
                output.contains("NO CERTIFICATION VERDICT YET: Native app as an OAuth client (shard \(shard)/2 of a certification run"), "\(output)")
            #expect(!output.contains("\nCERTIFIED"), "\(output)")
        }
        let shards = [reports + "/shard-1", reports + "/shard-2"]
        // Merged as the run was made: a baseline, other cases or another catalog would certify what the run did not.
        for extra in [["--baseline", attest], ["--cases", PackageRoot.cases], ["--catalog", PackageRoot.catalog]] {
            let refused = run(["merge", "--reports", reports + "/refused"] + extra + shards)
            #expect(
                refused.status == 2 && refused.err.contains("these shards are a certification run's, which takes no \(extra[0])"), "\(refused.err)")
        }
        // The bundle carries the shards' attestation file, which must be given again, and be the same.
        let unattested = run(["merge", "--reports", reports + "/merged", "--bundle", reports + "/merged.tar"] + shards)
        #expect(unattested.status == 2 && unattested.err.contains("give the same file with --attest"), "\(unattested.err)")
        let key = try SigningKeys.write("partner", in: reports).privateKey
        let merged = run(
            ["merge", "--reports", reports + "/merged", "--bundle", reports + "/merged.tar", "--attest", attest, "--sign-key", key] + shards)
        #expect(merged.status == 0, "\(merged.err)")
        #expect(merged.out.contains("\nPASSED BY THE SUITE, ATTESTED BY THE PARTNER: Native app as an OAuth client\n"), "\(merged.out)")
        let document = try ResultsDocument.load(run: reports + "/merged").document
        #expect(document.outcome.certification?.map(\.status) == ["attested-by-partner"] && document.run.certificationPrograms == ["native-client"])
        #expect(document.suite.casesBuiltIn == true && document.suite.catalogBuiltIn == true)
        // What was tested and who ran it survive the merge.
        #expect(document.run.adapters?.contains { $0.role == "native client" && $0.sha256?.count == 64 } == true, "\(document.run.adapters ?? [])")
        #expect(document.run.host?.isEmpty == false)
        // The merged bundle is the evidence one run would give: verify accepts it, and re-runs all of it, no shard.
        let verify = run(["verify", reports + "/merged.tar"])
        #expect(
            verify.status == 0
                && verify.out.contains("\ncertification run: PASSED BY THE SUITE, ATTESTED BY THE PARTNER: Native app as an OAuth client\n"),
            "\(verify.out)")
        // (The built binary, whose reference adapters are itself; in this process they would be the test runner.)
        let rerun = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"), ["verify", reports + "/merged.tar", "--rerun", "--target", "reference"])
        let count = document.cases.count
        #expect(rerun.status == 0 && rerun.output.contains("re-run result: reproduced \(count) of \(count)\nverified"), "\(rerun.output)")
        // One shard merged alone is refused: a verdict over part of the cases would certify what was not judged.
        let alone = run(["merge", "--reports", reports + "/alone", reports + "/shard-1"])
        #expect(alone.status == 2 && alone.err.contains("shard 2/2 missing"), "\(alone.out)\n\(alone.err)")
    }

    @Test("A certification case's one-case command runs, whichever way --certification was spelled: no program left behind, no --filter beside it")
    func oneCaseCommandOfEverySpelling() {
        let spellings: [[String]] = [
            ["--certification"], ["--certification", "app-flip-ios"], ["--certification=app-flip-ios,native-client"],
            ["--certification", "app-flip-ios", "--certification", "native-client"],
            ["--certification", "app-flip-ios", "--certification=native-client"],
            ["--certification=app-flip-ios", "--certification"],
        ]
        for spelling in spellings {
            let arguments = ["--target", "reference"] + spelling + ["--seed", "7", "--quiet", "--", "./handler", "--certification", "x"]
            let narrowed = CommandLineText.narrowed(arguments, toCase: "site-association/file")
            let own = Array(narrowed.prefix { $0 != "--" })
            #expect(Command.check(["run"] + narrowed) == nil, "\(spelling): \(narrowed)")
            #expect(
                !own.contains { $0.hasPrefix("--certification") || $0.hasPrefix("app-flip") || $0.hasPrefix("native-client") }
                    && own.filter { $0 == "--filter" }.count == 1, "\(spelling): \(narrowed)")
            // The handler's own arguments are its own.
            #expect(Array(narrowed.suffix(3)) == ["./handler", "--certification", "x"], "\(narrowed)")
        }
        // And one such command run as written: it judges the one case, exit 0.
        let narrowed = CommandLineText.narrowed(
            [
                "run", "--target", "reference", "--certification", "app-flip-ios", "--certification=native-client",
                "--seed", "7", "--quiet",
            ], toCase: "site-association/file")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("one-case-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = run(CommandLineText.removing("--reports", from: narrowed) + ["--reports", directory])
        #expect(result.status == 0 && result.out.contains("1 cases: 1 pass"), "\(result.out)\n\(result.err)")
    }

    @Test("A failure's console lines carry the adapter's standard error, so a CI log says why; who ran a certification is recorded or said not to be")
    func adapterLogAndOperator() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // An adapter that staging refuses: it says why on its standard error and declines.
        let script =
            "read line; id=$(printf '%s' \"$line\" | sed 's/.*\"id\": *\"\\([^\"]*\\)\".*/\\1/'); "
            + "echo 'staging refused the test user: HTTP 403 from /oauth/app-flip-code' >&2; printf '{\"id\": \"%s\", \"action\": \"decline\"}\\n' \"$id\""
        let result = run([
            "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--filter", "app-link/baseline/valid-link",
            "--reports", directory + "/reports", "--", "/bin/sh", "-c", script,
        ])
        #expect(result.status == 1, "\(result.out)\n\(result.err)")
        let lines = (result.out + "\n" + result.err).split(separator: "\n").map(String.init)
        let failure = try #require(lines.firstIndex { $0.hasPrefix("FAIL app-link/baseline/valid-link") }, "\(result.out)\n\(result.err)")
        let after = lines[failure...].prefix(8).joined(separator: "\n")
        #expect(after.contains("\n  adapter's stderr:\n    staging refused the test user: HTTP 403 from /oauth/app-flip-code"), "\(after)")
        // Nobody named: no --operator, no CI job, no user. The certification warns, and the report says so.
        var environment = ProcessInfo.processInfo.environment.filter {
            ![
                "USER", "LOGNAME", "GITHUB_ACTIONS", "CI_JOB_URL", "JENKINS_URL",
                "CIRCLE_BUILD_URL", "BUILDKITE_BUILD_URL",
            ].contains($0.key)
        }
        environment["HOME"] = directory
        let anonymous = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--target", "reference", "--certification", "native-client", "--quiet", "--reports", directory + "/anonymous",
            ], environment: environment)
        #expect(
            anonymous.output.contains("warning: who ran this certification is not recorded (no --operator, no CI job's variables, no $USER)"),
            "\(anonymous.output)")
        let markdown = try String(contentsOfFile: directory + "/anonymous/report.md", encoding: .utf8)
        #expect(markdown.contains("| Run by | not recorded (no --operator, no CI job's variables, no $USER) |"))
        let named = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--target", "reference", "--certification", "native-client", "--quiet", "--operator", "Jane", "--reports",
                directory + "/named",
            ],
            environment: environment)
        #expect(!named.output.contains("warning: who ran"), "\(named.output)")
    }

    @Test("--target reference takes no --handler-env: its adapters need nothing from the environment")
    func referenceHandlerEnvironment() {
        let result = run(["run", "--target", "reference", "--handler-env", "HOME"] + paths)
        #expect(result.status == 2 && result.err.contains("--target reference takes no --handler-env"), "\(result.err)")
    }

    @Test("--certification names programs; --profile beside it, or a program the catalog does not declare, is a usage error that lists them")
    func certificationPrograms() {
        let narrowed = run(["run", "--target", "reference", "--certification", "--profile", "app-link"])
        #expect(narrowed.status == 2)
        #expect(
            narrowed.err.contains("--certification refuses --profile") && narrowed.err.contains("app-flip-ios, app-flip-android, native-client"),
            "\(narrowed.err)")
        let unknown = run(["run", "--target", "reference", "--certification", "app-flip-ios,ios"])
        #expect(unknown.status == 2)
        #expect(
            unknown.err.contains("--certification takes a program, one of app-flip-ios, app-flip-android, native-client, not 'ios'"), "\(unknown.err)"
        )
        #expect(unknown.err.contains("  app-flip-android: App Flip for Android (android-app-flip, authorize, token)"), "\(unknown.err)")
        #expect(Command.check(["run", "--certification", "app-flip-ios", "--certification=native-client", "--target", "reference"]) == nil)
        #expect(run(["help", "run"]).out.contains("--certification [PROGRAM]"))
    }

    @Test("A baseline accepts listed failures (exit 0, shown as known), fails the run when an entry is stale, and a certification run refuses it")
    func baseline() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let failing = ["AF-LINK-002", "AF-LINK-006", "AF-LINK-010", "AF-LINK-014", "AF-LINK-015", "AF-LINK-016"]
        func write(_ ids: [String]) throws -> String {
            let path = directory + "/baseline-\(ids.count).txt"
            let entries = ids.map { "  - requirement: \($0)\n    reason: the state is dropped; fixed in 2.4\n    expires: 2099-12-31\n" }
            try ("known_failures:\n" + entries.joined()).write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let command = ["run", "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link"] + paths
        let handler = ["--", BuiltProducts.path("broken-handler"), "--defect", "drops-state"]
        let accepted = run(command + ["--baseline", try write(failing), "--reports", directory + "/accepted"] + handler)
        #expect(accepted.status == 0, "\(accepted.out)\n\(accepted.err.suffix(2000))")
        #expect(accepted.out.contains("0 fail") && accepted.out.contains("known (baseline)"), "\(accepted.out)")
        #expect(accepted.err.contains("KNOWN FAIL app-link/"))
        let markdown = try String(contentsOfFile: directory + "/accepted/report.md", encoding: .utf8)
        #expect(markdown.contains("## Known failures (baseline)") && markdown.contains("**Accepted by the baseline:**"))
        // The headline says the run passes only because of the baseline, never that every MUST held.
        #expect(
            markdown.contains("**Verdict: ✅ CONFORMANT for `app-link` with 64 accepted known failures** (baseline `\(directory)/baseline-6.txt`)"),
            "\(markdown.prefix(600))")
        #expect(!markdown.contains("every MUST held"))
        // The profile table counts the accepted failures apart: none under fail.
        #expect(markdown.contains("| `app-link` | ⚠️ warn | 130 | 59 | 0 | 7 | 0 | 0 | 0 | 64 | yes |"), "\(markdown.prefix(900))")
        let junit = try String(contentsOfFile: directory + "/accepted/junit.xml", encoding: .utf8)
        #expect(junit.contains("<skipped message=\"known failure, accepted by the baseline: requirement AF-LINK-010"))

        // An entry for a requirement that holds: the baseline is stale and the run fails, saying which entry.
        let stale = run(command + ["--baseline", try write(failing + ["AF-LINK-005"]), "--reports", directory + "/stale"] + handler)
        #expect(stale.status == 1)
        #expect(
            stale.err.contains("BASELINE: baseline entry for requirement AF-LINK-005 lists a failure that no longer happens"),
            "\(stale.err.suffix(1500))")
        let json = try ResultsDocument.parse(Data(contentsOf: URL(fileURLWithPath: directory + "/stale/results.json")))
        #expect(json.outcome.baseline?.problems.count == 1 && json.outcome.verdict == "fail")
        let schema = try JSONSchema(contentsOf: PackageRoot.url.appendingPathComponent("Conformance/results.schema.json").path)
        for name in ["accepted", "stale"] {
            let problems = schema.validate(try Data(contentsOf: URL(fileURLWithPath: directory + "/\(name)/results.json")))
            #expect(problems.isEmpty, "\(name): \(problems.prefix(3))")
        }

        let certification = run(command + ["--certification", "--baseline", try write(failing)] + handler)
        #expect(certification.status == 2)
        #expect(certification.err.contains("--certification refuses --baseline"))
    }

    @Test("Every run records which build ran where (the executable's SHA-256, platform, toolchain), the target whole, and its label")
    func identity() throws {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: reports) }
        let executable = BuiltProducts.path("appflip-conformance")
        let (status, output) = try ProgramRun.run(
            executable,
            [
                "run", "--target", "reference", "--profile", "app-link", "--quiet", "--reports", reports,
                "--target-label", "staging build 1.2.3 (4711)",
            ] + paths)
        #expect(status == 0, "\(output)")
        let document = try ResultsDocument.load(run: reports).document
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: executable)))
        #expect(document.run.executableSha256 == SHA256.hexDigest(bytes))
        #expect(document.run.platform?.isEmpty == false && document.run.toolchain?.hasPrefix("Swift 6") == true, "\(document.run)")
        #expect(document.run.targetLabel == "staging build 1.2.3 (4711)")
        let report = try String(contentsOfFile: reports + "/report.md", encoding: .utf8)
        let junit = try String(contentsOfFile: reports + "/junit.xml", encoding: .utf8)
        #expect(document.run.target.count > 400, "a target long enough to have been cut before")
        #expect(report.contains(MarkdownText.inline(document.run.target, limit: .max)), "the provenance shows the target whole")
        #expect(report.contains("| Target label | staging build 1.2.3 (4711) |") && junit.contains("name=\"target.label\""))
        #expect(junit.contains("name=\"suite.executable.sha256\" value=\"\(SHA256.hexDigest(bytes))\""))
        // The commit it was built from, as git itself reads the checkout (none when this is not one).
        let git = try ProgramRun.run("/usr/bin/env", ["git", "-C", PackageRoot.url.path, "rev-parse", "HEAD"])
        let commit = git.status == 0 ? git.output.trimmingCharacters(in: .whitespacesAndNewlines) : nil
        #expect(document.run.sourceCommit == commit)
        if let commit {
            #expect(report.contains("| Built from | commit `\(commit)` |") && junit.contains("name=\"suite.source.commit\" value=\"\(commit)\""))
        }
    }

    @Test("A run against a handler writes both reports, and a filter that matches nothing is exit 2")
    func runWritesReports() throws {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("reports-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: reports) }
        let result = run(
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--reports", reports,
                "--filter", "app-link/scenario",
            ] + paths + ["--", BuiltProducts.path("appflip-reference")])
        #expect(result.status == 0, "\(result.err)")
        #expect(FileManager.default.fileExists(atPath: reports + "/junit.xml"))
        #expect(FileManager.default.fileExists(atPath: reports + "/report.md"))
        let none = run(["run", "--target", "reference", "--filter", "nothing/matches"] + paths)
        #expect(none.status == 2)
    }
}

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT during a run: children are stopped, the reports are written and marked
/// incomplete, exit 130; a second signal stops at once.
@Suite("Interruption", .serialized)
struct InterruptionTests {
    @Test("An interrupted run stops its handlers, writes incomplete reports and exits 130", arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
    func interrupted(_ signal: Int32) throws {
        let marker = "interrupt-\(UUID().uuidString)"
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent(marker).path
        defer { try? FileManager.default.removeItem(atPath: reports) }
        let process = try Self.hangingRun(marker: marker, reports: reports, errors: FileHandle.nullDevice)
        // The signal goes once a hanging handler runs (the run's signal handling is in place by then), however long a
        // loaded machine takes to get there.
        #expect(Waiting.until { Self.handlerRunning(marker) }, "the hanging handlers should be running before the signal")
        let sent = Date()
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        // The handler would hang for the case's 60 s timeout: half of it shows the run did not wait for it.
        #expect(Date().timeIntervalSince(sent) < 30)
        #expect(process.terminationStatus == 130)
        #expect(Self.processes(containing: marker) == 0, "a handler outlived the run")
        let markdown = try String(contentsOfFile: reports + "/report.md", encoding: .utf8)
        #expect(markdown.contains("This run is incomplete"))
        // The first line says INCOMPLETE, never a verdict on what the run did not reach.
        let selected = try SuiteRun.load().1.cases.filter { $0.profile == .appLink }.count
        #expect(
            markdown.contains("**Verdict: ⏸️ INCOMPLETE** — the run was interrupted: ") && markdown.contains(" of \(selected) selected"),
            "\(markdown.prefix(600))")
        #expect(!markdown.contains("CONFORMANT"))
        let junit = try String(contentsOfFile: reports + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("<error type=\"interrupted\""))
    }

    @Test("Nothing is printed before it is final: each case once on the console, its verdict the summary's, even when a late extra answer changes it")
    func consoleCountsAgree() throws {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("counts-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: reports) }
        let (_, text) = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link", "--mode", "persistent",
                "--jobs", "2", "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--reports", reports,
                // Answers that only warn (no universal_links_only), each followed by a stray line: the stray line is found
                // with the next request and turns the warned case into an error, which is the one verdict printed.
                "--", "/bin/sh", "-c", #""$0" --defect no-universal-links | while IFS= read -r l; do printf '%s\nstray\n' "$l"; done"#,
                BuiltProducts.path("broken-handler"),
            ])
        var last: [String: String] = [:]
        var printed: [String: Int] = [:]
        var repeatedErrors = 0
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count >= 2, ["FAIL", "ERROR", "WARN", "INFO", "SKIP"].contains(String(words[0])) else { continue }
            // "ERROR 126 more cases with the same error: …": the same target error, said once and then counted.
            if words[0] == "ERROR", let more = Int(words[1]) {
                repeatedErrors += more
                continue
            }
            last[String(words[1])] = words[0].lowercased()
            printed[String(words[1]), default: 0] += 1
        }
        // Nothing is printed before it is final: each case once, with the verdict the reports give it.
        #expect(printed.values.allSatisfy { $0 == 1 }, "printed more than once: \(printed.filter { $0.value > 1 }.keys.sorted())")
        #expect(!text.contains("revised"), "\(text.suffix(2000))")
        #expect(last.values.contains("error"), "the stray lines made some cases errors: \(text.suffix(2000))")
        let summary = try #require(text.split(separator: "\n").first { $0.contains(" cases: ") })
        for verdict in ["fail", "error", "warn"] {
            let shown = last.values.filter { $0 == verdict }.count + (verdict == "error" ? repeatedErrors : 0)
            #expect(summary.contains(" \(shown) \(verdict)"), "console shows \(shown) \(verdict); summary: \(summary)")
        }
    }

    @Test("Under heavy load (64 persistent handlers starting at once) a correct handler never times out")
    func heavyLoad() throws {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("load-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: reports) }
        let (status, text) = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--target", "reference", "--profile", "app-link", "--mode", "persistent", "--jobs", "64",
                "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--reports", reports,
            ])
        #expect(status == 0, "\(text.suffix(3000))")
        #expect(text.contains(" 0 fail, 0 error"), "\(text.suffix(3000))")
        let report = try String(contentsOfFile: reports + "/report.md", encoding: .utf8)
        #expect(report.contains("| Handler start-up | persistent: each worker's first handler has 10 s to start"), "\(report.suffix(1500))")
        #expect(report.contains("| Handler start-up times | "), "\(report.suffix(1500))")
    }

    @Test("Out of file descriptors is the suite's error (exit 7), never charged to the handler")
    func outOfDescriptors() throws {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("fds-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: reports) }
        let (status, text) = try ProgramRun.run(
            "/bin/sh",
            [
                "-c", "ulimit -n 24; exec \"$@\"", "sh", BuiltProducts.path("appflip-conformance"), "run",
                "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link", "--jobs", "8",
                "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--reports", reports, "--", BuiltProducts.path("appflip-reference"),
            ])
        #expect(status == 7, "\(text)")
        // The pipes for the streams or the one that reports a failed exec: either way the suite's descriptors.
        #expect(text.contains("suite error, not the target's: the suite cannot"), "\(text)")
        #expect(!text.contains("target error"), "\(text)")
        let report = try String(contentsOfFile: reports + "/report.md", encoding: .utf8)
        #expect(report.contains("**Verdict: 🛠️ SUITE ERROR**") && !report.contains("target error"), "\(report.prefix(600))")
    }

    /// The exchanges' timeout is 60 s: an end well within it shows they were aborted, whatever the machine's load.
    @Test("An HTTP exchange in flight is aborted at once by SIGINT, not after its timeout", arguments: ["http", "https"])
    func httpInFlight(_ scheme: String) throws {
        let stalling = try RecordingServer { _ in .stall(seconds: 60) }
        defer { stalling.stop() }
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("stall-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: reports) }
        let configuration =
            "client_id: google-client\nproject_id: p\nlink: https://app.example/flip\nendpoints:\n"
            + "  authorize: \(scheme)://127.0.0.1:\(stalling.port)/oauth/authorize\nscenarios:\n  consent:\n    Cookie: s=1\n"
        try configuration.write(toFile: reports + "/target.conf", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("appflip-conformance"))
        process.arguments = [
            "run", "--config", reports + "/target.conf", "--profile", "authorize", "--timeout", "60",
            "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--reports", reports,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The signal goes once an exchange is in flight: the preflight's connection and a case's.
        #expect(Waiting.until { stalling.connectionCount >= 2 }, "no exchange reached the stalling server")
        let sent = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        // The exchanges' timeout is 60 s: ending in half of it shows they were aborted, not waited out. A bound this
        // wide catches a hang and nothing a loaded machine does (the reports are written after the signal too).
        #expect(Date().timeIntervalSince(sent) < 30, "the run waited for its exchanges' timeouts")
        #expect(process.terminationStatus == 130)
        #expect(FileManager.default.fileExists(atPath: reports + "/report.md"))
    }

    @Test("A second signal stops at once with 130, and no handler outlives it")
    func secondSignal() throws {
        let marker = "twice-\(UUID().uuidString)"
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent(marker).path
        defer { try? FileManager.default.removeItem(atPath: reports) }
        let errors = Pipe()
        let process = try Self.hangingRun(marker: marker, reports: reports, errors: errors)
        #expect(Waiting.until { Self.handlerRunning(marker) }, "the hanging handlers should be running before the signals")
        kill(process.processIdentifier, SIGINT)
        kill(process.processIdentifier, SIGINT)
        let sent = Date()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // Against the handler's 60 s hang: a bound only a run that waited for it reaches.
        #expect(Date().timeIntervalSince(sent) < 30)
        #expect(process.terminationStatus == 130, "\(text)")
        #expect(text.contains("interrupted by SIGINT"), "\(text)")
        #expect(Self.processes(containing: marker) == 0, "a handler outlived the run")
    }

    @Test(
        "A run whose output pipe is closed (piped into head) is not killed by SIGPIPE: it finishes and writes its reports",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/env")))
    func closedOutput() throws {
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("pipe-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: reports) }
        // A partner's HTTP-only run: no handler process and no server of the suite's own, so nothing else ignores
        // SIGPIPE on the run's behalf.
        let server = try HTTPServer(handler: ReferenceServer(configuration: ReferenceServerConfiguration(clientSecret: "s")).handler)
        server.start()
        defer { server.stop() }
        try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
        let configuration =
            "client_id: google-client\nproject_id: reference-project\nlink: https://app.example/flip\nendpoints:\n"
            + "  authorize: http://127.0.0.1:\(server.port)/oauth/authorize\nscenarios:\n  consent:\n    Cookie: reference-user=approver\n"
        try configuration.write(toFile: reports + "/target.conf", atomically: true, encoding: .utf8)
        let process = Process()
        // SIGPIPE back to its default in the child: this test process ignores it, and children inherit that.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "--default-signal=PIPE", BuiltProducts.path("appflip-conformance"), "run", "--config", reports + "/target.conf", "--profile", "authorize",
            "--filter", "authorize/success*",
            "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--reports", reports,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try output.fileHandleForReading.close()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "status \(process.terminationStatus)")
        #expect(FileManager.default.fileExists(atPath: reports + "/report.md"))
    }

    /// A run of the app-link cases against handlers that hang, each tagged with `marker` on its command line.
    static func hangingRun(marker: String, reports: String, errors: Any) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("appflip-conformance"))
        process.arguments = [
            "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--timeout", "60",
            "--profile", "app-link", "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--reports", reports,
            "--", BuiltProducts.path("broken-handler"), "--defect", "hang", "--client-id", marker,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        return process
    }

    /// Whether a handler of `hangingRun(marker:…)` runs: a process whose command line is the broken handler's with the
    /// marker. Not merely a second process with the marker: the run's own command line holds it too (after `--`), and
    /// so does a child the run has forked but not yet turned into the handler (exec), which a signal would then reach
    /// before the handler runs at all.
    static func handlerRunning(_ marker: String) -> Bool {
        processes(containing: marker, startingWith: BuiltProducts.path("broken-handler")) > 0
    }

    /// Processes whose command line contains `marker` (and starts with `start`, when given) (Linux /proc; elsewhere `ps`).
    static func processes(containing marker: String, startingWith start: String = "") -> Int {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc"), !entries.isEmpty else {
            let listing = (try? ProgramRun.run("/bin/ps", ["-axww", "-o", "command="]))?.output ?? ""
            return listing.split(separator: "\n").filter { $0.hasPrefix(start) && $0.contains(marker) }.count
        }
        return entries.filter { entry in
            guard entry.allSatisfy(\.isNumber), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return false }
            let line = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            return line.hasPrefix(start) && line.contains(marker)
        }.count
    }
}

/// Secrets never reach the console or the reports, wherever they appear, including a target's own output.
@Suite("Secrets in output", .serialized)
struct SecretsInOutputTests {
    @Test("A code the handler also writes to its log appears nowhere: console, junit.xml, report.md")
    func codeInHandlerLog() throws {
        let code = "SECRET-CODE-\(UUID().uuidString)"
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("secrets-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: reports) }
        // The handler mints its code at run time (read from a file, so the code is not in its command line), answers
        // with it and logs it to stderr, as careless adapters do.
        let codeFile = reports + "/code.txt"
        try code.write(toFile: codeFile, atomically: true, encoding: .utf8)
        let script =
            #"read -r line; code=$(cat "$1"); id=$(printf '%s' "$line" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p'); "#
            + #"echo "minted code=$code for $id" >&2; echo "raw $code" >&2; "#
            + #"printf '{"id":"%s","action":"open","url":"https://evil.example/cb?code=%s&state=x"}\n' "$id" "$code""#
        let captured = Captured()
        let status = Command.main(
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link",
                "--filter", "app-link/redirect-uri/rejected/suffix-host", "--filter", "app-link/baseline",
                "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog, "--reports", reports,
                "--", "/bin/sh", "-c", script, "handler", codeFile,
            ], console: captured.console)
        #expect(status == 1)
        let outputs = [
            captured.out, captured.err, try String(contentsOfFile: reports + "/junit.xml", encoding: .utf8),
            try String(contentsOfFile: reports + "/report.md", encoding: .utf8),
        ]
        for output in outputs { #expect(!output.contains(code), "the code leaked") }
        #expect(outputs[3].contains("‹redacted"), "the report shows the placeholder instead")
    }
}

@Suite("Bounds on case files")
struct CaseFileBoundsTests {
    @Test("A table that expands past the case limit is refused with a location")
    func hugeTable() throws {
        let rows = String(repeating: "  - k: v\n", count: CaseLoader.maximumCases + 1)
        let text =
            "id: app-link/x/${row.k}\ntitle: t\nprofile: app-link\nscenario: consent\nlink: base\n"
            + "requirement: AF-LINK-005 MUST NOT\nexpect:\n  action: decline\ntable:\n" + rows
        var loader = CaseLoader(catalog: nil)
        let cases = loader.load(bytes: Array(text.utf8), file: "huge.case", group: "g")
        #expect(cases.isEmpty)
        #expect(
            loader.diagnostics.first?.message.contains("the limit is \(CaseLoader.maximumCases)") == true,
            "\(loader.diagnostics.first?.description ?? "no diagnostic")")
        #expect(loader.diagnostics.first?.location.line == 10)
    }
}

@Suite("No shell")
struct NoShellTests {
    @Test("Shell syntax in a case file is sent as text to the handler and never executed")
    func shellSyntaxIsInert() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("noshell-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let canary = directory + "/pwned"
        let text = """
            id: app-link/noshell/${row.k}
            title: Shell syntax stays text
            profile: app-link
            scenario: consent
            link:
              set:
                state: ${row.v}
            requirement: AF-LINK-010 MUST
            expect:
              action: open
              state: echoed
            table:
              - k: substitution
                v: "$(touch \(canary))"
              - k: backticks
                v: "`touch \(canary)`"
              - k: separator
                v: "x; touch \(canary)"
              - k: pipe
                v: "x | touch \(canary)"
            """
        try text.write(toFile: directory + "/noshell.case", atomically: true, encoding: .utf8)
        let captured = Captured()
        // (`--target reference` would start this test binary; the reference executable is the same handler.)
        let status = Command.main(
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link",
                "--cases", directory, "--catalog", PackageRoot.catalog, "--reports", directory + "/reports",
                "--", BuiltProducts.path("appflip-reference"),
            ], console: captured.console)
        #expect(status == 0, "\(captured.err)")
        #expect(!FileManager.default.fileExists(atPath: canary))
    }

    @Test("A configuration error quotes its line with a URL's password and a client_secret value hidden, each diagnostic on a line of its own")
    func configurationErrorRedacted() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(
            """
            client_id: google-client
            link: https://app.example/flip
            endpoints:
              token: https://user:hunter2-password@auth.example/token?client_secret=SUPERSECRET-123
            """.utf8
        ).write(to: URL(fileURLWithPath: directory + "/target.conf"))
        let captured = Captured()
        #expect(Command.main(["run", "--config", directory + "/target.conf", "--profile", "token"], console: captured.console) == 2)
        #expect(!captured.err.contains("hunter2") && !captured.err.contains("SUPERSECRET"), "\(captured.err)")
        #expect(captured.err.contains("token: https://user:‹redacted") && captured.err.contains("client_secret=‹redacted"), "\(captured.err)")
        #expect(captured.err.contains("the target configuration has errors:\n" + directory + "/target.conf:4:10: error:"), "\(captured.err)")
        #expect(!captured.err.contains("\\n"), "a literal \\n: \(captured.err)")
    }
}
