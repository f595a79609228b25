import AppFlipModel

/// The command's help text.
package enum Usage {
    static let main = """
        usage: appflip-conformance <command> [options]

        commands:
          run     run the conformance cases against a target (handler, endpoints, native app) and write reports
          lint    check case files (and the requirement catalog) without running anything
          list    list the cases that a run would execute
          validate-url  judge a native app's authorization request URL on what the URL alone shows
          diff    compare two runs (their results.json): what regressed, what was fixed, what changed
          merge   combine the shards of one run (--shard I/N) into one set of reports and one verdict
          verify  check an evidence bundle (--bundle): every file's SHA-256, the suite's case files, the verdict;
                  or a reviewer's certificate, which alone says CERTIFIED
          certify a certification reviewer's signed decision on a verified bundle: an in-toto certificate
          detection  run every shipped defect against the suite: each requirement, the defects that fail it
          help    show this help, or `help <command>`
          version show the suite's version (also -V, --version)

        exit codes (of run; each command's help gives its own):
        """ + "\n" + ExitStatus.helpLines

    static let run = """
        usage: appflip-conformance run --target reference [options]
               appflip-conformance run --link URL --client-id ID [options] -- HANDLER [HANDLER-ARGS...]
               appflip-conformance run --link URL --client-id ID --handler-url URL [options]
               appflip-conformance run --profile native-client --client-id ID --native-client ADAPTER [options]
               appflip-conformance run --profile android-app-flip --client-id ID --android-handler ADAPTER --android-action ACTION --android-package NAME [options]
               appflip-conformance run --config FILE [--profile NAME]... [options] [-- HANDLER [HANDLER-ARGS...]]

        The handler command after `--` is started directly (never through a shell) and speaks the JSON Lines
        adapter contract described in Documentation/AdapterContracts.md. A target configuration file (--config) holds what the flags
        above give, and the endpoints (Documentation/Configuration.md).

        """ + "\n" + CommandOption.runHelp + "\n\n" + """
            exit codes:
            """ + "\n" + ExitStatus.helpLines

    /// Every command's help, by name, for `help NAME`.
    package static let topics = [
        "run": run, "lint": lint, "list": list, "validate-url": validateURL, "diff": diff, "merge": merge, "verify": verify, "certify": certify,
        "detection": detection,
    ]
    /// The commands with a help topic, known without building the topics: `run`'s help reads the catalog for its
    /// programs, which an adapter process (`reference-handler`) must not pay for at every start.
    package static let topicNames: Set<String> = ["run", "lint", "list", "validate-url", "diff", "merge", "verify", "certify", "detection"]

    static let verify = """
        usage: appflip-conformance verify BUNDLE [--cases PATH] [--catalog PATH] [--trusted-key PUB.pem]...
               appflip-conformance verify BUNDLE [--trusted-key PUB.pem]... --rerun [--reports DIR] TARGET-OPTIONS [-- HANDLER...]
               appflip-conformance verify CERTIFICATE.json --trusted-key REVIEWER.pub [--bundle BUNDLE]

        Checks an evidence bundle written by `run --bundle FILE`: every file against the SHA-256 its manifest lists,
        nothing unlisted, the bundled case files loading to the digest the run recorded, and that digest being the
        one of the cases built into this binary (its release's digest; or of the cases at --cases PATH). Prints
        the verdict the bundle records. A signed bundle (`run --sign-key`) says whose key signed it: with
        --trusted-key (repeatable) it is verified only when signed by one of those keys.

        Given a reviewer's certificate (written by `certify`), checks its signature against the trusted keys, and
        with --bundle that it is for that bundle, and prints the decision: "CERTIFIED: PROGRAM by REVIEWER on DATE
        for bundle sha256 ...". Nothing else the suite prints says CERTIFIED.

        Given --rerun, and only once the bundle verified (its signature too, with --trusted-key), the bundle's
        cases run again against the target YOU name with the options below, as for `run`, and each verdict is
        compared with the recorded one: "reproduced N of N", or each case that differs with both verdicts. Nothing
        of the bundle is executed: no program, argument, environment variable, URL, file path or time limit comes
        from it. The adapter files your options name are hashed before the first case and must be the ones the
        bundle records, role by role (at any path); any other, or one the record holds and you do not name, and
        nothing runs. The seed is fresh unless you give --seed: verdicts must reproduce, not values. What is about
        to run (cases, adapters and digests, URLs, bounds) is printed before the first case.

          --trusted-key PUB.pem   an Ed25519 public key (PEM, as openssl pkey writes one; Documentation/Certification.md) whose signature you trust
          --bundle BUNDLE         given a certificate, the bundle it must be for (its SHA-256 is compared)
          --rerun                 run the bundle's cases again against your target and compare the verdicts, case by case
          --reports DIR           given --rerun, keep the re-run's reports in DIR (default: a temporary directory, removed)

        target options (given --rerun; as `help run` explains them):
        """ + "\n" + CommandOption.rerunTargetHelp + "\n\n" + """
            The re-run stops starting cases after --time-limit (default: \(BundleRerun.defaultTimeLimit) s); the cases
            not reached do not reproduce.

            Exit codes: 0 verified (and, with --rerun, every case reproduced), 1 not verified (a file changed, missing or
            added; a signature that does not check, or by no trusted key; a case that did not reproduce, or a re-run that
            could not start; other cases), 2 unreadable, or a bad command line.
            """

    static let detection = """
        usage: appflip-conformance detection [--defect NAME]... [--jobs N] [--seed N] [--keep DIR]
               appflip-conformance detection --document

        The proof that the suite fails a partner who breaks a requirement: runs every defect the package ships
        (appflip-reference serve --defect, and the broken-handler, broken-android-handler and broken-native-client
        built beside this executable) against the suite, each with its own reference server on loopback, in
        processes of their own, bounded in time, several at once. Each defect must fail exactly the MUST
        requirements and warn under exactly the SHOULD requirements it names, with no case in error; each correct
        variant must fail and warn nothing. Prints each defect's result as it ends, then every requirement a
        machine judges with the defects that failed it, and ends with "detection: N of M automated MUST/MUST NOT
        requirements failed by a shipped defect (K defects run)". Nothing is contacted but loopback.

          --defect NAME           run only this defect (family/name, or a name in any family); repeatable
          --jobs N                defects run at once (default: the number of cores)
          --seed N                the seed every run uses (default: a fresh one, printed)
          --keep DIR              keep every run's configuration, log and reports in DIR
          --document              print Conformance/DETECTION.md as the catalogs declare it, and run nothing

        Exit codes: 0 every defect showed exactly what it names and every automated MUST is failed by one, 1 a
        defect showed something else (the suite stopped catching it, or blames another requirement), 2 a bad command
        line or a program missing, 8 every defect showed what it names, but some automated MUST is failed by none
        (each is named).
        """

    static let certify = """
        usage: appflip-conformance certify BUNDLE --sign-key REVIEWER.pem --reviewer NAME --out CERTIFICATE.json
                                           [--attest FILE] [--trusted-key PARTNER.pub]... [--rerun [--reports DIR] TARGET-OPTIONS]

        A certification reviewer's decision on a partner's bundle. The bundle is verified first, as `verify` does
        (signature included, with --trusted-key); one that does not verify gets no certificate. Then each program
        is decided from the bundle's cases, held against the program's whole case list in this binary, and from YOUR
        attestations (--attest) of the requirements no machine judges: the bundle's own attestations are shown,
        never counted. With --rerun, the cases are run again against the target you name (as for `verify --rerun`)
        and every one must reproduce. Only when every program holds is the certificate written: an in-toto
        Statement (v1) about the bundle's SHA-256, in a DSSE envelope signed with your Ed25519 key. `verify
        CERTIFICATE.json --trusted-key YOUR.pub` checks it and prints the decision.

          --sign-key REVIEWER.pem your Ed25519 private key (a public key is refused)
          --reviewer NAME         who decides, as the certificate names them
          --out FILE              where the certificate goes (nothing is written when a program does not hold)
          --attest FILE           your attestations of the requirements no machine judges (dated no later than today,
                                  for the bundle's programs only)
          --trusted-key PUB.pem   the partner's public key: the bundle must be signed by one of these
          --rerun                 run the bundle's cases again against your target; every case must reproduce
          --reports DIR           given --rerun, keep the re-run's reports in DIR

        target options (given --rerun; as `help run` explains them):
        """ + "\n" + CommandOption.rerunTargetHelp + "\n\n" + """
            Exit codes: 0 certificate written, 1 no certificate (the bundle does not verify, a program does not hold, a
            case did not reproduce), 2 a bad command line or attestation file, 6 the certificate cannot be written.
            """

    static let merge = """
        usage: appflip-conformance merge [--reports DIR] [--cases PATH] [--catalog PATH] [--baseline FILE]
                                         [--bundle FILE [--attest FILE] [--sign-key KEY.pem]] RUN...

        Combines the shards of one run (each run with --shard I/N; each RUN is its reports directory or its
        results.json) into one junit.xml, report.md, report.html and results.json with one verdict. The shards must
        come from the same suite version, case files, catalog, seed and target, and together be every shard of the
        split; the case files and catalog given (default: the ones built in) must be the ones the shards ran. Give
        --baseline here, not to the shards: a requirement entry can fail in one shard and pass in another. The shards
        of a certification are merged as the run was made: no --baseline, --cases or --catalog.

          --reports DIR           where the merged reports go (default: Reports); never one of the shards
          --baseline FILE         known failures, judged over the merged results
          --bundle FILE           also write the evidence bundle of the merged run, as one run writes it (verify it)
          --sign-key KEY.pem      sign that bundle with this Ed25519 private key, as run --sign-key does
          --attest FILE           with --bundle, when the shards were given attestations: the same file, which the
                                  bundle carries with its attachments (it must give what the shards recorded)
          --summary FILE          also append the short Markdown summary to FILE
          --reproducible          zero times and no timestamps

        Exit codes: as for run (0 conformant, 1 not conformant, 3 inconclusive, ...); 2 when the shards do not
        belong together or cannot be read, 6 when the reports cannot be written.
        """

    static let diff = """
        usage: appflip-conformance diff OLD NEW

        Compares two runs, each given as its reports directory or its results.json: the cases that now fail or
        end in error (regressed), the ones fixed, other verdict changes, failures still there but observed
        differently, cases added or removed, and requirements whose verdict changed. A failure a baseline
        accepted counts as "known".

        Exit codes: 0 no regression, 1 something regressed, 2 a run could not be read.
        """

    static let validateURL = """
        usage: appflip-conformance validate-url [options] URL...
               appflip-conformance validate-url [options] < urls.txt

        Judges each authorization request URL a native app opens (captured from a log, a proxy or a review) against
        what the URL alone shows: the required parameters and their encoding, PKCE (S256, sent explicitly, a
        well-formed challenge, no verifier in the URL), no client secret, the state's size, and the redirect URI's
        form (private-use scheme, claimed https or loopback IP literal). With no URL argument, one URL per line is
        read from standard input (blank lines and lines starting with # are skipped). Freshness, the verifier's
        match and the loopback listener need the app itself and are not judged here.

        options:
          --redirect-uri URI      a redirect URI registered for the client (repeatable): the URL's must be one of
                                  them exactly (a loopback IP one on any port)
          --reports DIR           also write junit.xml, report.md, report.html and results.json there
          --reproducible          reports without times (for comparing runs)
          --catalog PATH          the requirement catalog (default: the catalog built into this binary)
          --max-urls N            judge at most N URLs (default: 1000); more is a usage error, nothing judged

        A URL longer than 65536 bytes is not judged (an error that says so). Each distinct finding is printed
        once; a URL whose findings were all printed before says where.

        Exit codes as for run: 0 no MUST failed (warnings allowed), 1 a MUST/MUST NOT failed, 2 bad invocation,
        6 the reports could not be written.
        """

    static let lint = """
        usage: appflip-conformance lint [PATH] [--catalog PATH] [--filter PATTERN]...

        Checks case files (default: the cases built into this binary, a copy of Conformance/cases made when it
        was built) against the format and the requirement catalog.
        Prints every diagnostic as `file:line:column: error: message` and exits 2 if there is any.
        """

    static let list = """
        usage: appflip-conformance list [PATH] [--catalog PATH] [--filter PATTERN]... [--profile NAME]...
               appflip-conformance list --programs [--catalog PATH]

        Lists case IDs with the requirements they check, one per line (ID, a tab, the requirements). Without
        --filter, then the requirements no case judges, each on a line starting '# ' with why (not observable:
        a reviewer attests it; planned; judged by the suite itself). --profile keeps one profile's cases and
        requirements (repeatable). --programs lists the certification programs instead: the profiles each
        judges, its cases, and the requirements a reviewer attests for it.
        """
}
