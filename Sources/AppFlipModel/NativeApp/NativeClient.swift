/// A public native client the partner registered at its own server (RFC 8252), for the native-client rules
/// that server must enforce: its ID and its registered redirect URIs.
package struct NativeClient: Sendable, Hashable {
    package var id: String
    package var redirectURIs: [String]

    package init(id: String, redirectURIs: [String]) {
        self.id = id
        self.redirectURIs = redirectURIs
    }

    /// The first registered loopback redirect URI (`http://127.0.0.1/…` or `http://[::1]/…`), if any.
    package var loopbackURI: String? {
        redirectURIs.first { $0.hasPrefix("http://127.0.0.1/") || $0.hasPrefix("http://127.0.0.1:") || $0.hasPrefix("http://[::1]") }
    }

    /// The loopback URI with another port, which the server must accept too (RFC 8252 §7.3).
    package var loopbackURIWithOtherPort: String? {
        guard let uri = loopbackURI else { return nil }
        let host = uri.hasPrefix("http://[::1]") ? "http://[::1]" : "http://127.0.0.1"
        var rest = Substring(uri.dropFirst(host.count))
        let registeredPort = rest.hasPrefix(":") ? String(rest.dropFirst().prefix { $0 != "/" }) : ""
        if rest.hasPrefix(":") { rest = rest.drop { $0 != "/" } }
        return host + (registeredPort == "51004" ? ":51005" : ":51004") + rest
    }

    /// The first registered private-use-scheme redirect URI (`com.example.app:/cb`), if any.
    package var schemeURI: String? {
        redirectURIs.first { !$0.lowercased().hasPrefix("http://") && !$0.lowercased().hasPrefix("https://") && $0.contains(":") }
    }
}
