import AppFlipLoading
import AppFlipModel
import AppFlipRunner
import AppFlipSetup
import AppFlipTestSupport
import Foundation
import Testing

/// `--handler-env NAME`: a variable of the suite's environment reaches every adapter a run starts, and its value
/// shows nowhere the run writes.
@Suite("Handler environment", .serialized)
struct HandlerEnvironmentTests {
    private static let secret = "staging-session-7f3c9a1e5b"

    /// An adapter that declines every link and writes the session it was given to its standard error, or answers
    /// garbage when it was given none.
    private func adapter(in directory: String) throws -> String {
        let path = directory + "/adapter.py"
        try """
        import json, os, sys
        session = os.environ.get("STAGING_SESSION")
        for line in sys.stdin:
            request = json.loads(line)
            if session is None:
                print("no session", flush=True)
                continue
            print("signed in with session=" + session, file=sys.stderr, flush=True)
            print(json.dumps({"id": request["id"], "action": "decline"}), flush=True)
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func run(_ extra: [String], reports: String, script: String) throws -> (status: Int32, output: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["STAGING_SESSION"] = Self.secret
        return try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--filter", "app-link/baseline",
                "--mode", "persistent", "--reports", reports, "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog,
            ] + extra + ["--", "python3", script], environment: environment)
    }

    @Test("The variable reaches the adapter (its answers change), and its value is in no report, the console included")
    func passedAndRedacted() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("handler-env-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = try adapter(in: directory)
        let passed = try run(["--handler-env", "STAGING_SESSION"], reports: directory + "/passed", script: script)
        // Declining a valid link is a failure of the link handler: the answers were read, so the session was there.
        #expect(passed.status == 1, "\(passed.output.suffix(2000))")
        #expect(!passed.output.contains(Self.secret))
        var written = ""
        for name in ["report.md", "results.json", "junit.xml"] {
            let text = try String(contentsOfFile: directory + "/passed/" + name, encoding: .utf8)
            #expect(!text.contains(Self.secret), "\(name) shows the session")
            written += text
        }
        #expect(written.contains("signed in with session=‹redacted"), "the adapter's standard error is kept, its secret hidden")
        // Without the flag the adapter has no session: its answers are unusable (exit 3), not the same verdicts.
        let withheld = try run([], reports: directory + "/withheld", script: script)
        #expect(withheld.status == 3, "\(withheld.output.suffix(2000))")
    }

    @Test("An adapter that cannot be used, whose standard error shows the variable, is said once with the value hidden everywhere")
    func unusableAdapterRedacted() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("handler-env-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // It prints the session it was given and exits without answering: the preflight says so with its stderr.
        let script = directory + "/adapter.py"
        try """
        import os, sys
        print("cannot start: session=" + os.environ.get("STAGING_SESSION", "none"), file=sys.stderr, flush=True)
        sys.exit(1)
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let result = try run(["--handler-env", "STAGING_SESSION"], reports: directory + "/reports", script: script)
        #expect(result.status == 3, "\(result.output.suffix(2000))")
        #expect(!result.output.contains(Self.secret), "\(result.output.suffix(2000))")
        #expect(result.output.contains("session=‹redacted"), "the console says why, its secret hidden: \(result.output.suffix(2000))")
        for name in ["report.md", "results.json", "junit.xml"] {
            let text = try String(contentsOfFile: directory + "/reports/" + name, encoding: .utf8)
            #expect(!text.contains(Self.secret), "\(name) shows the session")
        }
        let report = try String(contentsOfFile: directory + "/reports/report.md", encoding: .utf8)
        #expect(report.contains("**Target unreachable:**") && report.contains("session=‹redacted"), "\(report.prefix(3000))")
        // results.json carries the unusable target, so a merge says it as the run did.
        let merged = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "merge", "--reports", directory + "/merged", directory + "/reports", "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog,
            ])
        #expect(merged.status == 3, "\(merged.output.suffix(2000))")
        let mergedReport = try String(contentsOfFile: directory + "/merged/report.md", encoding: .utf8)
        let line = { (text: String) in text.split(separator: "\n").first { $0.hasPrefix("**Target unreachable:**") } }
        #expect(line(mergedReport) != nil && line(mergedReport) == line(report), "\(mergedReport.prefix(3000))")
        #expect(!mergedReport.contains(Self.secret))
    }

    @Test("A value an adapter prints across two lines, or as a Python bytes literal, is hidden in every report and on the console")
    func splitAndBytesLiteral() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("handler-env-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let secret = "sessión-ß-7f3c9a1e5b'x"
        let script = directory + "/adapter.py"
        try """
        import json, os, sys
        session = os.environ["STAGING_SESSION"]
        for line in sys.stdin:
            request = json.loads(line)
            print(session[:5], file=sys.stderr)
            print(session[5:], file=sys.stderr)
            print(session.encode(), file=sys.stderr, flush=True)
            print(json.dumps({"id": request["id"], "action": "decline"}), flush=True)
        """.write(toFile: script, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["STAGING_SESSION"] = secret
        let result = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--filter", "app-link/baseline",
                "--reports", directory + "/reports", "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog,
                "--handler-env", "STAGING_SESSION", "--", "python3", script,
            ], environment: environment)
        #expect(result.status == 1, "\(result.output.suffix(2000))")
        // The tail of the split value, and the bytes literal's escaped bytes (`\xc3\xb3n-\xc3\x9f-7f3c…`).
        let telltales = ["7f3c9a1e5b", "\\xc3\\xb3n", "n-ß-7f3c"]
        var written = result.output
        for name in ["report.md", "results.json", "junit.xml", "report.html"] {
            written += try String(contentsOfFile: directory + "/reports/" + name, encoding: .utf8)
        }
        for telltale in telltales { #expect(!written.contains(telltale), "\(telltale) shows") }
        let document = try String(contentsOfFile: directory + "/reports/results.json", encoding: .utf8)
        #expect(document.contains("b\\\"‹redacted hmac:"), "the bytes literal is kept, its value hidden: \(document.prefix(3000))")
    }

    @Test("An unset, empty or too short variable, a malformed name, or a run with nothing to pass it to is an error before anything runs")
    func refused() throws {
        let command = ["/bin/cat"]
        var request = TargetSpecification()
        request.handlerCommand = command
        request.link = "https://app.example/flip"
        request.clientID = "google-client"
        let cases: [([String], [String: String], String)] = [
            (["STAGING_SESSION"], [:], "the environment variable STAGING_SESSION is not set"),
            (["STAGING_SESSION"], ["STAGING_SESSION": ""], "the environment variable STAGING_SESSION is not set"),
            (["STAGING_SESSION"], ["STAGING_SESSION": "abcdefg"], "shorter than 8 bytes"),
            // Text the evidence is written in: hiding it would blank it out of every report.
            (
                ["STAGING_SESSION"], ["STAGING_SESSION": "redirect"],
                "its value is text the reports are written in ('oauth-redirect.googleusercontent.com')"
            ),
            (["STAGING_SESSION"], ["STAGING_SESSION": "HTTPS://"], "('https://')"),
            (["STAGING-SESSION"], ["STAGING-SESSION": "long enough"], "letters, digits and '_'"),
            (["APPFLIP_CONFORMANCE_CHILD"], ["APPFLIP_CONFORMANCE_CHILD": "long enough"], "the suite sets that variable itself"),
        ]
        for (names, environment, message) in cases {
            request.handlerEnvironment = names
            #expect(throws: SetupError.self) { _ = try RunSetup.partner(request, environment: environment) }
            do {
                _ = try RunSetup.partner(request, environment: environment)
            } catch {
                #expect(error.message.contains(message), "\(error.message)")
            }
        }
        var url = TargetSpecification()
        url.handlerURL = "http://127.0.0.1:9/handler"
        url.link = "https://app.example/flip"
        url.clientID = "google-client"
        url.handlerEnvironment = ["STAGING_SESSION"]
        do {
            _ = try RunSetup.partner(url, environment: ["STAGING_SESSION": Self.secret])
            Issue.record("a run that starts no adapter took --handler-env")
        } catch {
            #expect(error.message.contains("this run starts none"), "\(error.message)")
        }
    }

    @Test("Every adapter a run starts gets it (link handler, native app, Android activity), and its value is a secret of the run")
    func everyAdapter() throws {
        var request = TargetSpecification()
        request.handlerCommand = ["/bin/cat"]
        request.nativeClient = ("/bin/cat", [])
        request.androidHandler = ("/bin/cat", [])
        request.androidAction = "com.example.APP_FLIP"
        request.androidPackage = "com.example"
        request.link = "https://app.example/flip"
        request.clientID = "google-client"
        request.handlerEnvironment = ["STAGING_SESSION"]
        let setup = try RunSetup.partner(request, environment: ["STAGING_SESSION": Self.secret, "OTHER": "not passed"])
        let entry = "STAGING_SESSION=\(Self.secret)"
        #expect((setup.targets.adapters[.linkHandler] as? SubprocessTarget)?.environment.contains(entry) == true)
        #expect((setup.targets.adapters[.androidActivity] as? SubprocessTarget)?.environment.contains(entry) == true)
        #expect((setup.targets.adapters[.nativeApp] as? NativeClientTarget)?.environment.contains(entry) == true)
        #expect(!((setup.targets.adapters[.linkHandler] as? SubprocessTarget)?.environment.contains { $0.hasPrefix("OTHER=") } ?? true))
        #expect(setup.targets.secrets.contains(Self.secret))
    }

    @Test("handler_env in a configuration reads each variable when the file is read; an unset one is an error at its line")
    func configuration() throws {
        let text = "client_id: google-client\nlink: https://app.example/flip\nhandler_env: [STAGING_SESSION]\n"
        let loaded = try TargetConfigurationLoader.load(bytes: Array(text.utf8), file: "t.conf", environment: ["STAGING_SESSION": Self.secret])
        #expect(loaded.handlerEnvironment.map(\.name) == ["STAGING_SESSION"] && loaded.secrets.contains(Self.secret))
        #expect {
            _ = try TargetConfigurationLoader.load(bytes: Array(text.utf8), file: "t.conf", environment: [:])
        } throws: { error in
            "\(error)".contains("t.conf:3:15: error: the environment variable 'STAGING_SESSION' (passed to every adapter) is not set")
        }
        // The file holds to the flag's rule: not the suite's own variable, not a short or ordinary value.
        let refusals: [(String, [String: String], String)] = [
            ("APPFLIP_CONFORMANCE_CHILD", ["APPFLIP_CONFORMANCE_CHILD": Self.secret], "the suite sets 'APPFLIP_CONFORMANCE_CHILD' itself"),
            ("STAGING_SESSION", ["STAGING_SESSION": "code"], "shorter than 8 bytes"),
            ("STAGING_SESSION", ["STAGING_SESSION": "access_token"], "text the reports are written in"),
        ]
        for (name, environment, message) in refusals {
            let file = "client_id: google-client\nlink: https://app.example/flip\nhandler_env: [\(name)]\n"
            #expect {
                _ = try TargetConfigurationLoader.load(bytes: Array(file.utf8), file: "t.conf", environment: environment)
            } throws: { error in
                "\(error)".contains("t.conf:3:15: error: ") && "\(error)".contains(message)
            }
        }
    }
}
