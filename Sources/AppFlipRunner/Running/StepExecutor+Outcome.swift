import AppFlipModel
import AppFlipRedaction

extension StepExecutor {
    /// The outcome of running every step of a case.
    ///
    /// Redacted as it is written, once: the evidence is written only here (`record`, `learn`, the excerpt setters),
    /// each text through the redactor that knows every secret the case has met so far, and a secret met later (a code
    /// in the last page of a sign-in walk) is looked for in what was written before it, with that secret alone. So
    /// every text the outcome holds is redacted as it stands, and the case's result needs no pass of its own: its
    /// checks are redacted once when the case ends (`redactChecks`), its message where the runner writes it.
    package struct Outcome {
        var checks: [CheckResult] = []
        /// Why the case ended before its checks said everything (`record` keeps the one that ranks highest).
        private(set) var fault: CaseFault?
        /// A fault of the request this worker sent before (a persistent handler's extra output), redacted.
        private(set) var previousRequestFault: String?
        package private(set) var evidence = Evidence()
        /// What the target made of the configured client credentials, when a step sent them.
        var configuredCredentials: ConfiguredCredentials?
        /// Every authorization code a `code: fresh` check accepted, with that check's requirement.
        var issuedCodes: [IssuedCode] = []
        /// What the probes that may leave part of a request unread showed about the server's framing (TOK-GEN-008):
        /// the suite's own checks, added to the case's after its steps (one, the worst, however many rounds).
        var framing: CheckResult?
        /// The first 5xx answer of the case (TOK-GEN-009), added to its checks after its steps.
        var serverError: CheckResult?
        /// A redirect that never reached the app (NAT-REDIR-004-S), added unless a check of the case said so already.
        var undeliveredRedirect: CheckResult?
        /// The reasons given to checks of steps not sent because an earlier answer the sources allow left nothing
        /// for them (`when_captured`): a condition of the requirement that this target does not meet.
        var unmetConditions: Set<String> = []
        /// Hides every secret the case has met: the configured ones, and the codes and tokens it saw.
        package private(set) var redactor: Redactor

        init(redactor: Redactor = Redactor()) {
            self.redactor = redactor
        }

        /// Records a fault, keeping the one that says most about the run (`CaseFault.rank`).
        package mutating func record(_ new: CaseFault) {
            if let fault, fault.rank > new.rank { return }
            fault = new
        }

        // MARK: - Secrets

        /// Looks for `secrets` besides from now on, and in everything recorded before them.
        package mutating func learn(_ secrets: [Redactor.PreparedSecret]) {
            let known = redactor.secretCount
            redactor.add(secrets)
            redactRecorded(since: known)
        }

        /// Looks for `secrets` besides from now on, and in everything recorded before them.
        package mutating func learn(_ secrets: [String]) {
            let known = redactor.secretCount
            redactor.add(secrets)
            redactRecorded(since: known)
        }

        /// What was recorded before the secrets after the first `known`, redacted with those alone (it was redacted
        /// with the others when it was recorded).
        private mutating func redactRecorded(since known: Int) {
            guard redactor.secretCount > known, !evidence.isEmpty || previousRequestFault != nil else { return }
            let later = redactor.secrets(after: known)
            if !evidence.isEmpty { evidence = later.redact(evidence) }
            previousRequestFault = previousRequestFault.map(later.redact)
        }

        // MARK: - Evidence

        /// Records an exchange, its transcript and headers redacted here; `excerpt` (an excerpt made by the case's
        /// redactor, redacted whole before it was cut: `Redactor.excerpt`) follows the transcript as it is.
        package mutating func record(_ exchange: Evidence.Exchange, then excerpt: String = "") {
            var exchange = exchange
            exchange.transcript = redactor.redact(exchange.transcript) + excerpt
            exchange.requestHeaders = redactor.redact(exchange.requestHeaders)
            exchange.responseHeaders = redactor.redact(exchange.responseHeaders)
            evidence.exchanges.append(exchange)
        }

        /// The link sent, redacted whole and cut to `limit` bytes.
        package mutating func recordLink(_ link: String, limit: Int) {
            evidence.link = redactor.excerpt(link, limit: limit)
        }

        /// The answer, redacted whole and cut to `limit` bytes (a summary the suite made is not cut: nil).
        package mutating func recordAnswer(_ answer: String, limit: Int?) {
            evidence.answer = limit.map { redactor.excerpt(answer, limit: $0) } ?? redactor.redact(answer)
        }

        /// What the target wrote to its standard error, redacted whole and cut to `limit` bytes.
        package mutating func recordStderr(_ text: String, limit: Int) {
            evidence.stderr = redactor.excerpt(text, limit: limit)
        }

        /// A fault of the request sent before this case, redacted.
        package mutating func recordPreviousRequestFault(_ text: String) {
            previousRequestFault = redactor.redact(text)
        }

        /// Every check's expected and observed text redacted, once, with every secret the case met.
        mutating func redactChecks() {
            if !checks.isEmpty { checks = checks.map(redactor.redact) }
        }
    }
}
