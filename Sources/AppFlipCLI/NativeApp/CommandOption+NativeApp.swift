/// `run`'s options for the native app's adapter, in the order `help run` shows them.
extension CommandOption {
    static let nativeClient = CommandOption(
        ["--native-client"], "PATH", .target,
        "the native app's adapter (the native-client contract, Documentation/AdapterContracts.md); not through a shell")
    static let nativeClientArg = CommandOption(["--native-client-arg"], "ARG", .target, "an argument for it (repeatable)", repeatable: true)

    static let nativeApp: [CommandOption] = [.nativeClient, .nativeClientArg]
}
