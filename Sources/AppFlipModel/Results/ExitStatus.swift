/// The command's exit codes, documented in Documentation/ExitCodes.md.
package enum ExitStatus: Int32, Sendable, CaseIterable {
    /// No fail and no error (warnings and infos allowed).
    case conformant = 0
    /// At least one MUST or MUST NOT check failed.
    case nonConformant = 1
    /// Bad invocation, configuration or case files; nothing was run.
    case usage = 2
    /// No fail, but at least one case ended in error (the target misbehaved), or an adapter file changed while the cases
    /// ran (no single program was tested): inconclusive.
    case inconclusive = 3
    /// Every case was skipped (no endpoint or handler configured for any selected profile): nothing was tested.
    case nothingTested = 4
    /// No requirement failed, but the target rejected the configured credentials, so cases could not be judged.
    case configurationRejected = 5
    /// The run finished, but its reports could not be written (a full disk, a lost directory): the verdict is on
    /// the console only, and any earlier reports are left whole.
    case reportsNotWritten = 6
    /// The suite itself ran out of resources (file descriptors, memory, processes) for some cases: those cases
    /// are errors that say so, charged to nothing the target did, and no verdict is given.
    case suiteFailure = 7
    /// A `--certification` run that judged no fail and no error, but skipped cases (a profile not tested, a
    /// configuration value missing, an endpoint on http://): not a certification pass; the report names what is
    /// missing.
    case certificationIncomplete = 8
    /// The run was interrupted (SIGINT, SIGTERM, SIGHUP or SIGQUIT); the reports hold the cases completed so far, marked incomplete.
    case interrupted = 130

    /// One line for `help`: the one place the exit codes are listed for the command line (Documentation/ExitCodes.md's table is held
    /// against it by a test).
    package var summary: String {
        switch self {
        case .conformant: "conformant (warnings, infos and failures a --baseline accepts allowed)"
        case .nonConformant: "not conformant: a MUST/MUST NOT failed, or a baseline entry is stale or expired"
        case .usage: "bad invocation, configuration, case files or baseline; nothing was run"
        case .inconclusive: "inconclusive: no failure, but a target error (or a handler or endpoint unusable before the run, or an adapter changed)"
        case .nothingTested: "nothing tested: every case was skipped"
        case .configurationRejected: "configuration problem: the target rejected the configured credentials"
        case .reportsNotWritten: "the reports (or the --summary file) could not be written"
        case .suiteFailure: "suite error: the suite ran out of resources (no verdict)"
        case .certificationIncomplete: "--certification: no failure, but cases were skipped or judged nothing (not a certification pass)"
        case .interrupted: "interrupted (reports written, marked incomplete)"
        }
    }

    /// Every exit code with its summary, one per line, indented for help texts.
    package static var helpLines: String {
        allCases.map { "  \(String($0.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n")
    }
}
