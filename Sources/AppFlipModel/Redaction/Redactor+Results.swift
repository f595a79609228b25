import AppFlipRedaction

/// What a case leaves behind, redacted: every text of a result goes through one redactor before anything reads it.
extension Redactor {
    /// `result` with its message, notes, evidence and every check's expected and observed text redacted.
    package func redact(_ result: CaseResult) -> CaseResult {
        var result = redactMessage(of: result)
        result.evidence = redact(result.evidence)
        let checks = result.checks
        if !checks.isEmpty { result.checks = checks.map(redact) }
        return result
    }

    /// `result` with its message and run fault redacted: for a result whose evidence and checks were redacted as they
    /// were recorded (a run's: `StepExecutor.Outcome`), or that has none (a case not sent).
    package func redactMessage(of result: CaseResult) -> CaseResult {
        var result = result
        result.message = result.message.map(redact)
        result.runFault = result.runFault.map(redact)
        return result
    }

    /// A run fault with its text redacted: an unusable target's reason may quote the adapter's standard error.
    package func redact(_ fault: RunFault) -> RunFault {
        switch fault {
        case .suite(let text): .suite(redact(text))
        case .configuration(let text): .configuration(redact(text))
        case .unreachable(let target): .unreachable(UnreachableTarget(key: target.key, reason: redact(target.reason)))
        }
    }

    package func redact(_ evidence: Evidence) -> Evidence {
        Evidence(
            link: redact(evidence.link), answer: redact(evidence.answer), stderr: redact(evidence.stderr),
            exchanges: evidence.exchanges.map(redact))
    }

    package func redact(_ exchange: Evidence.Exchange) -> Evidence.Exchange {
        var exchange = exchange
        exchange.transcript = redact(exchange.transcript)
        exchange.requestHeaders = redact(exchange.requestHeaders)
        exchange.responseHeaders = redact(exchange.responseHeaders)
        return exchange
    }

    /// Header lines with credentials hidden by the header's name (`HeaderCredentials`) and every known secret in names
    /// and values alike (a name can carry a token: `X-T-<token>`), each value then cut to `Evidence.headerValueLimit`.
    package func redact(_ headers: [Evidence.Header]) -> [Evidence.Header] {
        guard !headers.isEmpty else { return headers }
        let named = headers.map { HeaderCredentials.hide(name: $0.name, value: $0.value) }
        // One redaction over all the names and values, a line each (a header line holds no line feed): a call costs
        // more than the few bytes of one. Anything that does not split back into one line a text is redacted text by
        // text.
        let texts = headers.map(\.name) + named
        let joined = texts.joined(separator: "\n")
        var redacted: [String] = []
        if Self.lineFeeds(in: joined) == texts.count - 1 {
            let whole = redact(joined, acrossLines: false)
            // Most header lines hold nothing more to hide (their credentials went by name): then each is as it was.
            redacted =
                whole == joined
                ? texts : whole.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(Substring($0)) }
        }
        if redacted.count != texts.count { redacted = texts.map { redact($0) } }
        return headers.indices.map { index in
            Evidence.Header(
                Excerpt.bounded(redacted[index], limit: Evidence.headerValueLimit),
                Excerpt.bounded(redacted[headers.count + index], limit: Evidence.headerValueLimit))
        }
    }

    /// How many line feeds `text` holds.
    private static func lineFeeds(in text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }
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
        provenance.targetLabel = provenance.targetLabel.map(redact)
        provenance.targetVersion = provenance.targetVersion.map(redact)
        provenance.runBy = provenance.runBy.map(redact)
        provenance.adapterFiles = provenance.adapterFiles.map { file in
            var file = file
            file.path = redact(file.path)
            return file
        }
        return provenance
    }
}
