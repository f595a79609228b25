import AppFlipLoading
import AppFlipModel
import AppFlipReporting

extension EvidenceBundle {
    /// The strongest rule a bundle's human-readable reports are held to: each is exactly what the suite writes from
    /// the bundle's results.json (read back as `merge` reads a run, with the bundled case files and catalog), byte for
    /// byte. report.md, report.html and junit.xml edited to say CERTIFIED or CONFORMANT, a failure section removed, a
    /// count changed, each differs from its rendering and is named; results.json itself is held to its cases by
    /// `contradictions`.
    static func renderingContradictions(
        document: ResultsDocument, byPath: [String: TarArchive.Entry], suite: CaseSuite?,
        catalog: Catalog?
    ) -> [String] {
        var baseline: Baseline?
        if let recorded = document.outcome.baseline {
            // A certification takes no baseline, so one recorded beside it is a forgery. Any other run's bundle carries
            // its baseline file, applied again on the day the run judged it; one of an earlier version (no file, no
            // day), or a reproducible one (no day), is held to results.json by the shared facts only (verdict,
            // counts, exit code, every case).
            if document.run.certification == true { return ["results.json records a baseline in a certification run, which takes none"] }
            guard let file = byPath[baselinePath], recorded.judgedOn != nil else { return [] }
            do {
                baseline = try BaselineLoader.load(bytes: file.bytes, file: recorded.path)
            } catch {
                return ["\(baselinePath) does not load: \(error.diagnostics.first.map { String(describing: $0) } ?? "")"]
            }
        }
        // Bundled files that do not load are named by `verify` already (their digests are no suite's): nothing to render.
        guard var suite, let catalog else { return [] }
        // The bundle keeps case files by their path under the cases root (what the digest hashes); the reports name
        // them where the run read them (`Conformance/cases/…`): loaded again under that root, they read as they did.
        let relative = byPath.keys.filter { $0.hasPrefix("cases/") }.map { String($0.dropFirst("cases/".count)) }
        if let root = document.cases.lazy.compactMap({ entry in
            relative.first { entry.file.hasSuffix("/" + $0) }.map { entry.file.dropLast($0.count) }
        }).first,
            root != "cases/"
        {
            let files = relative.sorted().compactMap { path in byPath["cases/" + path].map { SuiteFile(path: root + path, bytes: $0.bytes) } }
            if let reloaded = try? CaseLoader.load(files: files, base: String(root.dropLast()), catalog: catalog) { suite = reloaded }
        }
        var run: RunResult
        do {
            run = try ResultsDocument.merge([(document, "results.json")], suite: suite, catalog: catalog, asRecorded: true)
        } catch {
            return ["the reports cannot be rendered again from results.json: \(error.message)"]
        }
        if let baseline, let day = document.outcome.baseline?.judgedOn { run.apply(baseline, today: day) }
        let arguments = document.run.arguments ?? []
        // Replayed into the recorder a run writes its reports with, in memory.
        let recorder = ReportsRecorder(
            directory: nil, profiles: document.profiles.map(\.profile), reproducible: arguments.contains("--reproducible"),
            fileAttributes: arguments.contains("--junit-file-attributes"))
        RunRecording([recorder]).end(run)
        let rendered = recorder.written ?? []
        var problems: [String] = []
        for (name, text) in rendered {
            guard let entry = byPath["reports/" + name] else { continue }  // a missing report is named where the manifest is checked
            let bundled = String(decoding: entry.bytes, as: UTF8.self)
            guard bundled != text else { continue }
            problems.append("reports/\(name) is not what the suite writes from results.json" + Self.firstDifference(bundled, text))
        }
        return problems
    }

    /// ` (first at line N: "…" where the suite writes "…")`, each side cut short.
    private static func firstDifference(_ bundled: String, _ rendered: String) -> String {
        let left = bundled.split(separator: "\n", omittingEmptySubsequences: false)
        let right = rendered.split(separator: "\n", omittingEmptySubsequences: false)
        guard
            let line = zip(left, right).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
                ?? (left.count != right.count
                    ? min(left.count, right.count) : nil)
        else { return "" }
        let cut = { (lines: [Substring]) in line < lines.count ? String(lines[line].prefix(120)) : "(nothing)" }
        return " (first at line \(line + 1): \"\(cut(left))\" where the suite writes \"\(cut(right))\")"
    }
}
