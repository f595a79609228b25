import AppFlipTestSupport
import Foundation
import Testing

/// `validate-url` from the command line: arguments or standard input, the run's exit codes, reports with no secret.
@Suite("validate-url")
struct ValidateURLTests {
    private func validate(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try ProgramRun.run(BuiltProducts.path("appflip-conformance"), ["validate-url", "--catalog", PackageRoot.catalog] + arguments)
    }

    @Test("A correct request exits 0; a MUST violated exits 1 and names it with the URL's position")
    func exitCodes() throws {
        let good = AuthorizationRequestAuditTests.url()
        let (passed, passText) = try validate([good])
        #expect(passed == 0, "\(passText)")
        // A private-use scheme is noted (info), never a warning or a failure.
        #expect(passText.contains("INFO <argument>:1") && passText.contains("NAT-REDIR-003 SHOULD"), "\(passText)")
        let (failed, failText) = try validate([good, AuthorizationRequestAuditTests.url([("code_challenge_method", "plain")])])
        #expect(failed == 1, "\(failText)")
        #expect(failText.contains("FAIL <argument>:2") && failText.contains("NAT-PKCE-004 MUST"), "\(failText)")
        #expect(failText.contains("2 URLs: 0 pass, 1 info, 0 warn, 0 skip, 1 fail"), "\(failText)")
    }

    @Test("URLs come one per line from standard input, skipping blanks and comments; lines keep their numbers")
    func standardInput() throws {
        let input = "# captured from the app's log\n\n" + AuthorizationRequestAuditTests.url([("redirect_uri", "myapp%3A%2Fcb")]) + "\n"
        let (status, text) = try ProgramRun.run(
            "/bin/sh",
            [
                "-c", "printf '%s' \"$1\" | \"$2\" validate-url --catalog \"$3\"", "sh", input,
                BuiltProducts.path("appflip-conformance"), PackageRoot.catalog,
            ])
        #expect(status == 1, "\(text)")
        #expect(text.contains("FAIL <stdin>:3") && text.contains("NAT-REDIR-001"), "\(text)")
    }

    @Test(
        "Standard input is read to bounds: a URL over 64 KiB is an error that says so, more URLs than --max-urls is a usage error, a finding seen before is not printed again"
    )
    func bounds() throws {
        let program = BuiltProducts.path("appflip-conformance")
        // 1 MB of `y` lines: 500,000 URLs, far past the default 1,000; refused before anything is judged.
        let (flood, floodText) = try ProgramRun.run(
            "/bin/sh",
            [
                "-c", "yes y | head -c 1000000 | \"$1\" validate-url --catalog \"$2\"", "sh",
                program, PackageRoot.catalog,
            ])
        #expect(
            flood == 2 && floodText.contains("more than 1000 URLs; judge them in several runs, or raise the limit with --max-urls N"),
            "\(floodText.prefix(500))")
        #expect(!floodText.contains("FAIL <stdin>"))
        // Raised: judged, and the three findings the first `y` shows are printed once, not once per URL.
        let (raised, raisedText) = try ProgramRun.run(
            "/bin/sh",
            [
                "-c", "yes y | head -c 4000 | \"$1\" validate-url --catalog \"$2\" --max-urls 2000", "sh",
                program, PackageRoot.catalog,
            ])
        #expect(raised == 1, "\(raisedText.suffix(300))")
        #expect(raisedText.contains("2000 URLs: 0 pass, 0 info, 0 warn, 0 skip, 2000 fail"), "\(raisedText.suffix(300))")
        #expect(raisedText.components(separatedBy: "NAT-REQ-001 MUST").count == 2, "printed more than once")
        #expect(raisedText.contains("FAIL <stdin>:2000 y\n  (3 findings as at <stdin>:1)"), "\(raisedText.suffix(300))")
        // One line of 200,000 bytes: not judged, said so; the next URL still is.
        let (status, text) = try ProgramRun.run(
            "/bin/sh",
            [
                "-c", "{ head -c 200000 /dev/zero | tr '\\000' a; printf '\\n%s\\n' \"$1\"; } | \"$2\" validate-url --catalog \"$3\"", "sh",
                AuthorizationRequestAuditTests.url(), program, PackageRoot.catalog,
            ])
        #expect(status == 3, "\(text.suffix(300))")
        #expect(text.contains("ERROR <stdin>:1 (not judged: the URL is longer than 65536 bytes)"), "\(text.prefix(200))")
        #expect(text.contains("INFO <stdin>:2"), "\(text.suffix(600))")
        #expect(text.count < 20_000, "the long URL was printed whole")
    }

    @Test("No URL, or an unknown option, is a usage error (exit 2) with the command's help")
    func usage() throws {
        let (none, noneText) = try ProgramRun.run(
            "/bin/sh",
            [
                "-c", "\"$1\" validate-url --catalog \"$2\" < /dev/null", "sh",
                BuiltProducts.path("appflip-conformance"), PackageRoot.catalog,
            ])
        #expect(none == 2 && noneText.contains("usage: appflip-conformance validate-url"), "\(noneText)")
        let (unknown, unknownText) = try validate(["--redirect-url", "x", AuthorizationRequestAuditTests.url()])
        #expect(unknown == 2 && unknownText.contains("did you mean '--redirect-uri'"), "\(unknownText)")
    }

    @Test("With --reports both reports are written, judge the NAT rows, and never show a secret the URL carried")
    func reports() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("validate-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let secret = "SECRET-\(UUID().uuidString)"
        let (status, text) = try validate(["--reports", directory, AuthorizationRequestAuditTests.url([("client_secret", secret)])])
        #expect(status == 1, "\(text)")
        let markdown = try String(contentsOfFile: directory + "/report.md", encoding: .utf8)
        let junit = try String(contentsOfFile: directory + "/junit.xml", encoding: .utf8)
        #expect(!text.contains(secret) && !markdown.contains(secret) && !junit.contains(secret))
        #expect(markdown.contains("| NAT-REQ-001 | MUST |") && markdown.contains("❌ fail"), "\(markdown.prefix(800))")
        #expect(markdown.contains("| NAT-PKCE-004 | MUST | The app uses S256 and says so |"), "\(markdown.prefix(800))")
        #expect(junit.contains("<testcase") && junit.contains("NAT-REQ-001"), "\(junit.prefix(800))")
    }

    @Test("A userinfo password and a client assertion never show: not on the console, not in any report")
    func userinfoAndAssertion() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("validate-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (password, assertion) = ("pw-\(UUID().uuidString)", "eyJhbGciOiJSUzI1NiJ9.\(UUID().uuidString).sig")
        let url = AuthorizationRequestAuditTests.url([("client_assertion", assertion)])
            .replacingOccurrences(of: "https://", with: "https://partner-app:\(password)@")
        #expect(url.contains("partner-app:\(password)@"), "\(url)")
        let (_, text) = try validate(["--reports", directory, url])
        let reports = try ["report.md", "junit.xml", "results.json"].map { try String(contentsOfFile: directory + "/" + $0, encoding: .utf8) }
        for shown in [text] + reports {
            #expect(!shown.contains(password) && !shown.contains(assertion), "\(shown.prefix(1200))")
        }
        #expect(text.contains("partner-app:‹redacted hmac:"), "\(text)")
    }
}
