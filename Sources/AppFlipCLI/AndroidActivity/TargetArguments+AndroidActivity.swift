import AppFlipSetup

extension TargetArguments {
    /// The Android activity's adapter and settings, from `run`'s flags.
    static func androidActivity(_ parsed: Arguments, into request: inout TargetSpecification) throws(Arguments.UsageError) {
        if let program = try parsed.value(.androidHandler) {
            request.androidHandler = (program, parsed.values(.androidHandlerArg))
        }
        request.androidHandlerURL = try parsed.value(.androidHandlerURL)
        request.androidAction = try parsed.value(.androidAction)
        request.androidPackage = try parsed.value(.androidPackage)
        request.androidAllowedCallers = parsed.values(.androidAllowedCaller)
    }
}
