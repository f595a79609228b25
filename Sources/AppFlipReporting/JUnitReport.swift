import AppFlipModel
import AppFlipRedaction

/// Writes a run as JUnit XML that validates against the Jenkins xunit `junit-10.xsd`.
///
/// One `<testsuite>` per case group (the case file's directory), one `<testcase>` per case, named by its ID (the
/// title leads its `<system-out>`). That schema allows `<properties>` and `file` only on `<testsuite>`, so the
/// run's properties go once, on the first suite, requirement IDs, levels and sources on each suite, and each case's
/// file and line lead its failure text and its `<system-out>`. A case that passed with a SHOULD or MAY finding
/// says so in `<system-err>`, which CI viewers show, so a warning never looks like a plain pass. `fileAttributes`
/// adds `file` and `line` attributes to `<testcase>` (read by GitLab and some GitHub reporters), which that
/// schema does not allow.
package struct JUnitReport: Sendable {
    package var run: RunResult
    /// When true, times are written as 0 and no timestamp is written, so output is byte-identical across runs.
    package var reproducible: Bool
    package var fileAttributes: Bool

    package init(run: RunResult, reproducible: Bool = false, fileAttributes: Bool = false) {
        self.run = run
        self.reproducible = reproducible
        self.fileAttributes = fileAttributes
    }

    package func render() -> String {
        let sink = ReportSink()
        write(into: sink)
        return sink.text
    }

    /// Writes the report into `sink`, one test case at a time.
    package func write(into sink: ReportSink) {
        let results = run.results
        let interrupted = run.incomplete ? 1 : 0
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let baselineProblems = run.baseline?.problems ?? []
        xml += "<testsuites name=\"AppFlip Conformance\" tests=\"\(results.count + interrupted + baselineProblems.count)\""
        xml += " failures=\"\(run.count(.fail) + baselineProblems.count)\""
        // The wall time of the run, not the sum of the cases' times (they run in parallel).
        xml += " errors=\"\(run.count(.error) + interrupted)\" time=\"\(time(run.provenance.duration))\">\n"
        if run.incomplete { xml += interruptionSuite() }
        if !baselineProblems.isEmpty { xml += baselineSuite(baselineProblems) }
        sink.append(xml)
        for (index, group) in ReportFormatting.groups(results).enumerated() {
            suite(group.name, group.results, withRunProperties: index == 0, into: sink)
        }
        sink.append("</testsuites>\n")
    }

    /// An interrupted run says so where CI looks: one test case in error, whatever else ran.
    private func interruptionSuite() -> String {
        let message = "the run was interrupted after \(run.results.count) cases; the cases not listed did not run"
        return "  <testsuite name=\"(run)\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000\">\n"
            + "    <testcase classname=\"run\" name=\"run interrupted\" time=\"0.000\">\n"
            + "      <error type=\"interrupted\" message=\"\(XMLText.attribute(message))\"/>\n"
            + "    </testcase>\n  </testsuite>\n"
    }

    /// A baseline entry that expired or no longer matches a failure fails the run: one failing test case each.
    private func baselineSuite(_ problems: [Baseline.Problem]) -> String {
        var xml =
            "  <testsuite name=\"(baseline)\" tests=\"\(problems.count)\" failures=\"\(problems.count)\" errors=\"0\" skipped=\"0\" time=\"0.000\">\n"
        for problem in problems {
            xml += "    <testcase classname=\"baseline\" name=\"\(XMLText.attribute(problem.entry.subject.description))\" time=\"0.000\">\n"
            xml += "      <failure type=\"baseline-\(problem.kind.rawValue)\" message=\"\(XMLText.attribute(problem.message))\"/>\n"
            xml += "    </testcase>\n"
        }
        return xml + "  </testsuite>\n"
    }

    private func time(_ seconds: Double) -> String {
        reproducible ? "0.000" : ReportFormatting.seconds(seconds)
    }

    private func suite(_ name: String, _ results: [CaseResult], withRunProperties: Bool, into sink: ReportSink) {
        let failures = results.filter { $0.verdict == .fail && !$0.isKnown }.count
        let errors = results.filter { $0.verdict == .error && !$0.isKnown }.count
        let skipped = results.filter { $0.verdict == .skip || $0.isKnown }.count
        var xml = "  <testsuite name=\"\(XMLText.attribute(name))\" tests=\"\(results.count)\" failures=\"\(failures)\""
        xml += " errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(time(results.reduce(0) { $0 + $1.duration }))\""
        if !reproducible { xml += " timestamp=\"\(XMLText.attribute(run.provenance.startedAt))\"" }
        let files = Set(results.map(\.conformanceCase.location.file))
        if files.count == 1, let file = files.first { xml += " file=\"\(XMLText.attribute(file))\"" }
        xml += ">\n    <properties>\n"
        let provenance = run.provenance
        var properties: [(String, String)] = []
        if withRunProperties {
            properties = [
                ("suite.version", provenance.suiteVersion), ("seed", String(provenance.seed)),
                ("target", provenance.target), ("cases.digest", "sha256:" + provenance.caseDigest),
                ("verdict", run.overall.rawValue), ("warnings", String(run.count(.warn))),
            ]
            if let digest = provenance.catalogDigest { properties.append(("catalog.digest", "sha256:" + digest)) }
            if let custom = ReportHeadline.customSuite(provenance) { properties.append(("suite.custom", custom)) }
            if run.provenance.certification {
                properties.append(("certification", "true: no baseline, no filter"))
                for outcome in run.programOutcomes {
                    properties.append(("certification.\(outcome.program.key)", outcome.headline))
                }
            }
            if let baseline = run.baseline {
                properties.append(("baseline", "\(baseline.path): \(run.knownCount) known, \(baseline.problems.count) problems"))
            }
            if let samples = provenance.samples { properties.append(("samples", String(samples))) }
            for (index, line) in provenance.transport.enumerated() { properties.append(("tls.\(index + 1)", line)) }
            if let startup = provenance.handlerStartup { properties.append(("handler.startup", startup)) }
            for (name, value) in [
                ("target.label", provenance.targetLabel), ("target.version", provenance.targetVersion),
                ("suite.executable.sha256", provenance.executableSHA256),
                ("suite.source.commit", provenance.sourceCommit),
                ("platform", provenance.platform), ("toolchain", provenance.toolchain),
            ] {
                if let value { properties.append((name, value)) }
            }
            // Attested by hand: properties only, never a test case (they are not the suite's verdicts).
            for (index, attestation) in run.attestations.enumerated() {
                properties.append(("attestation.\(index + 1)", attestation.summary + ": " + attestation.note))
            }
            if !reproducible, let measured = provenance.handlerStartupMeasured { properties.append(("handler.startup.measured", measured)) }
            if run.incomplete { properties.append(("run.incomplete", "true: interrupted; only the cases listed ran")) }
        }
        for (key, value) in properties {
            xml += "      <property name=\"\(key)\" value=\"\(XMLText.attribute(value))\"/>\n"
        }
        var seen = Set<String>()
        // Result by result, not one list of every result's requirements (700,000 of them in a run of 100,000 cases).
        for result in results {
            for reference in result.requirements where seen.insert(reference.id).inserted {
                let requirement = run.catalog[reference.id]
                let value = "\(reference.level.rawValue) · \(requirement?.title ?? "") · \(run.catalog.citationText(for: reference.id))"
                xml += "      <property name=\"requirement.\(XMLText.attribute(reference.id))\" value=\"\(XMLText.attribute(value))\"/>\n"
            }
        }
        xml += "    </properties>\n"
        sink.append(xml)
        for result in results { sink.append(testcase(result)) }
        sink.append("  </testsuite>\n")
    }

    private func testcase(_ result: CaseResult) -> String {
        let conformanceCase = result.conformanceCase
        var xml = "    <testcase classname=\"\(XMLText.attribute(ReportFormatting.className(conformanceCase.group)))\""
        xml += " name=\"\(XMLText.attribute(conformanceCase.id))\" time=\"\(time(result.duration))\""
        if fileAttributes {
            xml += " file=\"\(XMLText.attribute(conformanceCase.location.file))\" line=\"\(conformanceCase.location.line)\""
        }
        xml += ">\n"
        let location = ReportFormatting.location(conformanceCase)
        // A recorded result's checks are unpacked on each read: read once for the whole test case.
        let checks = result.checks
        let findings = checks.filter(\.isFinding)
        let requirements = ReportFormatting.requirementList(conformanceCase, checks: checks)
        switch result.verdict {
        case .fail where result.isKnown, .error where result.isKnown:
            // Accepted by the baseline for now: not a failure of this run, and not a pass either.
            let entries = result.knownBy.map(\.summary).joined(separator: "; ")
            xml += "      <skipped message=\"\(XMLText.attribute(bounded("known failure, accepted by the baseline: " + entries)))\"/>\n"
        case .fail:
            let failures = findings.filter { $0.verdict == .fail }
            let first = failures.first
            let message = first.map { "\($0.requirement): expected \($0.expected); observed \($0.observed)" } ?? "failed"
            let type = first.map { $0.requirement.description } ?? "conformance"
            var body = ""
            for finding in failures {
                body += "\(location): \(finding.requirement) violated\n  expected: \(finding.expected)\n  observed: \(finding.observed)\n"
            }
            xml += "      <failure type=\"\(XMLText.attribute(type))\" message=\"\(XMLText.attribute(bounded(message)))\">"
            xml += XMLText.text(body) + "</failure>\n"
        case .error:
            let message = "target error: " + (result.message ?? "no answer")
            xml += "      <error type=\"target-error\" message=\"\(XMLText.attribute(bounded(message)))\">"
            xml += XMLText.text("\(location): \(message)\nrequirements this case checks: \(requirements)\n")
            xml += "</error>\n"
        case .skip:
            xml += "      <skipped message=\"\(XMLText.attribute(result.message ?? "skipped"))\"/>\n"
        case .pass, .warn, .info:
            break
        }
        let minor = findings.filter { $0.verdict == .warn || $0.verdict == .info }
        xml += "      <system-out>" + XMLText.text(systemOut(result, requirements: requirements, minor: minor)) + "</system-out>\n"
        if !minor.isEmpty {
            let lines = minor.map {
                "\($0.verdict == .warn ? "WARNING" : "NOTE") \($0.requirement): expected \($0.expected); observed \($0.observed)\n"
            }
            xml += "      <system-err>" + XMLText.text(lines.joined()) + "</system-err>\n"
        }
        xml += "    </testcase>\n"
        return xml
    }

    private func bounded(_ text: String) -> String {
        Excerpt.bounded(text, limit: 1024)
    }

    private func systemOut(_ result: CaseResult, requirements: String, minor: [CheckResult]) -> String {
        let conformanceCase = result.conformanceCase
        var text = "title: \(conformanceCase.title)\n"
        text += "case: \(ReportFormatting.location(conformanceCase))\n"
        text += "verdict: \(result.verdict.rawValue)\n"
        text += "scenario: \(conformanceCase.scenario.rawValue)\n"
        text += "requirements: \(requirements)\n"
        for finding in minor {
            text += "\(finding.verdict.rawValue.uppercased()) \(finding.requirement): expected \(finding.expected); observed \(finding.observed)\n"
        }
        if !result.evidence.link.isEmpty { text += "link: \(result.evidence.link)\n" }
        if !result.evidence.answer.isEmpty { text += "answer: \(result.evidence.answer)\n" }
        for exchange in result.evidence.exchanges { text += "request: \(exchange.rendered(times: !reproducible))\n" }
        if !result.evidence.stderr.isEmpty { text += "stderr:\n\(result.evidence.stderr)\n" }
        return text
    }
}
