/// What the simulated user or account does if the handler gets as far as asking.
public enum Scenario: String, Sendable, Hashable, CaseIterable {
    /// The user approves the consent request.
    case consent
    /// The user refuses consent.
    case deny
    /// The user backs out or fails to sign in: a recoverable failure.
    case cancel
    /// The user's account is disabled: an unrecoverable failure.
    case disabledAccount = "disabled-account"
    /// A second approving user, for what must differ between users (HTTP steps only: `user: second-user`).
    case secondUser = "second-user"
}
