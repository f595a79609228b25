import AppFlipTestSupport
import Foundation
import Testing

/// README is a front page a newcomer reads in a minute: the two commands first, at most 200 lines, and a link to every
/// article; the articles are where everything else lives.
@Suite("Documentation shape")
struct DocumentationShapeTests {
    @Test("README opens with the two commands, stays within 200 lines, and links every article")
    func readme() throws {
        let readme = try PackageRoot.text("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 200, "README.md has \(lines.count) lines")
        let opening = lines.prefix(6).joined(separator: "\n")
        #expect(opening.contains("swift run -c release appflip-conformance run --target reference"))
        #expect(opening.contains("swift test"))
        let articles = PackageRoot.documents.filter { $0.hasPrefix("Documentation/") }
        #expect(articles.count >= 7, "\(articles)")
        for article in articles { #expect(readme.contains("](\(article))"), "README does not link \(article)") }
    }

    @Test("Each article has one title, and the architecture article follows a case from the command line to the reports")
    func articles() throws {
        for article in PackageRoot.documents where article.hasPrefix("Documentation/") {
            let text = try PackageRoot.text(article)
            var inFence = false
            var titles = 0
            for line in text.split(separator: "\n") {
                if line.hasPrefix("```") { inFence.toggle() }
                if !inFence, line.hasPrefix("# ") { titles += 1 }
            }
            #expect(titles == 1 && text.hasPrefix("# "), "\(article) has \(titles) titles")
        }
        let architecture = try PackageRoot.text("Documentation/Architecture.md")
        for stop in ["main.swift", "CaseLoader.swift", "Runner.swift", "Judge.swift", "ReportSet.swift", "ExitStatus.swift"] {
            #expect(architecture.contains(stop), "the journey does not pass \(stop)")
        }
    }
}
