import AppFlipModel

/// How strongly a source requires something (RFC 2119): a MUST or MUST NOT that does not hold fails a case, a
/// SHOULD or SHOULD NOT warns, a MAY informs.
public typealias Level = AppFlipModel.Level

extension Level {
    /// Whether a check at this level that does not hold fails the case (MUST, MUST NOT).
    public var isMandatory: Bool { self == .must || self == .mustNot }
    /// Whether it only warns (SHOULD, SHOULD NOT).
    public var isRecommended: Bool { self == .should || self == .shouldNot }
}
