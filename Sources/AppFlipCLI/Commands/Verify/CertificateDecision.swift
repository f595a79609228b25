import AppFlipDigest
import AppFlipEvidence
import AppFlipLoading
import AppFlipModel
import AppFlipReporting
import AppFlipSuite

/// `verify CERTIFICATE.json --trusted-key REVIEWER.pub [--bundle BUNDLE]`: checks a reviewer's certificate (a DSSE
/// envelope around an in-toto Statement) and prints the decision. The only place the suite prints CERTIFIED.
enum CertificateDecision {
    static func decide(_ bytes: [UInt8], options: VerifyCommand.Options, trusted: [TrustedKeys.Key], console: Console) -> Int32 {
        let path = options.path
        guard !trusted.isEmpty else {
            return Command.usageError(
                "\(path) is a certificate: give --trusted-key with the reviewer's public key, or nothing says who decided",
                usage: Usage.verify, console: console)
        }
        let verification: Certificate.Verification
        do {
            verification = try Certificate.verify(bytes, trusted: trusted.map { ($0.fingerprint, $0.pem) })
        } catch {
            console.err("error: \(path): \(error.message)")
            return ExitStatus.nonConformant.rawValue
        }
        var problems = verification.problems
        let statement = verification.statement
        let subject = statement.subject.first?.digest["sha256"] ?? "none"
        if let bundle = options.certificateBundle {
            do {
                let digest = SHA256.hexDigest(try BoundedFile.read(bundle, limit: BoundedFile.bundleLimit))
                if digest != subject {
                    problems.append("the bundle \(bundle) hashes sha256 \(digest), not the \(subject) the certificate is for")
                }
            } catch {
                problems.append("the bundle \(bundle) cannot be read: \(error.message)")
            }
        }
        let predicate = statement.predicate
        if predicate.programs.isEmpty || predicate.programs.contains(where: { $0.outcome != "certified" }) {
            problems.append("the certificate names no certified program")
        }
        for problem in problems { console.out("PROBLEM \(problem)") }
        show(verification, subject: subject, console: console)
        let holds = problems.isEmpty && verification.signedBy != nil
        if holds {
            for program in predicate.programs {
                console.out(
                    "CERTIFIED: \(program.title) by \(predicate.reviewer) on \(predicate.date) for bundle sha256 \(subject)")
            }
        }
        console.out(holds ? "verified" : "NOT verified")
        return holds ? 0 : ExitStatus.nonConformant.rawValue
    }

    /// What the certificate says: for which bundle, who signed it, the suite, each attestation (the partner's shown,
    /// not counted), the re-run.
    private static func show(_ verification: Certificate.Verification, subject: String, console: Console) {
        let predicate = verification.statement.predicate
        console.out("certificate: \(Certificate.predicateType), for bundle sha256 \(subject)")
        let signature = verification.signedBy.map { "signed by \($0), a trusted key" } ?? "by none of the trusted keys"
        console.out("signature: \(signature)")
        console.out("suite: \(predicate.suiteVersion), cases sha256 \(predicate.casesSha256), catalog sha256 \(predicate.catalogSha256)")
        if let signer = predicate.bundleSignedBy { console.out("the bundle was signed by \(signer)") }
        for attestation in predicate.attestations {
            console.out("attested by the reviewer: \(attestation.requirement) \(attestation.verdict) by \(attestation.by) on \(attestation.date)")
        }
        for attestation in predicate.partnerAttestations {
            let line = "attested by the partner (shown, not counted): \(attestation.requirement) \(attestation.verdict) by \(attestation.by) on "
            console.out("\(line)\(attestation.date)")
        }
        if let rerun = predicate.rerun { console.out("re-run: \(rerun)") }
    }
}
