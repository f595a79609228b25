/// A family of cases that share a target contract.
public enum Profile: String, Sendable, Hashable, CaseIterable {
    /// The App Flip universal-link handler, driven through the JSON Lines adapter contract.
    case appLink = "app-link"
}
