import AppFlipBase
import AppFlipDigest
import AppFlipEvidence
import AppFlipLoading
import AppFlipModel
import AppFlipReporting
import Foundation

/// `certify BUNDLE --sign-key REVIEWER.pem --reviewer NAME [--attest FILE] [--trusted-key PARTNER.pub]... --out FILE`:
/// a certification reviewer's signed decision. The bundle is verified first (everything `verify` checks); the
/// reviewer's own attestations decide the requirements no machine judges (the bundle's are shown, never counted);
/// an optional re-run on the reviewer's terms must reproduce every case; only then is the certificate written, an
/// in-toto Statement in a DSSE envelope signed with the reviewer's key. Anything short of that writes nothing.
enum CertifyCommand {
    /// Why `certify` stops before writing a certificate: what it said, and the exit status.
    private struct Stop: Error {
        var status: Int32
    }

    static func main(_ arguments: [String], console: Console) -> Int32 {
        let parsed: Arguments
        let request: Request
        do {
            parsed = try Arguments(arguments, CommandOptions.certify)
            if parsed.has(.help) {
                console.out(.suite(Usage.certify))
                return 0
            }
            request = try Request(parsed, console: console)
        } catch {
            return Command.usageError(error.message, details: error.details, usage: Usage.certify, console: console)
        }
        do throws(Stop) {
            let (check, document) = try verifiedCertification(request, console: console)
            guard let (catalog, suite) = SuiteLoading.load(cases: nil, catalog: nil, console: console) else {
                throw Stop(status: ExitStatus.usage.rawValue)
            }
            let judged = try judgedByReviewer(document, request: request, catalog: catalog, console: console)
            let outcomes = try decision(judged, catalog: catalog, suite: suite, console: console)
            let rerun = parsed.has(.rerun) ? try reproduced(check, parsed: parsed, today: request.today, console: console) : nil
            try writeCertificate(
                request, check: check, document: document, judged: judged, outcomes: outcomes, suite: suite, rerun: rerun, console: console)
            return 0
        } catch {
            return error.status
        }
    }

    /// The bundle, verified as `verify` verifies it, and its results: a certification's, or the run stops.
    private static func verifiedCertification(_ request: Request, console: Console) throws(Stop) -> (BundleCheck, ResultsDocument) {
        let check: BundleCheck
        switch BundleCheck.check(request.bundle, trusted: request.trusted, cases: nil, catalog: nil, console: console) {
        case .failure(let status): throw Stop(status: status.code)
        case .success(let checked): check = checked
        }
        guard check.intact, let document = check.verification.document else {
            console.err("error: the bundle does not verify (above): no certificate written")
            throw Stop(status: ExitStatus.nonConformant.rawValue)
        }
        guard document.run.certification == true else {
            console.err("error: the bundle is of an ordinary run, which certifies nothing: no certificate written")
            throw Stop(status: ExitStatus.nonConformant.rawValue)
        }
        return (check, document)
    }

    /// The bundle's results with the reviewer's attestations in place of the partner's (shown, never counted).
    private static func judgedByReviewer(
        _ document: ResultsDocument, request: Request, catalog: Catalog, console: Console
    ) throws(Stop) -> ResultsDocument {
        let programs = (document.run.certificationPrograms ?? catalog.programs.map(\.key)).compactMap { catalog.program($0) }
        var attestations: [Attestation] = []
        if let path = request.attest {
            do {
                // The reviewer's word, dated no later than today and for the bundle's programs only.
                let bounds = AttestationLoader.Bounds(latestDate: request.today, programs: programs)
                attestations = try AttestationLoader.load(path: path, catalog: catalog, bounds: bounds).attestations
            } catch {
                SuiteLoading.report(error, console: console)
                throw Stop(status: ExitStatus.usage.rawValue)
            }
        }
        for attestation in document.attestations ?? [] {
            console.out(
                "attested in the bundle (shown, not counted): \(attestation.requirement) \(attestation.verdict) by \(attestation.by) on \(attestation.date)"
            )
        }
        var judged = document
        judged.attestations = attestations.map {
            ResultsDocument.AttestationEntry(
                requirement: $0.requirement, verdict: $0.verdict.rawValue, by: $0.by, date: $0.date, note: $0.note,
                // The reviewer's attachments are named and hashed in the certificate; their bytes stay with the reviewer.
                attachments: $0.attachments.map {
                    ResultsDocument.AttachmentEntry(path: $0.path, bundlePath: $0.bundlePath, sha256: $0.sha256, bytes: $0.bytes)
                })
        }
        return judged
    }

    /// The decision: the cases as recorded, each program against its whole case list, the reviewer's attestations;
    /// every program must hold.
    private static func decision(_ judged: ResultsDocument, catalog: Catalog, suite: CaseSuite, console: Console) throws(Stop) -> [ProgramOutcome] {
        let outcomes = judged.programOutcomes(catalog: catalog, suite: suite)
        let refused = outcomes.filter { $0.status != .attestedByPartner }
        for outcome in refused {
            let reason = outcome.status == .awaitingAttestation ? "not attested by you: \(outcome.reason)" : outcome.reason
            console.out("NOT CERTIFIED: \(outcome.program.title) (\(reason))")
        }
        guard refused.isEmpty, !outcomes.isEmpty else {
            console.err("error: not every program holds: no certificate written")
            throw Stop(status: ExitStatus.nonConformant.rawValue)
        }
        return outcomes
    }

    /// The reviewer's re-run (`--rerun TARGET-OPTIONS`): every case must reproduce; what the certificate says of it.
    private static func reproduced(_ check: BundleCheck, parsed: Arguments, today: String, console: Console) throws(Stop) -> String {
        let outcome = BundleRerun.rerun(
            check.verification, reviewer: parsed.words(CommandOption.rerunTarget), reports: try? parsed.value(.rerunReports), console: console)
        for line in VerifyCommand.rerunLines(outcome) { console.out(line) }
        guard outcome.reproduced else {
            console.err("error: the re-run did not reproduce every case: no certificate written")
            throw Stop(status: ExitStatus.nonConformant.rawValue)
        }
        return "reproduced \(outcome.compared) of \(outcome.compared) on \(today)"
    }

    /// Signs and writes the certificate, and says where it is and how to check it.
    private static func writeCertificate(
        _ request: Request, check: BundleCheck, document: ResultsDocument, judged: ResultsDocument, outcomes: [ProgramOutcome],
        suite: CaseSuite, rerun: String?, console: Console
    ) throws(Stop) {
        let signedBy: String? = if case .signed(let fingerprint, _) = check.verification.signature { fingerprint } else { nil }
        let predicate = Certificate.Predicate(
            reviewer: request.reviewer, date: request.today, suiteVersion: document.suite.version, casesSha256: document.suite.casesDigest,
            catalogSha256: document.suite.catalogDigest ?? "", bundleSignedBy: signedBy,
            programs: outcomes.map {
                Certificate.Predicate.Program(
                    program: $0.program.key, title: $0.program.title, outcome: "certified",
                    cases: $0.program.caseIDs(in: suite.cases).count)
            },
            attestations: judged.attestations ?? [], partnerAttestations: document.attestations ?? [], rerun: rerun)
        do {
            let bytes = try Certificate.make(
                predicate: predicate, bundleName: URL(fileURLWithPath: request.bundle).lastPathComponent,
                bundleDigest: SHA256.hexDigest(check.bytes), privateKeyPEM: request.signingKey)
            try ReportFiles.save(bytes, to: request.out)
        } catch let failure as Certificate.Failure {
            console.err("error: \(failure.message): no certificate written")
            throw Stop(status: ExitStatus.usage.rawValue)
        } catch {
            console.err("error: the certificate cannot be written to \(request.out): \(String(describing: error))")
            throw Stop(status: ExitStatus.reportsNotWritten.rawValue)
        }
        let titles = outcomes.map(\.program.title).joined(separator: ", ")
        console.out(
            "certificate: \(request.out), signed by you for bundle sha256 \(SHA256.hexDigest(check.bytes)): \(titles) "
                + "(check it: verify \(request.out) --trusted-key YOUR.pub)")
    }

    /// What `certify` was asked, each part read and checked before the bundle is.
    private struct Request {
        var bundle: String
        var out: String
        var reviewer: String
        var signingKey: [UInt8]
        var attest: String?
        var trusted: [String]
        var today: String

        init(_ parsed: Arguments, console: Console) throws(Arguments.UsageError) {
            guard parsed.positionals.count == 1, let bundle = parsed.positionals.first else {
                throw Arguments.UsageError(message: "certify takes one bundle")
            }
            self.bundle = bundle
            guard let out = try parsed.value(.certificateOut) else {
                throw Arguments.UsageError(message: "give --out FILE, where the certificate goes")
            }
            self.out = out
            guard let reviewer = try parsed.value(.reviewer), reviewer.trimmingCharacters(in: .whitespaces).count >= 2 else {
                throw Arguments.UsageError(message: "give --reviewer NAME: who decides, as the certificate will name them")
            }
            self.reviewer = reviewer.trimmingCharacters(in: .whitespaces)
            guard let keyPath = try parsed.value(.signKey) else { throw Arguments.UsageError(message: "give --sign-key KEY.pem, your private key") }
            do {
                signingKey = try BoundedFile.read(keyPath, limit: 64 << 10)
                _ = try Ed25519.sign([], privateKeyPEM: signingKey)
            } catch let failure as Ed25519.Failure {
                throw Arguments.UsageError(
                    message: "--sign-key \(keyPath): \(failure.message) (a reviewer signs with a private key, not a public one)")
            } catch {
                throw Arguments.UsageError(message: "--sign-key: \(error)")
            }
            attest = try parsed.value(.attest)
            trusted = try TrustedKeys.read(parsed.values(.trustedKey), console: console).map(\.fingerprint)
            if !parsed.has(.rerun) {
                let target = parsed.words(CommandOption.rerunTarget)
                if let first = target.first(where: { $0.hasPrefix("-") && $0 != "--" }) ?? target.first {
                    throw Arguments.UsageError(message: "\(first) names the target of a re-run: give --rerun too")
                }
            }
            today = UTCTimestamp.day(Date())
            if let problem = ReportFiles.problem(
                writing: (out as NSString).deletingLastPathComponent.isEmpty ? "." : (out as NSString).deletingLastPathComponent)
            {
                throw Arguments.UsageError(message: "--out: \(problem)")
            }
        }
    }
}
