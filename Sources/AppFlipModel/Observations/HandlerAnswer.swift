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
    /// Set when the app crashed handling the link (its adapter died or closed its output without answering, after a
    /// healthy start): how. Google's app then sees nothing opened, which is what this answer holds.
    package var crash: String?

    /// What Google's app sees of an app that crashed on the link: nothing opened.
    package static func crashed(_ how: String) -> HandlerAnswer {
        var answer = HandlerAnswer(action: .decline)
        answer.crash = how
        return answer
    }

    package init(action: Action, url: String? = nil, universalLinksOnly: Bool? = nil) {
        self.action = action
        self.url = url
        self.universalLinksOnly = universalLinksOnly
    }
}
