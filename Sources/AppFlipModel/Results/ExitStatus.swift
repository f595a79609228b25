/// The command's exit codes, documented in the README.
package enum ExitStatus: Int32, Sendable, CaseIterable {
    /// No fail and no error (warnings and infos allowed).
    case conformant = 0
    /// At least one MUST or MUST NOT check failed.
    case nonConformant = 1
    /// Bad invocation, configuration or case files; nothing was run.
    case usage = 2
    /// No fail, but at least one case ended in error (the target misbehaved): inconclusive.
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
    /// The run was interrupted (SIGINT or SIGTERM); the reports hold the cases completed so far, marked incomplete.
    case interrupted = 130
}
