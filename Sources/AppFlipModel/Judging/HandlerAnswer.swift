/// What a link handler answered for one request, as the adapter contract defines it.
public struct HandlerAnswer: Sendable, Hashable {
    public var action: Assertion.Action
    /// The exact URL the app would open; set when `action` is `open`.
    public var url: String?
    /// Whether the app opens the URL universal-links-only; nil when the handler did not say.
    public var universalLinksOnly: Bool?

    public init(action: Assertion.Action, url: String? = nil, universalLinksOnly: Bool? = nil) {
        self.action = action
        self.url = url
        self.universalLinksOnly = universalLinksOnly
    }
}
