import AppFlipDigest
import AppFlipLoading
import AppFlipModel
import AppFlipReporting
import AppFlipSuite
import Foundation

/// `verify BUNDLE`: checks an evidence bundle file by file against its manifest, checks that its case files are the
/// suite's (the same SHA-256 as the cases built into this binary, or those at `--cases`), and prints the verdict it
/// records and how to re-run exactly those cases.
enum VerifyCommand {
    static func main(_ arguments: [String], console: Console) -> Int32 {
        let parsed: Arguments
        do {
            parsed = try Arguments(arguments, CommandOptions.verify)
        } catch {
            return Command.usageError(error.message, usage: Usage.verify, console: console)
        }
        if parsed.has(.help) {
            console.out(.suite(Usage.verify))
            return 0
        }
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            return Command.usageError("verify takes one bundle", usage: Usage.verify, console: console)
        }
        if !parsed.values(.rerunReports).isEmpty && !parsed.has(.rerun) {
            return Command.usageError("--reports is where --rerun writes its reports: give --rerun too", usage: Usage.verify, console: console)
        }
        // The re-run's target is the reviewer's to name, and only for a re-run.
        let reviewer = parsed.words(CommandOption.rerunTarget)
        if !reviewer.isEmpty && !parsed.has(.rerun) {
            return Command.usageError(
                "\(reviewer.first { $0.hasPrefix("-") && $0 != "--" } ?? "a handler command") names the target of a re-run: give --rerun too",
                usage: Usage.verify, console: console)
        }
        // The keys whose signature the reviewer trusts, each read and checked before the bundle.
        var trusted: [String] = []
        for keyPath in parsed.values(.trustedKey) {
            do {
                // Every key of the file, each named: none taken silently, none dropped silently.
                let keys = try Ed25519.publicKeyFingerprints(inPEM: try BoundedFile.read(keyPath, limit: 64 << 10))
                for key in keys { console.out("trusting \(key) (from \(keyPath))") }
                trusted += keys
            } catch let failure as BoundedFile.Failure {
                return Command.usageError("--trusted-key: \(failure.message)", usage: Usage.verify, console: console)
            } catch let failure as Ed25519.Failure {
                return Command.usageError("--trusted-key \(keyPath): \(failure.message)", usage: Usage.verify, console: console)
            } catch {
                return Command.usageError("--trusted-key \(keyPath): \(error)", usage: Usage.verify, console: console)
            }
        }
        let data: [UInt8]
        do {
            data = try BoundedFile.read(path, limit: BoundedFile.bundleLimit)
        } catch {
            console.err("error: \(error.reason == "cannot be read" ? "cannot read \(path)" : error.message)")
            return ExitStatus.usage.rawValue
        }
        let verification: EvidenceBundle.Verification
        do {
            verification = try EvidenceBundle.verify(data)
        } catch {
            console.err("error: \(path): \(error.message)")
            return ExitStatus.nonConformant.rawValue
        }
        var problems = verification.problems
        let manifest = verification.manifest
        // The bundled cases, loaded as a run would load them: their digest must be the one the run recorded.
        let bundled = bundledSuiteDigest(verification.entries)
        if let bundled, bundled != manifest.casesDigest {
            problems.append("the bundled case files hash to \(bundled.prefix(12))…, not the \(manifest.casesDigest.prefix(12))… the run recorded")
        } else if bundled == nil {
            problems.append("the bundled case files do not load")
        }
        let localCases = try? parsed.value(.cases)
        let local = SuiteLoading.load(cases: localCases, catalog: try? parsed.value(.catalog), console: Console(out: { _ in }, err: { _ in }))
        let matchesSuite = local?.1.digest == manifest.casesDigest
        let suiteName = localCases.map { "the cases at \($0)" } ?? "the cases built into this binary"
        // The catalog judges as much as the cases do: a partner's own could redefine a program to judge anything.
        let bundledCatalog = verification.entries.first { $0.path == EvidenceBundle.catalogPath }.map { SHA256.hexDigest($0.bytes) }
        let localCatalog = try? parsed.value(.catalog)
        let matchesCatalog = bundledCatalog != nil && local.flatMap { BuiltInSuite.digest(of: $0.0) } == bundledCatalog
        let catalogName = localCatalog.map { "the catalog at \($0)" } ?? "the catalog built into this binary"
        for problem in problems { console.out("PROBLEM \(problem)") }
        console.out("bundle: \(manifest.files.count) files" + (problems.isEmpty ? ", every SHA-256 as the manifest lists" : ""))
        console.out(
            "cases: sha256 \(manifest.casesDigest) — "
                + (matchesSuite
                    ? "\(suiteName) (suite \(SuiteVersion.current))"
                    : "NOT \(suiteName) (suite \(SuiteVersion.current)): modified, or another version's"))
        let catalogLine =
            "catalog: " + (bundledCatalog.map { "sha256 \($0)" } ?? "missing") + " — "
            + (matchesCatalog ? catalogName : "NOT \(catalogName): another catalog judged this run, and it certifies nothing here")
        console.out("\(catalogLine)")
        console.out(
            "recorded: \(manifest.verdict) (exit \(manifest.exitCode)), suite \(manifest.suiteVersion), seed \(manifest.seed), "
                + "target \(manifest.target)" + (manifest.startedAt.map { ", started \($0)" } ?? ""))
        for attestation in verification.attestations {
            let files = attestation.attachments.count
            console.out(
                "attested by hand (not judged by the suite): \(attestation.requirement) \(attestation.verdict) by \(attestation.by) on "
                    + "\(attestation.date)" + (files == 0 ? "" : " (\(files) attachment\(files == 1 ? "" : "s"), SHA-256 checked)"))
        }
        if let document = verification.document {
            for line in Self.identity(document) { console.out(line) }
        }
        console.out("re-run: \(Self.rerunCommand(path)) (name your target as for `run`; nothing of the bundle is executed)")
        let bundledConfiguration = verification.entries.contains { $0.path == EvidenceBundle.configurationPath }
        console.out("re-run needs: \(Self.rerunNeeds(verification.document, bundledConfiguration: bundledConfiguration))")
        let (signatureLine, signatureHolds) = Self.signature(verification.signature, trusted: trusted)
        console.out("\(signatureLine)")
        var intact = problems.isEmpty && matchesSuite && matchesCatalog && signatureHolds
        if parsed.has(.rerun) {
            // Only a bundle that verified, signature included, is worth the reviewer's machine.
            let outcome =
                intact
                ? BundleRerun.rerun(verification, reviewer: reviewer, reports: try? parsed.value(.rerunReports), console: console)
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
                    case .certified: "CERTIFIED"
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

    /// The digest of the bundle's `cases/` files, computed by loading them as a run does.
    private static func bundledSuiteDigest(_ entries: [TarArchive.Entry]) -> String? {
        let files = entries.filter { $0.path.hasPrefix("cases/") }.map { SuiteFile(path: $0.path, bytes: $0.bytes) }
        return try? CaseLoader.load(files: files, base: "cases", catalog: nil).digest
    }
}
