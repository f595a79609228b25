import AppFlipModel

/// A family of cases that share a target contract: `appLink` (the link handler), `authorize`, `token`,
/// `siteAssociation`, `flip` (the handler's code redeemed end to end), `nativeClient` (an app as an OAuth client),
/// `androidAppFlip` (the Android activity Google starts for a result).
public typealias Profile = AppFlipModel.Profile
