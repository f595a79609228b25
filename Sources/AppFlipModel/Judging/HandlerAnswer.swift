/// What a link handler answered for one request, as the adapter contract defines it.
package struct HandlerAnswer: Sendable, Hashable {
    package enum Action: String, Sendable, Hashable, CaseIterable {
        /// The handler opens a URL.
        case open
        /// The handler does not handle the link and opens nothing.
        case decline
    }

    package var action: Action
    /// The exact URL the app would open; set when `action` is `open`.
    package var url: String?
    /// Whether the app opens the URL universal-links-only; nil when the handler did not say.
    package var universalLinksOnly: Bool?

    package init(action: Action, url: String? = nil, universalLinksOnly: Bool? = nil) {
        self.action = action
        self.url = url
        self.universalLinksOnly = universalLinksOnly
    }
}
