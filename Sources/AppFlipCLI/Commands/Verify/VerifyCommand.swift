import AppFlipDigest
import AppFlipEvidence
import AppFlipLoading
import AppFlipModel
import AppFlipReporting
import AppFlipSession
import AppFlipSuite
import Foundation

/// `verify BUNDLE`: checks an evidence bundle file by file against its manifest, checks that its case files are the
/// suite's (the same SHA-256 as the cases built into this binary, or those at `--cases`), and prints the verdict it
/// records and how to re-run exactly those cases.
enum VerifyCommand {
    /// What `verify` was given: the bundle or certificate, the trusted keys, and for a re-run its target (the
    /// reviewer's, never the bundle's) and where its reports go.
    struct Options {
        var path: String
        var trustedKeyPaths: [String]
        var rerun: Bool
        var rerunReports: String?
        /// The re-run's target as the reviewer's words give it (`--target`, `--link`, a handler command).
        var reviewer: [String]
        var cases: String?
        var catalog: String?
        /// The bundle a certificate is for (`--bundle`, with a certificate).
        var certificateBundle: String?

        /// Nil for `--help`.
        init?(_ arguments: [String]) throws(Arguments.UsageError) {
            let parsed = try Arguments(arguments, CommandOptions.verify)
            if parsed.has(.help) { return nil }
            guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
                throw Arguments.UsageError(message: "verify takes one bundle")
            }
            rerun = parsed.has(.rerun)
            if !parsed.values(.rerunReports).isEmpty && !rerun {
                throw Arguments.UsageError(message: "--reports is where --rerun writes its reports: give --rerun too")
            }
            // The re-run's target is the reviewer's to name, and only for a re-run.
            reviewer = parsed.words(CommandOption.rerunTarget)
            if !reviewer.isEmpty && !rerun {
                throw Arguments.UsageError(
                    message:
                        "\(reviewer.first { $0.hasPrefix("-") && $0 != "--" } ?? "a handler command") names the target of a re-run: give --rerun too")
            }
            self.path = path
            trustedKeyPaths = parsed.values(.trustedKey)
            rerunReports = try? parsed.value(.rerunReports)
            cases = try? parsed.value(.cases)
            catalog = try? parsed.value(.catalog)
            certificateBundle = try? parsed.value(.certificateBundle)
        }
    }

    static func main(_ arguments: [String], console: Console) -> Int32 {
        let options: Options
        let trusted: [TrustedKeys.Key]
        switch Command.options(arguments, usage: Usage.verify, console: console, Options.init) {
        case .success(let given): options = given
        case .failure(let exit): return exit.status
        }
        do {
            trusted = try TrustedKeys.read(options.trustedKeyPaths, console: console)
        } catch {
            return Command.usageError(error.message, usage: Usage.verify, console: console)
        }
        // A reviewer's certificate is checked as one; anything else is a bundle.
        // The file is read once: what is read here (whole, within a bundle's bound) is what the bundle check reads.
        let bytes = try? BoundedFile.read(options.path, limit: BoundedFile.bundleLimit)
        if let bytes, Certificate.looksLikeCertificate(bytes) {
            return CertificateDecision.decide(bytes, options: options, trusted: trusted, console: console)
        }
        let check: BundleCheck
        switch BundleCheck.check(
            options.path, bytes: bytes, trusted: trusted.map(\.fingerprint), cases: options.cases, catalog: options.catalog, console: console)
        {
        case .failure(let status): return status.code
        case .success(let checked): check = checked
        }
        var intact = check.intact
        if options.rerun {
            // Only a bundle that verified, signature included, is worth the reviewer's machine.
            let outcome =
                intact
                ? BundleRerun.rerun(check.verification, reviewer: options.reviewer, reports: options.rerunReports, console: console)
                : BundleRerun.Outcome(refusal: "the bundle did not verify (above), so none of it was re-run")
            for line in Self.rerunLines(outcome) { console.out(line) }
            intact = intact && outcome.reproduced
        }
        console.out(intact ? "verified" : "NOT verified")
        return intact ? 0 : ExitStatus.nonConformant.rawValue
    }

    /// What the reviewer's re-run found, as `verify` prints it: each case that differs with both verdicts.
    static func rerunLines(_ outcome: BundleRerun.Outcome) -> [ConsoleText] {
        if let refusal = outcome.refusal { return ["re-run result: NOT RUN: \(refusal)"] }
        if outcome.compared == 0 { return ["re-run result: the bundle records no case, so nothing was compared"] }
        if outcome.differences.isEmpty { return ["re-run result: reproduced \(outcome.compared) of \(outcome.compared)"] }
        let reproduced = outcome.compared - outcome.differences.count
        return ["re-run result: reproduced \(reproduced) of \(outcome.compared); \(outcome.differences.count) differ:"]
            + outcome.differences.map { difference in
                "  \(difference.id): recorded \(difference.recorded), re-run \(difference.now ?? "not run")"
            }
    }

    /// What the signature says, and whether it lets the bundle be verified: one that does not check never does; with
    /// trusted keys, only a signature by one of them does.
    static func signature(_ check: EvidenceBundle.SignatureCheck, trusted: [String]) -> (line: String, holds: Bool) {
        switch check {
        case .unsigned:
            return trusted.isEmpty
                ? ("signature: none (the bundle is not signed; anyone could have written it)", true)
                : ("signature: NONE, and --trusted-key asks for one: NOT verified", false)
        case .invalid(let why):
            return ("signature: NOT VALID: \(why)", false)
        case .signed(let fingerprint, _):
            if trusted.isEmpty { return ("signature: signed by \(fingerprint) (not compared with a key you trust: give --trusted-key)", true) }
            return trusted.contains(fingerprint)
                ? ("signature: signed by \(fingerprint), a trusted key", true)
                : ("signature: signed by \(fingerprint), which is none of the trusted keys (\(trusted.joined(separator: ", "))): NOT verified", false)
        }
    }

    /// What the bundle says was certified and tested, and by whom: its certification (each program's outcome, as
    /// derived again above), the target's label, the adapters' digests, who ran it and where.
    static func identity(_ document: ResultsDocument) -> [ConsoleText] {
        var lines: [ConsoleText] = []
        if document.run.certification == true {
            let outcomes = (document.outcome.certification ?? []).map { entry in
                let words =
                    switch ProgramOutcome.Status(rawValue: entry.status) {
                    case .attestedByPartner: ProgramOutcome.attestedWords
                    case .awaitingAttestation: "PASSED BY THE SUITE, AWAITING ATTESTATION"
                    case .shard: "one shard of"
                    case .notCertified, nil: "NOT A CERTIFICATION PASS"
                    }
                return (entry.status == "shard" ? "\(words) \(entry.title)" : "\(words): \(entry.title)") + (entry.reason.map { " (\($0))" } ?? "")
            }
            lines.append("certification run: \(outcomes.isEmpty ? "no program recorded" : outcomes.joined(separator: "; "))")
        } else {
            lines.append("certification run: no (an ordinary run; it certifies nothing)")
        }
        lines.append("target label: \(document.run.targetLabel ?? "none given")")
        lines.append("target version: \(document.run.targetVersion ?? "none given")")
        // The suite's own reference adapters are named as such by this release's digests, whatever the bundle says.
        // (The executable that ran, as recorded, is one of them too: its internal commands are the reference's.)
        let reference = AdapterDigests.referenceDigests(ownDigest: RunIdentity.executableDigest.value())
            .union([document.run.executableSha256].compactMap { $0 })
        for adapter in document.run.adapters ?? [] {
            var file = adapter.file
            file.suiteReference = file.suiteReference || file.sha256.map(reference.contains) == true
            lines.append("adapter: \(file.summary)")
        }
        lines.append("run by: \(document.run.runBy ?? (document.run.startedAt == nil ? "not in a reproducible report" : "not recorded"))")
        if let host = document.run.host { lines.append("host: \(host)") }
        return lines
    }

    /// The reviewer's re-run command, with its target still to be named.
    static func rerunCommand(_ bundle: String) -> String {
        CommandLineText.quoted([bundle, "--rerun"], subcommand: "verify", program: CommandLineText.invokedProgram()) + " TARGET-OPTIONS"
    }

    /// What the reviewer must name for a re-run: the adapters with the recorded digests (at any path), the endpoints
    /// and credentials in their own configuration. None of it comes from the bundle.
    static func rerunNeeds(_ document: ResultsDocument?, bundledConfiguration: Bool = false) -> String {
        guard let document else { return "the target the run was pointed at (results.json cannot be read)" }
        var needs: [String] = []
        let adapters = document.run.adapters ?? []
        if !adapters.isEmpty {
            needs.append("the adapters with the SHA-256 above, at any path (a file with another digest is refused before anything runs)")
        }
        needs.append(
            document.run.certification == true
                ? "the endpoints, credentials and sign-in users its programs need, in your own --config"
                : "the target's endpoints and credentials, in your own --config or flags")
        if bundledConfiguration {
            needs.append(
                "to compare with yours, the run's configuration (the bundle holds it, secrets hidden, at \(EvidenceBundle.configurationPath))")
        }
        return needs.joined(separator: "; ")
    }
}
