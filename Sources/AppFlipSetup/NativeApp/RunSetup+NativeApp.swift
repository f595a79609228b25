import AppFlipModel
import AppFlipRunner

/// Setting up the native app's adapter from a request.
extension RunSetup {
    /// The native app's adapter the request names, with the variables every adapter is passed.
    static func nativeTarget(_ request: TargetSpecification, passedEnvironment: [String]) throws(SetupError) -> NativeClientTarget? {
        try request.nativeClient.map { (program, arguments) throws(SetupError) in
            var target = try Self.nativeClient(program, arguments: arguments)
            target.environment += passedEnvironment
            return target
        }
    }

    /// A native client program (a path, or a name looked up on `PATH`) and its arguments.
    package static func nativeClient(_ program: String, arguments: [String]) throws(SetupError) -> NativeClientTarget {
        guard let executable = SubprocessTarget.resolve(program) else {
            throw SetupError("cannot find the native client executable '\(program)' (not found, not a file, or not executable)")
        }
        return NativeClientTarget(executable: executable, arguments: arguments)
    }
}
