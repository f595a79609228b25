import AppFlipModel

/// The outcome of a case, worst check first: `error` over `fail` over `skip` over `warn` over `info` over `pass`.
/// `fail` is a MUST or MUST NOT that did not hold; `warn` a SHOULD; `info` a MAY; `error` a target that
/// misbehaved (threw, hung, answered garbage), inconclusive rather than a requirement failure.
public typealias Verdict = AppFlipModel.Verdict
