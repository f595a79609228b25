import AppFlipModel

/// The files a run leaves in its reports directory, rendered together so every command writes the same set:
/// `junit.xml` (CI), `report.md` (reviewers) and `results.json` (machines: diff, merge, re-run).
package struct ReportSet: Sendable {
    package var run: RunResult
    package var profiles: [String]
    package var reproducible: Bool
    package var fileAttributes: Bool

    package init(run: RunResult, profiles: [String], reproducible: Bool = false, fileAttributes: Bool = false) {
        self.run = run
        self.profiles = profiles
        self.reproducible = reproducible
        self.fileAttributes = fileAttributes
    }

    package static let names = ["junit.xml", "report.md", "results.json"]

    /// Each file's name and text, in the order they are written.
    package func render() -> [(name: String, text: String)] {
        [
            ("junit.xml", JUnitReport(run: run, reproducible: reproducible, fileAttributes: fileAttributes).render()),
            ("report.md", MarkdownReport(run: run, profiles: profiles, reproducible: reproducible).render()),
            ("results.json", ResultsDocument(run: run, profiles: profiles, reproducible: reproducible).render()),
        ]
    }
}
