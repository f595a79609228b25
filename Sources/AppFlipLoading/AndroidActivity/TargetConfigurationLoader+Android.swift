import AppFlipModel
import AppFlipSyntax

/// The target configuration's Android keys.
extension TargetConfigurationLoader.Reading {
    /// The Android App Flip settings: `android_action` and `android_package` (both, or neither), the optional
    /// `android_redirect_uri`, `android_caller` (`package`, `signature_sha256`), a test-only caller to send valid
    /// requests from instead of Google's app, and `android_allowed_callers`, a list of such identities the
    /// activity allows (each must get a code; the Google app alone by default).
    mutating func android(into configuration: inout TargetConfiguration) throws(DiagnosticList) {
        let action = text("android_action")
        let package = text("android_package")
        let others = ["android_redirect_uri", "android_caller", "android_allowed_callers"].filter { document[$0] != nil }
        guard action != nil || package != nil || !others.isEmpty else { return }
        guard let action, let package, !action.text.isEmpty, !package.text.isEmpty else {
            let at = document.entries.first { $0.key.text.hasPrefix("android_") }?.key.location ?? document.location
            reader.error(at: at, "the Android settings need 'android_action' (the intent action entered in the console) and 'android_package'")
            throw DiagnosticList(reader.diagnostics)
        }
        var settings = AndroidSettings(action: action.text, package: package.text)
        if let uri = text("android_redirect_uri") { settings.redirectURI = uri.text }
        if let node = document["android_caller"] { settings.caller = try caller(node, "'android_caller'") }
        if let node = document["android_allowed_callers"] {
            guard let list = reader.sequence(node, "'android_allowed_callers'") else { throw DiagnosticList(reader.diagnostics) }
            var callers: [AndroidCaller] = []
            for item in list.items { callers.append(try caller(item, "an entry of 'android_allowed_callers'")) }
            settings.allowedCallers = callers
        }
        configuration.android = settings
    }

    /// One caller identity: a mapping of `package` and `signature_sha256` (32 colon-separated hex pairs).
    mutating func caller(_ node: Node, _ what: String) throws(DiagnosticList) -> AndroidCaller {
        guard let mapping = reader.mapping(node, what),
            reader.checkKeys(mapping, allowed: ["package", "signature_sha256"], required: ["package", "signature_sha256"], in: what),
            let callerPackage = mapping["package"].flatMap({ reader.scalar($0, "'package'") }),
            let signature = mapping["signature_sha256"].flatMap({ reader.scalar($0, "'signature_sha256'") })
        else {
            throw DiagnosticList(reader.diagnostics)
        }
        guard AndroidCaller.isDigest(signature.text) else {
            reader.error(at: signature.location, "'signature_sha256' is the certificate's SHA-256 as 32 colon-separated hex pairs (AB:CD:…)")
            throw DiagnosticList(reader.diagnostics)
        }
        return AndroidCaller(package: callerPackage.text, signatureSHA256: signature.text)
    }
}
