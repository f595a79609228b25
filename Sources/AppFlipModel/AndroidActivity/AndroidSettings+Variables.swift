/// The case files' Android variables: `${android_action}`, `${android_package}`, `${android_redirect_uri}`,
/// `${android_caller_package}`, `${android_caller_signature}`.
extension AndroidSettings {
    static let variableNames = ["android_action", "android_package", "android_redirect_uri", "android_caller_package", "android_caller_signature"]

    /// The value of the variable `name` (one of `variableNames`).
    func variable(_ name: String) -> String {
        switch name {
        case "android_action": action
        case "android_package": package
        case "android_redirect_uri": redirectURI
        case "android_caller_package": caller.package
        default: caller.signatureSHA256
        }
    }
}
