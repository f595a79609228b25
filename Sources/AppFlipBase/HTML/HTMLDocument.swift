import Foundation

/// What a conformance run reads from an HTML page: its forms, its meta refreshes and its scripts.
package struct HTMLDocument: Sendable, Equatable {
    package var forms: [HTMLForm] = []
    /// The `content` of each `<meta http-equiv="refresh">`.
    package var metaRefreshes: [String] = []
    /// The text of each inline `<script>`.
    package var scripts: [String] = []
    /// The `src` of each `<script>`, `<img>`, `<link href>` and `<iframe>`: what the page loads.
    package var resources: [String] = []
    /// The `content` of each `<meta name="referrer">`: the page's referrer policy, over its header's.
    package var referrerPolicies: [String] = []

    /// The page these bytes hold, read as the scanner finds its tokens (within `limits`).
    package init(_ bytes: [UInt8], limits: HTMLScanner.Limits = HTMLScanner.Limits()) {
        var reading = Reading()
        HTMLScanner.read(bytes, limits: limits, into: &reading)
        self.init(reading)
    }

    /// The page a list of tokens spells, every one of them read: what `init(_:limits:)` must agree with.
    package init(tokens: [HTMLScanner.Token]) {
        var reading = Reading()
        for token in tokens {
            switch token {
            case .start(let name, let attributes): reading.start(name, attributes)
            case .end(let name): reading.end(name)
            case .text(let text): reading.text(text)
            }
        }
        self.init(reading)
    }

    private init(_ reading: Reading) {
        var reading = reading
        reading.end("form")
        forms = reading.forms
        referrerPolicies = reading.referrerPolicies
        metaRefreshes = reading.metaRefreshes
        scripts = reading.scripts
        resources = reading.resources
    }

    /// The first form matching a selector: `#id`, `action:TEXT` (the action contains TEXT), or field names that
    /// must all be present (`username,password`).
    package func form(matching selector: String) -> HTMLForm? {
        if selector.hasPrefix("#") { return forms.first { $0.id == String(selector.dropFirst()) } }
        if selector.hasPrefix("action:") {
            let text = String(selector.dropFirst(7))
            return forms.first { $0.action.byteRange(of: text) != nil }
        }
        // An ASCII selector splits at its comma bytes, each of which is a character of its own; any other by characters.
        let names =
            selector.utf8.allSatisfy { $0 < 0x80 }
            ? selector.utf8.split(separator: UInt8(ascii: ",")).map { Substring($0).trimmingSpaces() }
            : selector.split(separator: ",").map { $0.trimmingSpaces() }
        return forms.first { form in names.allSatisfy(form.hasField) }
    }
}
