import AppFlipModel
import AppFlipReporting
import AppFlipRunner
import AppFlipTestSupport
import Foundation
import Testing

/// report.html in a real browser (Debian's Chromium, headless): the DOM after the page's script ran holds the verdict
/// and every requirement ID, a filter in the URL fragment shows only what it selects, a hostile target changes
/// nothing in the page, and the browser reports no console error (a policy violation included).
@Suite("HTML report in a browser", .serialized)
struct HTMLReportBrowserTests {
    private static func scratch(_ name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The elements the filters act on (`data-f`), each with whether the browser left it shown.
    private static func filterable(_ dom: String) -> [(tag: String, shown: Bool)] {
        dom.components(separatedBy: "<").dropFirst().compactMap { piece -> (String, Bool)? in
            guard let end = piece.firstIndex(of: ">") else { return nil }
            let tag = String(piece[..<end])
            guard tag.contains(" data-f") else { return nil }
            return (tag, !tag.contains(" hidden"))
        }
    }

    private static func attribute(_ name: String, of tag: String) -> [String] {
        guard let start = tag.range(of: " \(name)=\"") else { return [] }
        return tag[start.upperBound...].prefix { $0 != "\"" }.split(separator: " ").map(String.init)
    }

    @Test("The reference run's page: the verdict and every requirement ID of the catalog in the DOM after scripts, no console message")
    func referenceRun() throws {
        let directory = try Self.scratch("html-reference")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (status, output) = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--target", "reference", "--seed", "7", "--quiet", "--reports", directory, "--cases", PackageRoot.cases, "--catalog",
                PackageRoot.catalog,
            ])
        #expect(status == 0, "\(output.suffix(2000))")
        let page = try HeadlessBrowser.dump(directory + "/report.html")
        #expect(page.console.isEmpty, "\(page.console)")
        #expect(page.dom.contains("Verdict: CONFORMANT"), "\(page.dom.prefix(2000))")
        // The script ran to its end: it marks the document, and shows the filters.
        #expect(page.dom.contains("data-ready-ms=\"") && !page.dom.contains("<form id=\"filters\" hidden"))
        for requirement in try SuiteRun.load().0.requirements {
            #expect(page.dom.contains("id=\"req-\(requirement.id)\""), "\(requirement.id) is not in the matrix")
        }
    }

    @Test("A one-bug run: the fragment #verdict=fail shows the failing items only, #profile= and #q= narrow further, and the page is under 1.5 MiB")
    func fragmentFilters() throws {
        let directory = try Self.scratch("html-one-bug")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (status, output) = try ProgramRun.run(
            BuiltProducts.path("appflip-conformance"),
            [
                "run", "--link", "https://app.example/flip", "--client-id", "google-client", "--profile", "app-link", "--seed", "7", "--quiet",
                "--reports", directory, "--cases", PackageRoot.cases, "--catalog", PackageRoot.catalog,
                "--", BuiltProducts.path("broken-handler"), "--defect", "drops-state",
            ])
        #expect(status == 1, "\(output.suffix(2000))")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: directory + "/report.html")[.size] as? Int)
        #expect(size <= 3 << 19, "report.html is \(size) bytes")

        let unfiltered = Self.filterable(try HeadlessBrowser.dump(directory + "/report.html").dom)
        #expect(!unfiltered.isEmpty && unfiltered.allSatisfy(\.shown))
        // Without its script (here blocked by a policy that allows none) a fragment filters nothing: everything shows,
        // and the filters, which could not work, do not.
        let page = try String(contentsOfFile: directory + "/report.html", encoding: .utf8)
        let blocked = try #require(page.range(of: "script-src &#39;sha256-"))
        let end = try #require(page[blocked.upperBound...].firstIndex(of: ";"))
        try page.replacingCharacters(in: blocked.lowerBound..<end, with: "script-src &#39;none&#39;")
            .write(toFile: directory + "/scriptless.html", atomically: true, encoding: .utf8)
        let scriptless = try HeadlessBrowser.dump(directory + "/scriptless.html", fragment: "verdict=fail")
        #expect(scriptless.console.contains { $0.contains("Content Security Policy") }, "the script was not blocked: \(scriptless.console)")
        #expect(Self.filterable(scriptless.dom).allSatisfy(\.shown) && scriptless.dom.contains("<form id=\"filters\" hidden"))
        #expect(!scriptless.dom.contains("data-ready-ms=\""))

        let failing = try HeadlessBrowser.dump(directory + "/report.html", fragment: "verdict=fail")
        #expect(failing.console.isEmpty, "\(failing.console)")
        let items = Self.filterable(failing.dom)
        let shown = items.filter(\.shown)
        #expect(!shown.isEmpty && shown.count < items.count, "\(shown.count) of \(items.count)")
        #expect(shown.allSatisfy { Self.attribute("data-verdict", of: $0.tag).contains("fail") })
        #expect(items.filter { !$0.shown }.allSatisfy { !Self.attribute("data-verdict", of: $0.tag).contains("fail") })
        // The form says what it applied.
        #expect(failing.dom.contains("<option selected=\"\">fail</option>") || failing.dom.contains("items shown"))

        let searched = Self.filterable(try HeadlessBrowser.dump(directory + "/report.html", fragment: "verdict=fail&q=AF-LINK-010").dom)
        let found = searched.filter(\.shown)
        #expect(!found.isEmpty && found.count <= shown.count)
        #expect(found.allSatisfy { Self.attribute("data-search", of: $0.tag).contains("af-link-010") })

        // The one-bug page is the README's screenshot.
        try HeadlessBrowser.screenshot(directory + "/report.html", to: directory + "/shot.png")
        #expect(FileManager.default.fileExists(atPath: directory + "/shot.png"))
    }

    /// An app whose every answer and log is markup: a link that opens a URL full of it, a log of it.
    struct HostileApp: ExchangeTarget {
        var description: String { Fixtures.hostileMarkup }
        func makeSession() -> any ExchangeSession { Session() }

        final class Session: ExchangeSession {
            func exchange(_ request: HandlerRequest, timeout: Double) -> TargetExchange {
                let url = "https://oauth-redirect.googleusercontent.com/a/x?code=" + Fixtures.hostileMarkup + "&state=<b>"
                return TargetExchange(answer: HandlerAnswer(action: .open, url: url), rawAnswer: Fixtures.hostileMarkup, log: Fixtures.hostileMarkup)
            }
            func close() {}
        }
    }

    @Test("A target whose every answer carries script, handlers, </details>, javascript: URLs and CSS changes nothing in the page")
    func hostileTarget() throws {
        let directory = try Self.scratch("html-hostile")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cases = try SuiteRun.load().1.cases.filter { $0.profile == .appLink }.prefix(12)
        let run = try SuiteRun.run(TargetUnderTest(adapters: [.linkHandler: HostileApp()]), cases: Array(cases), jobs: 2)
        #expect(run.results.contains { $0.verdict == .fail })
        let page = HTMLReport(run: run, profiles: ["app-link"], reproducible: true).render()
        try page.write(toFile: directory + "/report.html", atomically: true, encoding: .utf8)
        let dumped = try HeadlessBrowser.dump(directory + "/report.html")
        #expect(dumped.console.isEmpty, "\(dumped.console)")
        #expect(dumped.dom.contains("<title>AppFlip Conformance: NOT CONFORMANT</title>"))
        #expect(dumped.dom.components(separatedBy: "<script").count == 2, "one script: the page's own")
        #expect(!dumped.dom.contains("<img"))
        // Every link element goes to an https source or an anchor of the page (the markup's own link is text).
        for link in dumped.dom.matches(of: try Regex(#"<a\s[^>]*href="([^"]*)""#)) {
            let href = String(dumped.dom[link.range])
            #expect(href.contains("href=\"https://") || href.contains("href=\"#"), "\(href)")
        }
        #expect(dumped.dom.firstMatch(of: try Regex(#"<[a-zA-Z][^>]*\son[a-z]+\s*="#)) == nil)
        // The markup is there, as text a reviewer reads.
        #expect(dumped.dom.contains("&lt;script&gt;document.title="))
    }
}
