import AppFlipModel

/// Short spellings for building checks in code (tests, hand-made cases), matching the case file's keys.
extension AnyCheck {
    package static func action(_ action: HandlerAnswer.Action) -> AnyCheck { AnyCheck(ActionCheck(action: action)) }
    package static func urlBase(_ base: Template) -> AnyCheck { AnyCheck(URLBaseCheck(base: base)) }
    package static func code(_ presence: CodeCheck.Expectation) -> AnyCheck { AnyCheck(CodeCheck(presence: presence)) }
    package static func state(_ expectation: StateCheck.Expectation) -> AnyCheck { AnyCheck(StateCheck(expectation: expectation)) }
    package static func error(_ allowed: Set<String>?) -> AnyCheck { AnyCheck(ErrorCheck(allowed: allowed)) }
    package static func errorIfPresent(_ allowed: Set<String>) -> AnyCheck { AnyCheck(ErrorIfPresentCheck(allowed: allowed)) }
    package static var errorDescriptionCharset: AnyCheck { AnyCheck(ErrorDescriptionCheck(rule: .rfc6749Charset)) }
    package static var strictParameters: AnyCheck { AnyCheck(StrictParametersCheck(rule: .strict)) }
    package static var noFragment: AnyCheck { AnyCheck(FragmentCheck(presence: .absent)) }
    package static var universalLinksOnly: AnyCheck { AnyCheck(UniversalLinksOnlyCheck()) }
    package static func status(_ codes: Set<Int>, classes: Set<Int> = []) -> AnyCheck { AnyCheck(StatusCheck(codes: codes, classes: classes)) }
    package static var framingDenied: AnyCheck { AnyCheck(FramingCheck()) }
    package static var siteAssociationCovers: AnyCheck { AnyCheck(SiteAssociationCheck()) }
    package static func distinct(_ name: String) -> AnyCheck { AnyCheck(DistinctCheck(name: name)) }
    package static func entropyBits(_ name: String, _ bits: Int) -> AnyCheck { AnyCheck(EntropyCheck(name: name, bits: bits)) }
}
