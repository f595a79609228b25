/// `run`'s options for the Android activity's adapter, in the order `help run` shows them.
extension CommandOption {
    static let androidHandler = CommandOption(
        ["--android-handler"], "PATH", .target,
        "the Android activity's adapter (the Android adapter contract, Documentation/AdapterContracts.md); not through a shell; in --mode")
    static let androidHandlerArg = CommandOption(["--android-handler-arg"], "ARG", .target, "an argument for it (repeatable)", repeatable: true)
    static let androidHandlerURL = CommandOption(
        ["--android-handler-url"], "URL", .target, "POST each Android request to this http:// URL and read the answer from the response")
    static let androidAction = CommandOption(
        ["--android-action"], "ACTION", .target, "the App Flip intent action entered in the console (required for your Android handler)")
    static let androidPackage = CommandOption(["--android-package"], "NAME", .target, "your app's package (required for your Android handler)")
    static let androidAllowedCaller = CommandOption(
        ["--android-allowed-caller"], "PACKAGE=SHA256", .target,
        "a caller your activity allows, each of which must get a code (default: the Google app alone); repeatable",
        repeatable: true)

    static let androidActivity: [CommandOption] = [
        .androidHandler, .androidHandlerArg, .androidHandlerURL, .androidAction, .androidPackage, .androidAllowedCaller,
    ]
}
