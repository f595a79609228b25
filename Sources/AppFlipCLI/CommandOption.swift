import AppFlipModel
import AppFlipReporting
import AppFlipSuite
import Foundation

/// One command-line option, declared once as a static member (`CommandOption.mode`): a command reads its value through
/// it (`parsed.value(.mode)`), so a misspelt option does not compile, and each command's table (`CommandOption.run`,
/// `.list`, …) is what parsing (`CommandOptions`), `help run` and the certification refusals read. Tests hold Documentation/Configuration.md's
/// option table and every command's help against the tables. Adding an option is a member here, a row in its
/// command's table, and its behaviour in the command.
package struct CommandOption: Sendable, Hashable {
    package enum Group: String, CaseIterable, Sendable {
        case target, run, console, reports
    }

    /// The spellings, in the order help shows them (`-q, --quiet`).
    package var names: [String]
    /// The value's placeholder, or nil for a flag.
    var value: String?
    var group: Group
    var help: String
    var repeatable = false
    /// A certification run refuses it: it waives or leaves out cases.
    var refusedByCertification = false
    /// A flag that may carry values (`--certification [PROGRAM]`): `value` is their placeholder.
    var optionalValue = false

    init(
        _ names: [String], _ value: String? = nil, _ group: Group = .run, _ help: String, repeatable: Bool = false,
        refusedByCertification: Bool = false, optionalValue: Bool = false
    ) {
        self.optionalValue = optionalValue
        self.names = names
        self.value = value
        self.group = group
        self.help = help
        self.repeatable = repeatable
        self.refusedByCertification = refusedByCertification
    }

    /// The long spelling (`--quiet`).
    package var name: String { names.first { $0.hasPrefix("--") } ?? names[0] }

    // run's options, in the order `help run` shows them within each group.
    static let target = CommandOption(["--target"], "reference", .target, "run every profile against the built-in reference server and handler")
    static let config = CommandOption(
        ["--config"], "FILE", .target, "the target configuration: endpoints, IDs, scenario decorations (Documentation/Configuration.md)")
    static let profile = CommandOption(
        ["--profile"], "NAME", .target,
        "{profiles} (default: all); repeatable; not with --certification",
        repeatable: true)
    static let handlerURL = CommandOption(
        ["--handler-url"], "URL", .target, "POST each request to this http:// URL and read the answer from the response")
    static let link = CommandOption(["--link"], "URL", .target, "the partner's App Flip universal link, without a query (required for your handler)")
    static let clientID = CommandOption(["--client-id"], "ID", .target, "the client ID registered for Google (required for your handler)")
    static let scope = CommandOption(["--scope"], "SCOPE", .target, "the scope the valid link requests (default: devices)")
    static let redirectURI = CommandOption(
        ["--redirect-uri"], "URI", .target,
        "the flip URI the valid link carries; one of the twelve allowed (default: https://oauth-redirect.googleusercontent.com/a/com.google.OPA)")
    static let mode = CommandOption(
        ["--mode"], "MODE", .target, "one-shot (default: a fresh process per case) or persistent (one per worker); for a handler command only")
    static let timeout = CommandOption(["--timeout"], "SECONDS", .target, "time a handler has to answer one case (default: 10)")
    static let handlerEnv = CommandOption(
        ["--handler-env"], "NAME", .target,
        "pass the environment variable NAME to every adapter the run starts (link handler, native app, Android activity); its value is redacted everywhere; repeatable",
        repeatable: true)
    static let caFile = CommandOption(
        ["--ca-file"], "PATH", .target,
        "trust the CA certificates (PEM) in PATH for https endpoints, besides the system's store (a staging CA); verification is always on")
    static let resolve = CommandOption(
        ["--resolve"], "HOST:PORT:ADDRESS", .target,
        "connect to ADDRESS for HOST:PORT; the Host header, SNI and the certificate's check still use HOST (curl's form); repeatable",
        repeatable: true)
    static let cases = CommandOption(["--cases"], "PATH", .run, "a case file or directory (default: the cases built into this binary)")
    static let catalog = CommandOption(["--catalog"], "PATH", .run, "the requirement catalog (default: the catalog built into this binary)")
    static let filter = CommandOption(
        ["--filter"], "PATTERN", .run,
        "run only cases whose ID matches (glob with * and ?, or a prefix), or that check a requirement ID; repeatable",
        repeatable: true, refusedByCertification: true)
    static let jobs = CommandOption(["--jobs"], "N", .run, "cases run concurrently (default: the number of cores)")
    static let timeLimit = CommandOption(
        ["--time-limit"], "SECONDS", .run,
        "start no case after SECONDS in all; the cases not reached are left out and the run ends as an interrupted one (exit 130, reports marked incomplete) (default: none)"
    )
    static let seed = CommandOption(
        ["--seed"], "N", .run, "seed for generated values such as state (default: a fresh random seed, recorded in the report)")
    static let samples = CommandOption(
        ["--samples"], "N", .run,
        "how many values the sampling checks judge (distinct values, entropy of codes, states, verifiers), 2 to 100 (default: what each case says)",
        refusedByCertification: true)
    static let shard = CommandOption(
        ["--shard"], "I/N", .run, "run a deterministic 1/N of the cases (by a hash of each ID); combine the shards' reports with `merge`")
    static let rerunFailed = CommandOption(
        ["--rerun-failed"], "DIR", .run,
        "run only the cases that failed or ended in error in an earlier run (its reports directory, or its results.json)",
        refusedByCertification: true)
    static let baseline = CommandOption(
        ["--baseline"], "FILE", .run,
        "known failures accepted for now (each with a reason and an expiry date): they do not fail the run; an expired entry, or one whose failure no longer happens, does",
        refusedByCertification: true)
    static let certification = CommandOption(
        ["--certification"], "[PROGRAM]", .run,
        "a certification of the named programs ({programs}; repeatable, or comma-separated), every program when none is named: "
            + "judges every case of each (so no --profile), refuses {refused}, and names each program's verdict in the reports",
        optionalValue: true)
    static let slow = CommandOption(
        ["--slow"], nil, .run,
        "include cases that wait more than 30 s in all (a long code lifetime); without it they are skipped, and the report says so")
    static let quiet = CommandOption(["-q", "--quiet"], nil, .console, "only the verdict line and the problems that stopped cases")
    static let verbose = CommandOption(["-v", "--verbose"], nil, .console, "also a line per passing case, with its time")
    static let color = CommandOption(["--color"], "WHEN", .console, "auto (default: on a terminal, unless NO_COLOR is set), always or never")
    static let reports = CommandOption(["--reports"], "DIR", .reports, "where {reports} go (default: Reports)")
    static let summary = CommandOption(["--summary"], "FILE", .reports, "also append a short Markdown summary to FILE (e.g. $GITHUB_STEP_SUMMARY)")
    static let bundle = CommandOption(
        ["--bundle"], "FILE", .reports,
        "also write an evidence bundle (tar): the reports, the case files and catalog used, and a manifest of SHA-256 digests; check it with `verify`"
    )
    static let signKey = CommandOption(
        ["--sign-key"], "KEY.pem", .reports,
        "sign the bundle with this Ed25519 private key (PEM, as openssl genpkey writes one; Documentation/Certification.md): who holds the key vouches for the run"
    )
    static let targetLabel = CommandOption(
        ["--target-label"], "TEXT", .reports,
        "what the deployment or app version under test is called (recorded in every report, judged by nothing; or target_label in the configuration)")
    static let targetVersion = CommandOption(
        ["--target-version"], "TEXT", .reports,
        "the partner's build under test (a version, a commit): recorded in every report, judged by nothing (or target_version in the configuration)")
    static let adapterFile = CommandOption(
        ["--adapter-file"], "PATH", .target,
        "a file the adapters depend on besides those their command lines name (a module a script imports): hashed before the first case and after the last, and recorded; repeatable (or adapter_files in the configuration)",
        repeatable: true)
    static let runBy = CommandOption(
        ["--operator"], "TEXT", .reports,
        "who ran the suite, recorded in every report (default: the CI job's URL from its own variables, else the user)")
    static let attest = CommandOption(
        ["--attest"], "FILE", .reports,
        "what was judged by hand for requirements no machine can judge (the catalog's not_observable ones): reported as attested by whoever the file names, never counted"
    )
    static let reproducible = CommandOption(["--reproducible"], nil, .reports, "write zero times and no timestamps, for byte-identical reports")
    static let junitFileAttributes = CommandOption(
        ["--junit-file-attributes"], nil, .reports, "add file/line attributes to <testcase> (outside the Jenkins schema)")
    static let help = CommandOption(["-h", "--help"], nil, .console, "this help")

    /// `run`'s table.
    package static let run: [CommandOption] =
        [
            .target,
            .config,
            .profile,
        ] + nativeApp + androidActivity + [
            .handlerURL,
            .link,
            .clientID,
            .scope,
            .redirectURI,
            .mode,
            .timeout,
            .handlerEnv,
            .adapterFile,
            .caFile,
            .resolve,
            .cases,
            .catalog,
            .filter,
            .jobs,
            .timeLimit,
            .seed,
            .samples,
            .shard,
            .rerunFailed,
            .baseline,
            .certification,
            .slow,
            .quiet,
            .verbose,
            .color,
            .reports,
            .summary,
            .bundle,
            .signKey,
            .targetLabel,
            .targetVersion,
            .runBy,
            .attest,
            .reproducible,
            .junitFileAttributes,
            .help,
        ]

    // Options of other commands only (their help is each command's usage text, which a test holds to these tables).
    static let programs = CommandOption(["--programs"], nil, .run, "list the certification programs instead of the cases")
    static let registeredRedirectURI = CommandOption(["--redirect-uri"], "URI", .run, "a redirect URI registered for the client", repeatable: true)
    static let maxURLs = CommandOption(["--max-urls"], "N", .run, "judge at most N URLs (default: 1000)")
    static let trustedKey = CommandOption(["--trusted-key"], "PUB.pem", .run, "an Ed25519 public key whose signature is trusted", repeatable: true)
    static let rerun = CommandOption(
        ["--rerun"], nil, .run, "run the bundle's cases again against the target you name with the options below, and compare the verdicts")
    static let rerunReports = CommandOption(["--reports"], "DIR", .reports, "given --rerun, keep the re-run's reports there (default: not kept)")

    static let detectionDefect = CommandOption(
        ["--defect"], "NAME", .run, "run only this defect (family/name, or a name in any family); repeatable", repeatable: true)
    static let detectionJobs = CommandOption(["--jobs"], "N", .run, "defects run at once (default: the number of cores)")
    static let detectionSeed = CommandOption(["--seed"], "N", .run, "the seed every run uses (default: a fresh one, printed)")
    static let document = CommandOption(
        ["--document"], nil, .reports, "print Conformance/DETECTION.md as the catalogs declare it, and run nothing")
    static let keep = CommandOption(["--keep"], "DIR", .reports, "keep every run's configuration, log and reports in DIR")

    static let reviewer = CommandOption(["--reviewer"], "NAME", .reports, "who decides: the reviewer the certificate names")
    static let certificateOut = CommandOption(["--out"], "FILE", .reports, "where the certificate goes")
    static let certificateBundle = CommandOption(
        ["--bundle"], "BUNDLE", .run, "given a certificate, the bundle it must be for (its SHA-256 is compared)")

    /// What `verify --rerun` takes from the reviewer to name and bound the target, as `run` takes them: every target
    /// option of `run` but `--profile` (the bundle's cases select), and the run options that bound or pace it. Nothing
    /// of this comes from the bundle.
    package static let rerunTarget: [CommandOption] =
        run.filter { $0.group == .target && $0 != .profile } + [.jobs, .timeLimit, .seed, .samples, .slow, .runBy]

    /// Each command's table, by the command's name (`help`, `version` take none).
    package static let byCommand: [String: [CommandOption]] = [
        "run": run,
        "lint": [.catalog, .filter, .help],
        "list": [.catalog, .filter, .profile, .programs, .help],
        "validate-url": [.registeredRedirectURI, .reports, .reproducible, .catalog, .maxURLs, .help],
        "diff": [.help],
        "merge": [.reports, .cases, .catalog, .baseline, .summary, .reproducible, .bundle, .attest, .signKey, .help],
        "verify": [.cases, .catalog, .trustedKey, .certificateBundle, .rerun, .rerunReports, .help] + rerunTarget,
        "detection": [.detectionDefect, .detectionJobs, .detectionSeed, .document, .keep, .help],
        "certify": [.signKey, .reviewer, .attest, .trustedKey, .certificateOut, .rerun, .rerunReports, .help] + rerunTarget,
    ]

    /// The options a certification run refuses, as help and Documentation/Configuration.md say them ("--baseline, --filter, … and --x").
    package static var certificationRefusals: String { listed(refused.map(\.name).sorted(), or: false) }

    /// `a, b and c` (or `… or c`).
    private static func listed(_ names: [String], or: Bool) -> String {
        names.count > 1 ? names.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + (names.last ?? "") : names.joined()
    }

    /// The names of the options a certification run refuses.
    package static var refused: [CommandOption] { run.filter(\.refusedByCertification) }

    /// The target options `verify --rerun` takes, as `help verify` lists them.
    static var rerunTargetHelp: String {
        rerunTarget.map(\.helpLines).joined(separator: "\n")
    }

    /// The `options` part of `help run`, group by group, each help wrapped under its option.
    static var runHelp: String {
        CommandOption.Group.allCases.map { group in
            "\(group.rawValue):\n" + run.filter { $0.group == group && $0.name != "--help" }.map(\.helpLines).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    private var helpLines: String {
        let label = names.joined(separator: ", ") + (value.map { " " + $0 } ?? "")
        let indent = String(repeating: " ", count: 26)
        var lines: [String] = []
        var line = "  " + label + String(repeating: " ", count: max(1, 24 - label.count))
        // The refusals are read from the table itself, after it is built.
        let text = help.replacingOccurrences(of: "{refused}", with: Self.certificationRefusals)
            .replacingOccurrences(of: "{programs}", with: BuiltInSuite.programKeys.joined(separator: ", "))
            .replacingOccurrences(of: "{profiles}", with: Self.listed(Profile.allCases.map(\.rawValue), or: true))
            .replacingOccurrences(of: "{reports}", with: Self.listed(ReportSet.names, or: false))
        for word in text.split(separator: " ") {
            if line.count + word.count > 116, line.count > 26 {
                lines.append(line)
                line = indent
            }
            line += (line.hasSuffix(" ") ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
