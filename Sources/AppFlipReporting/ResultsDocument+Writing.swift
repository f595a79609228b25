import AppFlipModel

/// results.json written member by member into a sink, keys sorted (as `JSONEncoder`'s `.sortedKeys` with snake_case
/// keys sorted them), so a run of 100,000 cases is written as it is read, one case at a time.
extension ResultsDocument {
    /// Writes a finished run's document: the cases straight from the results, each flushed as it is written.
    package static func write(
        run: RunResult, profiles: [String], reproducible: Bool, outcomes: [RequirementOutcome]? = nil, into sink: ReportSink
    ) {
        let head = ResultsDocument(run: run, profiles: profiles, reproducible: reproducible, listingCases: false, outcomes: outcomes)
        head.write(into: sink) { json in
            for result in run.results {
                json.element()
                CaseEntry(result, reproducible: reproducible).write(&json)
                json.flush()
            }
        }
    }

    /// Writes this document.
    package func write(into sink: ReportSink) {
        write(into: sink) { json in
            for entry in cases {
                json.element()
                entry.write(&json)
                json.flush()
            }
        }
    }

    private func write(into sink: ReportSink, cases writeCases: (inout PrettyJSON) -> Void) {
        var json = PrettyJSON(into: sink)
        json.openObject()
        if let attestations {
            json.key("attestations")
            json.openArray()
            for attestation in attestations {
                json.element()
                attestation.write(&json)
            }
            json.closeArray()
        }
        json.key("cases")
        json.openArray()
        writeCases(&json)
        json.closeArray()
        json.key("outcome")
        outcome.write(&json)
        json.key("profiles")
        json.openArray()
        for profile in profiles {
            json.element()
            profile.write(&json)
        }
        json.closeArray()
        json.key("requirements")
        json.openArray()
        for requirement in requirements {
            json.element()
            requirement.write(&json)
        }
        json.closeArray()
        json.key("run")
        run.write(&json)
        json.member("schema", schema)
        json.key("suite")
        json.openObject()
        json.member("case_files", suite.caseFiles)
        if let builtIn = suite.casesBuiltIn { json.member("cases_built_in", builtIn) }
        json.member("cases_digest", suite.casesDigest)
        if let builtIn = suite.catalogBuiltIn { json.member("catalog_built_in", builtIn) }
        if let digest = suite.catalogDigest { json.member("catalog_digest", digest) }
        json.member("version", suite.version)
        json.closeObject()
        json.member("version", version)
        json.closeObject()
        json.newline()
        json.flush()
    }
}

extension ResultsDocument.CaseEntry {
    func write(_ json: inout PrettyJSON) {
        json.openObject()
        json.key("checks")
        json.openArray()
        for check in checks {
            json.element()
            json.openObject()
            json.member("expected", check.expected)
            json.member("level", check.level)
            json.member("not_applicable", check.notApplicable)
            json.member("observed", check.observed)
            json.member("requirement", check.requirement)
            json.member("verdict", check.verdict)
            json.closeObject()
        }
        json.closeArray()
        if let conditionUnmet {
            json.key("condition_unmet")
            json.bool(conditionUnmet)
        }
        json.member("configuration_problem", configurationProblem)
        json.key("duration_seconds")
        json.double(durationSeconds)
        json.key("evidence")
        json.openObject()
        json.member("answer", evidence.answer)
        json.key("exchanges")
        json.openArray()
        for exchange in evidence.exchanges {
            json.element()
            exchange.write(&json)
        }
        json.closeArray()
        json.member("link", evidence.link)
        json.member("stderr", evidence.stderr)
        json.closeObject()
        json.member("file", file)
        if let formerly { json.member("formerly", strings: formerly) }
        json.member("group", group)
        json.member("id", id)
        if let knownFailure { json.member("known_failure", strings: knownFailure) }
        json.member("line", line)
        json.member("message", message)
        json.member("not_judged", notJudged)
        json.member("profile", profile)
        json.member("scenario", scenario)
        json.member("suite_fault", suiteFault)
        json.member("title", title)
        if let unreachableTarget {
            json.key("unreachable_target")
            json.openObject()
            json.member("key", unreachableTarget.key)
            json.member("reason", unreachableTarget.reason)
            json.closeObject()
        }
        json.member("verdict", verdict)
        json.closeObject()
    }
}

extension ResultsDocument.AttestationEntry {
    func write(_ json: inout PrettyJSON) {
        json.openObject()
        json.key("attachments")
        json.openArray()
        for attachment in attachments {
            json.element()
            json.openObject()
            json.member("bundle_path", attachment.bundlePath)
            json.member("bytes", attachment.bytes)
            json.member("path", attachment.path)
            json.member("sha256", attachment.sha256)
            json.closeObject()
        }
        json.closeArray()
        json.member("by", by)
        json.member("date", date)
        json.member("note", note)
        json.member("requirement", requirement)
        json.member("verdict", verdict)
        json.closeObject()
    }
}

extension ResultsDocument.ExchangeEntry {
    func write(_ json: inout PrettyJSON) {
        json.openObject()
        if let milliseconds { json.member("milliseconds", milliseconds) }
        Self.write(headers: requestHeaders, as: "request_headers", into: &json)
        Self.write(headers: responseHeaders, as: "response_headers", into: &json)
        json.member("sent_at", sentAt)
        json.member("transcript", transcript)
        json.closeObject()
    }

    private static func write(headers: [ResultsDocument.HeaderEntry]?, as key: StaticString, into json: inout PrettyJSON) {
        guard let headers, !headers.isEmpty else { return }
        json.key(key)
        json.openArray()
        for header in headers {
            json.element()
            json.openObject()
            json.member("name", header.name)
            json.member("value", header.value)
            json.closeObject()
        }
        json.closeArray()
    }
}

extension ResultsDocument.Outcome {
    func write(_ json: inout PrettyJSON) {
        json.openObject()
        if let baseline {
            json.key("baseline")
            json.openObject()
            json.member("entries", baseline.entries)
            json.member("judged_on", baseline.judgedOn)
            json.member("known", baseline.known)
            json.member("path", baseline.path)
            json.member("problems", strings: baseline.problems)
            json.member("unexercised", strings: baseline.unexercised)
            json.closeObject()
        }
        json.member("configuration_problems", strings: configurationProblems)
        if let certification {
            json.key("certification")
            json.openArray()
            for program in certification {
                json.element()
                json.openObject()
                json.member("program", program.program)
                json.member("reason", program.reason)
                json.member("status", program.status)
                json.member("title", program.title)
                json.member("to_attest", strings: program.toAttest)
                json.closeObject()
            }
            json.closeArray()
        }
        json.key("counts")
        json.openObject()
        for (verdict, count) in counts.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            json.key(escaping: verdict)
            json.int(count)
        }
        json.closeObject()
        json.key("exit_code")
        json.int(exitCode)
        json.member("verdict", verdict)
        json.closeObject()
    }
}

extension ResultsDocument.ProfileEntry {
    func write(_ json: inout PrettyJSON) {
        json.openObject()
        json.member("cases", cases)
        json.member("judged", judged)
        json.member("profile", profile)
        json.member("reason", reason)
        json.key("tested")
        json.bool(tested)
        json.closeObject()
    }
}

extension ResultsDocument.RequirementEntry {
    func write(_ json: inout PrettyJSON) {
        json.openObject()
        json.member("attested", attested)
        json.member("cases", cases)
        json.member("id", id)
        json.member("level", level)
        json.member("profile", profile)
        json.member("title", title)
        json.member("uncovered", uncovered)
        json.member("verdict", verdict)
        json.closeObject()
    }
}

extension ResultsDocument.Run {
    func write(_ json: inout PrettyJSON) {
        json.openObject()
        if let adapters {
            json.key("adapters")
            json.openArray()
            for adapter in adapters {
                json.element()
                json.openObject()
                json.member("path", adapter.path)
                json.member("problem", adapter.problem)
                json.member("role", adapter.role)
                json.member("sha256", adapter.sha256)
                json.member("sha256_before", adapter.sha256Before)
                if let reference = adapter.suiteReference { json.member("suite_reference", reference) }
                json.closeObject()
            }
            json.closeArray()
        }
        if let arguments { json.member("arguments", strings: arguments) }
        if let certification {
            json.key("certification")
            json.bool(certification)
        }
        if let certificationPrograms { json.member("certification_programs", strings: certificationPrograms) }
        json.member("command", command)
        json.key("duration_seconds")
        json.double(durationSeconds)
        json.member("executable_sha256", executableSha256)
        json.member("filter", filter)
        json.member("handler_startup", handlerStartup)
        json.member("handler_startup_measured", handlerStartupMeasured)
        json.member("host", host)
        json.key("incomplete")
        json.bool(incomplete)
        json.member("jobs", jobs)
        json.member("mode", mode)
        json.member("platform", platform)
        json.member("run_by", runBy)
        if let samples { json.member("samples", samples) }
        json.key("seed")
        json.int(seed)
        json.member("shard", shard)
        json.member("source_commit", sourceCommit)
        json.member("started_at", startedAt)
        json.member("target", target)
        json.member("target_label", targetLabel)
        json.member("target_version", targetVersion)
        json.member("toolchain", toolchain)
        json.member("transport", strings: transport)
        json.closeObject()
    }
}
