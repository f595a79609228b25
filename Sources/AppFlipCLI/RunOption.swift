import AppFlipSuite
import Foundation

/// One option of `run`, declared once: parsing (`CommandOptions.run`), `help run` and the certification refusals
/// read this table, and a test holds README's option table against it. Adding an option is a row here and its
/// behaviour in `RunCommand`.
package struct RunOption: Sendable {
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

    init(_ names: [String], _ value: String? = nil, _ group: Group, _ help: String, repeatable: Bool = false,
         refusedByCertification: Bool = false, optionalValue: Bool = false) {
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

    package static let all: [RunOption] = [
        RunOption(["--target"], "reference", .target, "run every profile against the built-in reference server and handler"),
        RunOption(["--config"], "FILE", .target, "the target configuration: endpoints, IDs, scenario decorations (README)"),
        RunOption(["--profile"], "NAME", .target,
                  "app-link, authorize, token, site-association, flip, native-client or android-app-flip (default: all); repeatable; not with --certification",
                  repeatable: true),
        RunOption(["--native-client"], "PATH", .target, "the native app's adapter (the native-client contract, README); not through a shell"),
        RunOption(["--native-client-arg"], "ARG", .target, "an argument for it (repeatable)", repeatable: true),
        RunOption(["--android-handler"], "PATH", .target,
                  "the Android activity's adapter (the Android adapter contract, README); not through a shell; in --mode"),
        RunOption(["--android-handler-arg"], "ARG", .target, "an argument for it (repeatable)", repeatable: true),
        RunOption(["--android-handler-url"], "URL", .target, "POST each Android request to this http:// URL and read the answer from the response"),
        RunOption(["--android-action"], "ACTION", .target, "the App Flip intent action entered in the console (required for your Android handler)"),
        RunOption(["--android-package"], "NAME", .target, "your app's package (required for your Android handler)"),
        RunOption(["--android-allowed-caller"], "PACKAGE=SHA256", .target,
                  "a caller your activity allows, each of which must get a code (default: the Google app alone); repeatable",
                  repeatable: true),
        RunOption(["--handler-url"], "URL", .target, "POST each request to this http:// URL and read the answer from the response"),
        RunOption(["--link"], "URL", .target, "the partner's App Flip universal link, without a query (required for your handler)"),
        RunOption(["--client-id"], "ID", .target, "the client ID registered for Google (required for your handler)"),
        RunOption(["--scope"], "SCOPE", .target, "the scope the valid link requests (default: devices)"),
        RunOption(["--redirect-uri"], "URI", .target,
                  "the flip URI the valid link carries; one of the twelve allowed (default: https://oauth-redirect.googleusercontent.com/a/com.google.OPA)"),
        RunOption(["--mode"], "MODE", .target, "one-shot (default: a fresh process per case) or persistent (one per worker); for a handler command only"),
        RunOption(["--timeout"], "SECONDS", .target, "time a handler has to answer one case (default: 10)"),
        RunOption(["--handler-env"], "NAME", .target,
                  "pass the environment variable NAME to every adapter the run starts (link handler, native app, Android activity); its value is redacted everywhere; repeatable",
                  repeatable: true),
        RunOption(["--ca-file"], "PATH", .target,
                  "trust the CA certificates (PEM) in PATH for https endpoints, besides the system's store (a staging CA); verification is always on"),
        RunOption(["--resolve"], "HOST:PORT:ADDRESS", .target,
                  "connect to ADDRESS for HOST:PORT; the Host header, SNI and the certificate's check still use HOST (curl's form); repeatable",
                  repeatable: true),
        RunOption(["--cases"], "PATH", .run, "a case file or directory (default: the cases built into this binary)"),
        RunOption(["--catalog"], "PATH", .run, "the requirement catalog (default: the catalog built into this binary)"),
        RunOption(["--filter"], "PATTERN", .run,
                  "run only cases whose ID matches (glob with * and ?, or a prefix), or that check a requirement ID; repeatable",
                  repeatable: true, refusedByCertification: true),
        RunOption(["--jobs"], "N", .run, "cases run concurrently (default: the number of cores)"),
        RunOption(["--seed"], "N", .run, "seed for generated values such as state (default: a fresh random seed, recorded in the report)"),
        RunOption(["--samples"], "N", .run,
                  "how many values the sampling checks judge (distinct values, entropy of codes, states, verifiers), 2 to 100 (default: what each case says)",
                  refusedByCertification: true),
        RunOption(["--shard"], "I/N", .run, "run a deterministic 1/N of the cases (by a hash of each ID); combine the shards' reports with `merge`"),
        RunOption(["--rerun-failed"], "DIR", .run,
                  "run only the cases that failed or ended in error in an earlier run (its reports directory, or its results.json)",
                  refusedByCertification: true),
        RunOption(["--baseline"], "FILE", .run,
                  "known failures accepted for now (each with a reason and an expiry date): they do not fail the run; an expired entry, or one whose failure no longer happens, does",
                  refusedByCertification: true),
        RunOption(["--certification"], "[PROGRAM]", .run,
                  "a certification of the named programs ({programs}; repeatable, or comma-separated), every program when none is named: "
                  + "judges every case of each (so no --profile), refuses {refused}, and names each program's verdict in the reports",
                  optionalValue: true),
        RunOption(["--slow"], nil, .run, "include cases that wait more than 30 s in all (a long code lifetime); without it they are skipped, and the report says so"),
        RunOption(["-q", "--quiet"], nil, .console, "only the verdict line and the problems that stopped cases"),
        RunOption(["-v", "--verbose"], nil, .console, "also a line per passing case, with its time"),
        RunOption(["--color"], "WHEN", .console, "auto (default: on a terminal, unless NO_COLOR is set), always or never"),
        RunOption(["--reports"], "DIR", .reports, "where junit.xml, report.md and results.json go (default: Reports)"),
        RunOption(["--summary"], "FILE", .reports, "also append a short Markdown summary to FILE (e.g. $GITHUB_STEP_SUMMARY)"),
        RunOption(["--bundle"], "FILE", .reports,
                  "also write an evidence bundle (tar): the reports, the case files and catalog used, and a manifest of SHA-256 digests; check it with `verify`"),
        RunOption(["--target-label"], "TEXT", .reports,
                  "what the deployment or app version under test is called (recorded in every report, judged by nothing; or target_label in the configuration)"),
        RunOption(["--operator"], "TEXT", .reports,
                  "who ran the suite, recorded in every report (default: the CI job's URL from its own variables, else the user)"),
        RunOption(["--attest"], "FILE", .reports,
                  "what reviewers judged by hand for requirements no machine can judge (the catalog's not_observable ones): reported as attested, never counted"),
        RunOption(["--reproducible"], nil, .reports, "write zero times and no timestamps, for byte-identical reports"),
        RunOption(["--junit-file-attributes"], nil, .reports, "add file/line attributes to <testcase> (outside the Jenkins schema)"),
        RunOption(["-h", "--help"], nil, .console, "this help"),
    ]

    /// The options a certification run refuses, as help and README say them ("--baseline, --filter, … and --x").
    package static var certificationRefusals: String {
        let names = refused.sorted()
        return names.count > 1 ? names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "") : names.joined()
    }

    /// The names of the options a certification run refuses.
    package static var refused: [String] { all.filter(\.refusedByCertification).map(\.name) }

    /// The `options` part of `help run`, group by group, each help wrapped under its option.
    static var help: String {
        RunOption.Group.allCases.map { group in
            "\(group.rawValue):\n" + all.filter { $0.group == group && $0.name != "--help" }.map(\.helpLines).joined(separator: "\n")
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
