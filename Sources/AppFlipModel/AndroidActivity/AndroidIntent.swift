import AppFlipBase

/// The intent the suite, playing the Google app, starts the partner's activity with (`startActivityForResult`):
/// the console's action, the partner's package, the extras in the order Google puts them, and who calls.
package struct AndroidIntent: Sendable, Hashable {
    package var action: String
    package var package: String
    /// Name and typed value, in the order sent; Google sends `CLIENT_ID`, `SCOPE` and `REDIRECT_URI`.
    package var extras: [NamedExtra]
    /// The calling app the activity sees, or nil when `getCallingActivity()` would be null (not started for a result).
    package var caller: AndroidCaller?

    package init(action: String, package: String, extras: [NamedExtra], caller: AndroidCaller?) {
        self.action = action
        self.package = package
        self.extras = extras
        self.caller = caller
    }

    /// The extra of that name (the last, were one repeated), or nil.
    package func extra(_ name: String) -> IntentExtra? { extras.last { $0.name == name }?.value }

    /// The request's `intent` and `caller` members: `"intent":{…},"caller":{…}|null`, appended as JSON.
    package func appendMembers(to output: inout [UInt8]) {
        output.append(contentsOf: Array(#""intent":{"action":"#.utf8))
        JSONText.appendString(action, to: &output)
        output.append(contentsOf: Array(#","package":"#.utf8))
        JSONText.appendString(package, to: &output)
        output.append(contentsOf: Array(#","extras":{"#.utf8))
        for (index, extra) in extras.enumerated() {
            if index > 0 { output.append(0x2C) }
            JSONText.appendString(extra.name, to: &output)
            output.append(0x3A)
            extra.value.appendJSON(to: &output)
        }
        output.append(contentsOf: Array(#"}},"caller":"#.utf8))
        if let caller {
            output.append(contentsOf: Array(#"{"package":"#.utf8))
            JSONText.appendString(caller.package, to: &output)
            output.append(contentsOf: Array(#","signature_sha256":"#.utf8))
            JSONText.appendString(caller.signatureSHA256, to: &output)
            output.append(0x7D)
        } else {
            output.append(contentsOf: Array("null".utf8))
        }
    }

    /// How evidence shows the intent: action, package, each extra with its type, and the caller.
    package var display: String {
        var lines = ["action " + ByteText.display(action, limit: 200), "package " + ByteText.display(package, limit: 200)]
        lines += extras.map { "extra " + ByteText.display($0.name, limit: 80) + ": " + $0.value.display }
        lines.append(
            caller.map { "caller " + ByteText.display($0.package, limit: 200) + " signed " + ByteText.display($0.signatureSHA256, limit: 120) }
                ?? "caller none (getCallingActivity() is null)")
        return lines.joined(separator: "\n")
    }
}
