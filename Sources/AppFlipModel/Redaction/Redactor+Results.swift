/// What a case leaves behind, redacted: every text of a result goes through one redactor before anything reads it.
extension Redactor {
    /// `result` with its message, notes, evidence and every check's expected and observed text redacted.
    package func redact(_ result: CaseResult) -> CaseResult {
        var result = result
        result.message = result.message.map(redact)
        result.configurationProblem = result.configurationProblem.map(redact)
        result.suiteFault = result.suiteFault.map(redact)
        result.evidence = redact(result.evidence)
        let checks = result.checks
        if !checks.isEmpty { result.checks = checks.map(redact) }
        return result
    }

    package func redact(_ evidence: Evidence) -> Evidence {
        Evidence(link: redact(evidence.link), answer: redact(evidence.answer), stderr: redact(evidence.stderr),
                 exchanges: evidence.exchanges.map(redact))
    }

    package func redact(_ check: CheckResult) -> CheckResult {
        check.withTexts(expected: redact(check.expected), seen: redact(check.seenText))
    }
}

extension Redactor {
    /// `provenance` with every text a person or a file gave it redacted: the target, the command line and its
    /// arguments, the filter and the handler's start-up notes.
    package func redact(_ provenance: Provenance) -> Provenance {
        var provenance = provenance
        provenance.target = redact(provenance.target)
        provenance.command = redact(provenance.command)
        provenance.runArguments = provenance.runArguments?.map(redact)
        provenance.filter = provenance.filter.map(redact)
        provenance.handlerStartup = provenance.handlerStartup.map(redact)
        provenance.handlerStartupMeasured = provenance.handlerStartupMeasured.map(redact)
        return provenance
    }
}
