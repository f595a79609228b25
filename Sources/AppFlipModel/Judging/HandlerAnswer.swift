/// What a link handler answered for one request, as the adapter contract defines it.
public struct HandlerAnswer: Sendable, Hashable {
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// The handler opens a URL.
        case open
        /// The handler does not handle the link and opens nothing.
        case decline
    }

    public var action: Action
    /// The exact URL the app would open; set when `action` is `open`.
    public var url: String?
    /// Whether the app opens the URL universal-links-only; nil when the handler did not say.
    public var universalLinksOnly: Bool?

    public init(action: Action, url: String? = nil, universalLinksOnly: Bool? = nil) {
        self.action = action
        self.url = url
        self.universalLinksOnly = universalLinksOnly
    }
}
