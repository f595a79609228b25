/// Parses the reference handler's own arguments: `--client-id ID`.
package enum ReferenceArguments {
    package static let usage = """
        usage: appflip-reference [--client-id ID] [--code-server URL [--code-server-ca PEM]]

        The reference App Flip link handler. Reads one JSON request per line on standard input and answers one
        JSON line per request on standard output (see Documentation/AdapterContracts.md). Runs until input closes.
          --client-id ID     the client ID registered for Google (default: google-client)
          --code-server URL  mint codes at a reference server (POST URL) so its token endpoint redeems them
          --code-server-ca PEM  the CA certificate (PEM text) that vouches for an https code server
        """

    package static let defaultClientID = "google-client"

    /// The client ID, or nil with a message when the arguments are wrong.
    package struct Options: Sendable {
        package var clientID = ReferenceArguments.defaultClientID
        /// Where to mint codes (`POST …/reference/flip-code`), so a reference server redeems them; nil mints locally.
        package var codeServer: String?
        /// The CA (PEM text) that vouches for an https code server (the reference's, made in memory for one run).
        package var codeServerCA: String?
    }

    package static func parseOptions(_ arguments: [String]) -> Result<Options, UsageError> {
        var options = Options()
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--client-id", "--code-server", "--code-server-ca":
                guard index + 1 < arguments.count else { return .failure(UsageError(message: "\(arguments[index]) needs a value")) }
                switch arguments[index] {
                case "--client-id": options.clientID = arguments[index + 1]
                case "--code-server": options.codeServer = arguments[index + 1]
                default: options.codeServerCA = arguments[index + 1]
                }
                index += 2
            case "-h", "--help":
                return .failure(UsageError(message: ""))
            default:
                return .failure(UsageError(message: "unknown argument '\(arguments[index])'"))
            }
        }
        return .success(options)
    }

    package struct UsageError: Error, Sendable {
        package var message: String
    }
}
