import AppFlipSetup

extension TargetArguments {
    /// The native app's adapter, from `run`'s flags.
    static func nativeApp(_ parsed: Arguments, into request: inout TargetSpecification) throws(Arguments.UsageError) {
        if let program = try parsed.value(.nativeClient) {
            request.nativeClient = (program, parsed.values(.nativeClientArg))
        }
    }
}
