/// Parses the reference handler's own arguments: `--client-id ID`.
public enum ReferenceArguments {
    public static let usage = """
        usage: appflip-reference [--client-id ID]

        The reference App Flip link handler. Reads one JSON request per line on standard input and answers one
        JSON line per request on standard output (see README, "The adapter contract"). Runs until input closes.
          --client-id ID   the client ID registered for Google (default: google-client)
        """

    public static let defaultClientID = "google-client"

    /// The client ID, or nil with a message when the arguments are wrong.
    public static func parse(_ arguments: [String]) -> Result<String, UsageError> {
        var clientID = defaultClientID
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--client-id":
                guard index + 1 < arguments.count else { return .failure(UsageError(message: "--client-id needs a value")) }
                clientID = arguments[index + 1]
                index += 2
            case "-h", "--help":
                return .failure(UsageError(message: ""))
            default:
                return .failure(UsageError(message: "unknown argument '\(arguments[index])'"))
            }
        }
        return .success(clientID)
    }

    public struct UsageError: Error, Sendable {
        public var message: String
    }
}
