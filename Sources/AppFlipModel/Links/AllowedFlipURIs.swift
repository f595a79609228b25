/// The twelve App Flip redirect URIs Google publishes ("App Flip for iOS", "Modify your authorization endpoint").
///
/// They are compared byte for byte: `com.google.OPA` is a string prefix of `com.google.OPA.dev`, so prefix
/// matching is always wrong.
package enum AllowedFlipURIs {
    package static let hosts = ["oauth-redirect.googleusercontent.com", "oauth-redirect-sandbox.googleusercontent.com"]
    package static let bundles = [
        "com.google.Chromecast.dev", "com.google.Chromecast.enterprise", "com.google.Chromecast",
        "com.google.OPA.dev", "com.google.OPA.enterprise", "com.google.OPA",
    ]

    /// All twelve, production host first, in the order Google lists them per host.
    package static let all: [String] = hosts.flatMap { host in bundles.map { "https://\(host)/a/\($0)" } }

    /// The one the valid base link uses unless configured otherwise.
    package static let `default` = "https://oauth-redirect.googleusercontent.com/a/com.google.OPA"

    /// A short stable key for an allowed URI, e.g. `sandbox-com.google.OPA.dev`.
    package static func key(for uri: String) -> String {
        let sandbox = uri.contains("-sandbox.")
        let bundle = uri.split(separator: "/").last.map(String.init) ?? uri
        return (sandbox ? "sandbox-" : "prod-") + bundle
    }
}
