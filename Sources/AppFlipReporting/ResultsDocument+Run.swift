import AppFlipModel

extension ResultsDocument {
    /// The document for a finished run. `reproducible` leaves out times and the start timestamp, as the other
    /// reports do, so the same inputs give the same bytes.
    package init(run: RunResult, profiles: [String], reproducible: Bool = false) {
        self.init(run: run, profiles: profiles, reproducible: reproducible, listingCases: true)
    }

    /// The document; without `listingCases` its case list is empty (the streaming writer writes the cases itself).
    /// `outcomes`: the run's requirement outcomes when the caller worked them out already.
    init(run: RunResult, profiles: [String], reproducible: Bool, listingCases: Bool, outcomes: [RequirementOutcome]? = nil) {
        let provenance = run.provenance
        schema = Self.schemaName
        version = Self.currentVersion
        suite = Suite(
            version: provenance.suiteVersion, casesDigest: provenance.caseDigest, caseFiles: provenance.caseFileCount,
            catalogDigest: provenance.catalogDigest, casesBuiltIn: provenance.casesBuiltIn, catalogBuiltIn: provenance.catalogBuiltIn)
        self.run = Run(
            seed: provenance.seed, target: provenance.target, mode: provenance.mode, jobs: provenance.jobs,
            filter: provenance.filter, samples: provenance.samples, startedAt: reproducible ? nil : provenance.startedAt,
            durationSeconds: reproducible ? 0 : provenance.duration, command: provenance.command,
            transport: provenance.transport, handlerStartup: provenance.handlerStartup,
            handlerStartupMeasured: reproducible ? nil : provenance.handlerStartupMeasured, incomplete: run.incomplete,
            certification: provenance.certification ? true : nil,
            certificationPrograms: provenance.certification ? provenance.certificationPrograms : nil, shard: provenance.shard,
            arguments: provenance.runArguments, executableSha256: provenance.executableSHA256, platform: provenance.platform,
            toolchain: provenance.toolchain, targetLabel: provenance.targetLabel, targetVersion: provenance.targetVersion,
            sourceCommit: provenance.sourceCommit,
            adapters: provenance.adapterFiles.isEmpty
                ? nil
                : provenance.adapterFiles.map {
                    AdapterEntry(
                        role: $0.role, path: $0.path, sha256: $0.sha256, problem: $0.problem, sha256Before: $0.changed ? $0.sha256Before : nil,
                        suiteReference: $0.suiteReference ? true : nil)
                },
            runBy: reproducible ? nil : provenance.runBy, host: reproducible ? nil : provenance.host)
        outcome = Outcome(
            verdict: run.overall.rawValue, exitCode: run.exitStatus.rawValue,
            counts: Dictionary(uniqueKeysWithValues: Verdict.allCases.map { ($0.rawValue, run.count($0)) }),
            configurationProblems: run.configurationProblems,
            baseline: run.baseline.map { baseline in
                BaselineEntry(
                    path: baseline.path, entries: baseline.entries, known: run.knownCount,
                    problems: baseline.problems.map(\.message), unexercised: baseline.unexercised.map(\.summary),
                    judgedOn: reproducible ? nil : baseline.judgedOn)
            },
            certification: provenance.certification ? run.programOutcomes.map { ProgramEntry($0, catalog: run.catalog) } : nil)
        self.profiles = run.coverage(of: profiles).map { entry in
            ProfileEntry(
                profile: entry.profile, cases: entry.total, judged: entry.judged, tested: entry.isTested,
                reason: entry.reason.isEmpty ? nil : entry.reason)
        }
        requirements = (outcomes ?? run.requirementOutcomes).map { outcome in
            let requirement = outcome.requirement
            return RequirementEntry(
                id: requirement.id, level: requirement.level.rawValue, profile: requirement.profile,
                title: requirement.title, verdict: outcome.verdict?.rawValue ?? "not-covered",
                cases: outcome.caseCount, uncovered: outcome.caseCount == 0 ? requirement.uncoveredReason : nil,
                attested: run.attestations.first { $0.requirement == requirement.id }?.verdict.rawValue)
        }
        attestations =
            run.attestations.isEmpty
            ? nil
            : run.attestations.map { attestation in
                AttestationEntry(
                    requirement: attestation.requirement, verdict: attestation.verdict.rawValue, by: attestation.by,
                    date: attestation.date, note: attestation.note,
                    attachments: attestation.attachments.map {
                        AttachmentEntry(path: $0.path, bundlePath: $0.bundlePath, sha256: $0.sha256, bytes: $0.bytes)
                    })
            }
        cases = listingCases ? run.results.map { CaseEntry($0, reproducible: reproducible) } : []
    }
}

extension ResultsDocument.ProgramEntry {
    package init(_ outcome: ProgramOutcome, catalog: Catalog) {
        self.init(
            program: outcome.program.key, title: outcome.program.title, status: outcome.status.rawValue,
            reason: outcome.reason.isEmpty ? nil : outcome.reason, toAttest: catalog.toAttest(for: [outcome.program]).map(\.id))
    }
}

extension ResultsDocument.CaseEntry {
    /// One case as results.json lists it.
    package init(_ result: CaseResult, reproducible: Bool) {
        let conformanceCase = result.conformanceCase
        let evidence = result.evidence
        self.init(
            id: conformanceCase.id, title: conformanceCase.title, profile: conformanceCase.profile.rawValue,
            group: conformanceCase.group, file: conformanceCase.location.file, line: conformanceCase.location.line,
            formerly: conformanceCase.formerly.isEmpty ? nil : conformanceCase.formerly,
            scenario: conformanceCase.scenario.rawValue, verdict: result.verdict.rawValue, message: result.message,
            notJudged: result.notJudged, conditionUnmet: result.conditionUnmet ? true : nil, configurationProblem: result.configurationProblem,
            suiteFault: result.suiteFault,
            unreachableTarget: result.unreachable.map { ResultsDocument.UnreachableEntry(key: $0.key, reason: $0.reason) },
            knownFailure: result.isKnown ? result.knownBy.map(\.summary) : nil,
            durationSeconds: reproducible ? 0 : result.duration,
            checks: result.checks.map { check in
                ResultsDocument.CheckEntry(
                    requirement: check.requirement.id, level: check.requirement.level.rawValue,
                    verdict: check.isApplicable ? check.verdict.rawValue : "not-applicable", expected: check.expected,
                    observed: check.isApplicable ? check.observed : nil, notApplicable: check.notApplicable)
            },
            evidence: ResultsDocument.EvidenceEntry(
                link: evidence.link.isEmpty ? nil : evidence.link, answer: evidence.answer.isEmpty ? nil : evidence.answer,
                stderr: evidence.stderr.isEmpty ? nil : evidence.stderr,
                exchanges: evidence.exchanges.map { ResultsDocument.ExchangeEntry($0, reproducible: reproducible) }))
    }
}

extension ResultsDocument.ExchangeEntry {
    /// The entry for one exchange; a reproducible document leaves out its time (it varies from run to run).
    init(_ exchange: Evidence.Exchange, reproducible: Bool) {
        func entries(_ headers: [Evidence.Header]) -> [ResultsDocument.HeaderEntry]? {
            headers.isEmpty ? nil : headers.map { ResultsDocument.HeaderEntry(name: $0.name, value: $0.value) }
        }
        self.init(
            transcript: exchange.transcript, sentAt: reproducible ? nil : exchange.sentAt.map(Evidence.Exchange.timestamp),
            milliseconds: reproducible ? nil : exchange.milliseconds, requestHeaders: entries(exchange.requestHeaders),
            responseHeaders: entries(exchange.responseHeaders))
    }

    /// The exchange this entry records.
    package var exchange: Evidence.Exchange {
        Evidence.Exchange(
            transcript, sentAt: sentAt.flatMap(Evidence.Exchange.date), milliseconds: milliseconds,
            requestHeaders: (requestHeaders ?? []).map { Evidence.Header($0.name, $0.value) },
            responseHeaders: (responseHeaders ?? []).map { Evidence.Header($0.name, $0.value) })
    }
}
