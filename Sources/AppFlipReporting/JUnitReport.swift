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
        var piece = ReportBytes()
        for result in results {
            testcase(result, into: &piece)
            sink.take(&piece)
        }
        sink.append("  </testsuite>\n")
    }

    /// One test case, written straight into bytes: a run's thousands of cases make no text in between.
    private func testcase(_ result: CaseResult, into sink: inout ReportBytes) {
        let conformanceCase = result.conformanceCase
        sink.appendLiteral("    <testcase classname=\"")
        sink.appendXMLAttribute(ReportFormatting.className(conformanceCase.group))
        sink.appendLiteral("\" name=\"")
        sink.appendXMLAttribute(conformanceCase.id)
        sink.appendLiteral("\" time=\"")
        sink.withBytes { ReportFormatting.appendSeconds(reproducible ? 0 : result.duration, to: &$0) }
        if fileAttributes {
            sink.appendLiteral("\" file=\"")
            sink.appendXMLAttribute(conformanceCase.location.file)
            sink.appendLiteral("\" line=\"")
            sink.append(String(conformanceCase.location.line))
        }
        sink.appendLiteral("\">\n")
        let location = ReportFormatting.location(conformanceCase)
        // A recorded result's checks are unpacked on each read: read once for the whole test case.
        let checks = result.checks
        let findings = checks.filter(\.isFinding)
        let requirements = ReportFormatting.requirementList(conformanceCase, checks: checks)
        switch result.verdict {
        case .fail where result.isKnown, .error where result.isKnown:
            // Accepted by the baseline for now: not a failure of this run, and not a pass either.
            let entries = result.knownBy.map(\.summary).joined(separator: "; ")
            sink.appendLiteral("      <skipped message=\"")
            sink.appendXMLAttribute(bounded("known failure, accepted by the baseline: " + entries))
            sink.appendLiteral("\"/>\n")
        case .fail:
            failure(findings.filter { $0.verdict == .fail }, at: location, into: &sink)
        case .error:
            let message = "target error: " + (result.message ?? "no answer")
            sink.appendLiteral("      <error type=\"target-error\" message=\"")
            sink.appendXMLAttribute(bounded(message))
            sink.appendLiteral("\">")
            sink.appendXMLText(location)
            sink.appendLiteral(": ")
            sink.appendXMLText(message)
            sink.appendLiteral("\nrequirements this case checks: ")
            sink.appendXMLText(requirements)
            sink.appendLiteral("\n</error>\n")
        case .skip:
            sink.appendLiteral("      <skipped message=\"")
            sink.appendXMLAttribute(result.message ?? "skipped")
            sink.appendLiteral("\"/>\n")
        case .pass, .warn, .info:
            break
        }
        let minor = findings.filter { $0.verdict == .warn || $0.verdict == .info }
        sink.appendLiteral("      <system-out>")
        systemOut(result, requirements: requirements, minor: minor, into: &sink)
        sink.appendLiteral("</system-out>\n")
        if !minor.isEmpty {
            sink.appendLiteral("      <system-err>")
            for finding in minor {
                sink.appendLiteral(finding.verdict == .warn ? "WARNING " : "NOTE ")
                sink.appendXMLText("\(finding.requirement): expected \(finding.expected); observed \(finding.observed)")
                sink.appendLiteral("\n")
            }
            sink.appendLiteral("</system-err>\n")
        }
        sink.appendLiteral("    </testcase>\n")
    }

    /// The `<failure>` element: its type and message say the first failed check; its text lists every one.
    private func failure(_ failures: [CheckResult], at location: String, into sink: inout ReportBytes) {
        sink.appendLiteral("      <failure type=\"")
        if let first = failures.first {
            sink.appendXMLRequirement(first.requirement, attribute: true)
            sink.appendLiteral("\" message=\"")
            appendFailureMessage(first, into: &sink)
        } else {
            sink.appendLiteral("conformance\" message=\"failed")
        }
        sink.appendLiteral("\">")
        for finding in failures {
            sink.appendXMLText(location)
            sink.appendLiteral(": ")
            sink.appendXMLRequirement(finding.requirement, attribute: false)
            sink.appendLiteral(" violated\n  expected: ")
            sink.appendXMLText(finding.expected)
            sink.appendLiteral("\n  observed: ")
            sink.appendXMLText(finding.observed)
            sink.appendLiteral("\n")
        }
        sink.appendLiteral("</failure>\n")
    }

    private func bounded(_ text: String) -> String {
        Excerpt.bounded(text, limit: Self.messageLimit)
    }

    private static let messageLimit = 1024

    /// The failure's message, `ID LEVEL: expected …; observed …`, as an attribute: its pieces escaped one after another
    /// (escaping goes character by character, so the pieces escape as their joined text does) unless it is too long
    /// to show whole, when it is joined and cut as `bounded` cuts it.
    private func appendFailureMessage(_ check: CheckResult, into sink: inout ReportBytes) {
        let requirement = check.requirement
        let length =
            requirement.id.utf8.count + 1 + requirement.level.rawValue.utf8.count + ": expected ; observed ".utf8.count
            + check.expected.utf8.count + check.observed.utf8.count
        guard length <= Self.messageLimit else {
            return sink.appendXMLAttribute(bounded("\(requirement): expected \(check.expected); observed \(check.observed)"))
        }
        sink.appendXMLRequirement(requirement, attribute: true)
        sink.appendLiteral(": expected ")
        sink.appendXMLAttribute(check.expected)
        sink.appendLiteral("; observed ")
        sink.appendXMLAttribute(check.observed)
    }

    /// The case's title, file, verdict, requirements, minor findings and evidence, escaped as XML text.
    private func systemOut(_ result: CaseResult, requirements: String, minor: [CheckResult], into sink: inout ReportBytes) {
        let conformanceCase = result.conformanceCase
        func line(_ label: StaticString, _ value: String) {
            sink.appendLiteral(label)
            sink.appendXMLText(value)
            sink.appendLiteral("\n")
        }
        line("title: ", conformanceCase.title)
        line("case: ", ReportFormatting.location(conformanceCase))
        line("verdict: ", result.verdict.rawValue)
        line("scenario: ", conformanceCase.scenario.rawValue)
        line("requirements: ", requirements)
        for finding in minor {
            sink.appendXMLText(
                "\(finding.verdict.rawValue.uppercased()) \(finding.requirement): expected \(finding.expected); observed \(finding.observed)\n")
        }
        let evidence = result.evidence
        if !evidence.link.isEmpty { line("link: ", evidence.link) }
        if !evidence.answer.isEmpty { line("answer: ", evidence.answer) }
        for exchange in evidence.exchanges { line("request: ", exchange.rendered(times: !reproducible)) }
        if !evidence.stderr.isEmpty { line("stderr:\n", evidence.stderr) }
    }
}
