import AppFlipModel

/// A family of cases that share a target contract: each case names its profile, and `Profile.allCases` lists them in
/// the order README's profile table gives them, with what each drives.
public typealias Profile = AppFlipModel.Profile
