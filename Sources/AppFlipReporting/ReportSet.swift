import AppFlipModel

/// The files a run leaves in its reports directory, rendered together so every command writes the same set:
/// `junit.xml` (CI), `report.md` (reviewers on a code host), `report.html` (reviewers in a browser: filters, evidence
/// that opens) and `results.json` (machines: diff, merge, re-run).
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

    package static let names = ["junit.xml", "report.md", "report.html", "results.json"]

    /// Each file, in the order they are written: results.json and junit.xml are written into their sink case by
    /// case (a run of 100,000 cases is never held whole as text); report.md stays under a MiB.
    package var files: [ReportFile] {
        let run = run
        let profiles = profiles
        let reproducible = reproducible
        let fileAttributes = fileAttributes
        // Grouped once for both readers' reports (the grouping and root causes are a good part of their cost).
        let findings = ReportFindings(run: run)
        return [
            ReportFile(
                name: "junit.xml", write: { JUnitReport(run: run, reproducible: reproducible, fileAttributes: fileAttributes).write(into: $0) }),
            ReportFile(
                name: "report.md",
                write: { $0.append(MarkdownReport(run: run, profiles: profiles, reproducible: reproducible, findings: findings).render()) }),
            ReportFile(
                name: "report.html",
                write: { HTMLReport(run: run, profiles: profiles, reproducible: reproducible, findings: findings).write(into: $0) }),
            ReportFile(
                name: "results.json",
                write: { ResultsDocument.write(run: run, profiles: profiles, reproducible: reproducible, outcomes: findings.outcomes, into: $0) }),
        ]
    }

    /// Each file's name and text, in the order they are written (for an evidence bundle, which carries them too).
    package func render() -> [(name: String, text: String)] {
        files.map { ($0.name, $0.render()) }
    }
}

/// One report file: its name, and how to write it into a sink (on any thread: the files of a set are written at once).
package struct ReportFile: Sendable {
    package var name: String
    package var write: @Sendable (ReportSink) -> Void

    package init(name: String, write: @escaping @Sendable (ReportSink) -> Void) {
        self.name = name
        self.write = write
    }

    /// A file whose text is at hand.
    package init(name: String, text: String) {
        self.init(name: name, write: { $0.append(text) })
    }

    /// The file's text, written into memory.
    package func render() -> String {
        let sink = ReportSink()
        write(sink)
        return sink.text
    }
}
