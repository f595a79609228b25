/// The command's help text.
enum Usage {
    static let main = """
        usage: appflip-conformance <command> [options]

        commands:
          run     run the conformance cases against a link handler and write reports
          lint    check case files (and the requirement catalog) without running anything
          list    list the cases that a run would execute
          help    show this help, or `help <command>`

        Exit codes: 0 conformant, 1 a MUST/MUST NOT failed, 2 bad invocation/configuration/case files,
        3 no failure but a target error (inconclusive), 130 interrupted (reports marked incomplete). See README.md.
        """

    static let run = """
        usage: appflip-conformance run --target reference [options]
               appflip-conformance run --link URL --client-id ID [options] -- HANDLER [HANDLER-ARGS...]
               appflip-conformance run --link URL --client-id ID --handler-url URL [options]

        The handler command after `--` is started directly (never through a shell) and speaks the JSON Lines
        adapter contract described in README.md.

        target:
          --target reference      run every profile against the built-in reference server and handler
          --config FILE           the target configuration: endpoints, IDs, scenario decorations (README)
          --profile NAME          app-link, authorize, token, site-association or flip (default: all); repeatable
          --handler-url URL       POST each request to this http:// URL and read the answer from the response
          --link URL              the partner's App Flip universal link, without a query (required for your handler)
          --client-id ID          the client ID registered for Google (required for your handler)
          --scope SCOPE           the scope the valid link requests (default: devices)
          --redirect-uri URI      the flip URI the valid link carries; one of the twelve allowed
                                  (default: https://oauth-redirect.googleusercontent.com/a/com.google.OPA)
          --mode MODE             one-shot (default: a fresh process per case) or persistent (one per worker);
                                  for a handler command only
          --timeout SECONDS       time a handler has to answer one case (default: 10)

        run:
          --cases PATH            a case file or directory (default: Conformance/cases)
          --catalog PATH          the requirement catalog (default: Conformance/requirements.catalog)
          --filter PATTERN        run only cases whose ID matches (glob with * and ?, or a prefix), or that
                                  check a requirement ID; repeatable
          --jobs N                cases run concurrently (default: the number of cores)
          --seed N                seed for generated values such as state (default: a fresh random seed,
                                  recorded in the report)
          --slow                  include cases that wait more than 30 s in all (a long code lifetime);
                                  without it they are skipped, and the report says so

        reports:
          --reports DIR           where junit.xml and report.md go (default: Reports)
          --reproducible          write zero times and no timestamps, for byte-identical reports
          --junit-file-attributes add file/line attributes to <testcase> (outside the Jenkins schema)
        """

    static let lint = """
        usage: appflip-conformance lint [PATH] [--catalog PATH] [--filter PATTERN]...

        Checks case files (default: Conformance/cases) against the format and the requirement catalog.
        Prints every diagnostic as `file:line:column: error: message` and exits 2 if there is any.
        """

    static let list = """
        usage: appflip-conformance list [PATH] [--catalog PATH] [--filter PATTERN]...

        Lists case IDs with the requirements they check, one per line.
        """
}
