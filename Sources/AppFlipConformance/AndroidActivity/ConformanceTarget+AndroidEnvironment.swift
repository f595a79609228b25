import AppFlipSetup

/// The Android handler the environment names (`APPFLIP_ANDROID_*`).
extension ConformanceTarget {
    /// The Android handler the environment names, checked whole.
    struct Android {
        var command: [String]?
        var url: String?
        var action: String?
        var package: String?
        var allowedCallers: [String] = []

        /// Nil when neither `APPFLIP_ANDROID_HANDLER` nor `APPFLIP_ANDROID_HANDLER_URL` is set.
        init?(
            command: [String]?, url: String?, action: String?, package: String?, allowedCallers: [String]?,
            configured: Bool
        ) throws(EnvironmentError) {
            guard command != nil || url != nil else {
                if action != nil || package != nil || allowedCallers != nil {
                    throw EnvironmentError(
                        description: "APPFLIP_ANDROID_ACTION, APPFLIP_ANDROID_PACKAGE and APPFLIP_ANDROID_ALLOWED_CALLERS need "
                            + "APPFLIP_ANDROID_HANDLER or APPFLIP_ANDROID_HANDLER_URL")
                }
                return nil
            }
            if command != nil, url != nil {
                throw EnvironmentError(description: "give APPFLIP_ANDROID_HANDLER or APPFLIP_ANDROID_HANDLER_URL, not both")
            }
            if !configured, action == nil || package == nil {
                throw EnvironmentError(
                    description: "APPFLIP_ANDROID_ACTION (the intent action entered in the console) and APPFLIP_ANDROID_PACKAGE "
                        + "are required with an Android handler, unless APPFLIP_CONFIG gives android_action and android_package")
            }
            self.command = command
            self.url = url
            self.action = action
            self.package = package
            self.allowedCallers = allowedCallers ?? []
        }

        func apply(to request: inout TargetSpecification) {
            request.androidHandler = command?.first.map { ($0, Array(command?.dropFirst() ?? [])) }
            request.androidHandlerURL = url
            if let action { request.androidAction = action }
            if let package { request.androidPackage = package }
            if !allowedCallers.isEmpty { request.androidAllowedCallers = allowedCallers }
        }
    }

    /// The same target with the Android handler added (a target of flags or a file; the others have none to add).
    func adding(_ android: Android) -> ConformanceTarget {
        editingRequest { android.apply(to: &$0) }
    }
}
