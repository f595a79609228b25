/// The variables `ConformanceTarget.environment(_:)` reads, declared once: the library reads each through its case (a
/// misspelt name does not compile), `ConformanceTarget.environmentVariables` lists them, and a test holds Documentation/GettingStarted.md's
/// table of variables against them.
enum EnvironmentVariable: String, CaseIterable, Sendable {
    case config = "APPFLIP_CONFIG"
    case handler = "APPFLIP_HANDLER"
    case handlerURL = "APPFLIP_HANDLER_URL"
    case link = "APPFLIP_LINK"
    case clientID = "APPFLIP_CLIENT_ID"
    case androidHandler = "APPFLIP_ANDROID_HANDLER"
    case androidHandlerURL = "APPFLIP_ANDROID_HANDLER_URL"
    case androidAction = "APPFLIP_ANDROID_ACTION"
    case androidPackage = "APPFLIP_ANDROID_PACKAGE"
    case androidAllowedCallers = "APPFLIP_ANDROID_ALLOWED_CALLERS"
    case caFile = "APPFLIP_CA_FILE"
    case handlerEnvironment = "APPFLIP_HANDLER_ENV"
}
