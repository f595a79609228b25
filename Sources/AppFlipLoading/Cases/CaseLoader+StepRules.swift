import AppFlipBase
import AppFlipModel

/// Rules that keep a step's checks meaningful whatever the target does: a failure always lands on a check that
/// applies, and no check is vacuous.
extension CaseLoader {
    /// Checks one step's checks against the rules; `captured` holds the names earlier steps capture.
    mutating func validate(_ step: Step, capturedBefore captured: Set<String>, caseRepeat: Int = 1) {
        let isLink: Bool
        if case .link = step.action { isLink = true } else { isLink = false }
        // A step "opens in every case" when some group requires it: an `all` group with `action: open`, or a
        // `one_of` whose every alternative has it. A decline then fails there.
        let isOpen: (AnyCheck) -> Bool = { $0.base.traits.requiresOpen }
        let opensInEveryCase = step.checks.contains { group in
            switch group.expectation {
            case .all(let checks): checks.contains(where: isOpen)
            case .oneOf(let alternatives): alternatives.allSatisfy { $0.contains(where: isOpen) }
            }
        }
        let names = captured.union(step.captures.map(\.name))
        var probeOfStep: HTTPStepRequest.TransportProbe?
        if case .http(let request) = step.action { probeOfStep = request.transportProbe }
        // The rule of the app this step drives, if it drives one.
        let ownRule = AppStepRule.all.first { $0.sends(step.action) }
        validateConditions(step)
        for group in step.checks {
            for check in group.expectation.checks {
                if check.base.traits.judgesTheProcess, isLink || ownRule?.judgesTheProcess == true { continue }
                if check.base.scope != .samples,
                    let broken = AppStepRule.all.first(where: { ($0.scope == check.base.scope) != ($0.scope == ownRule?.scope) })
                {
                    reader.error(
                        at: group.location, broken.scope == ownRule?.scope ? broken.notJudging(check.key) : broken.judgingElsewhere(check.key))
                    continue
                }
                switch check.base.scope {
                case .response where isLink:
                    reader.error(at: group.location, "'\(check.key)' judges an HTTP response; a link step has none")
                case .transport where check.base.traits.judgesBurst:
                    if case .http(let request) = step.action, request.burst != nil {
                    } else {
                        reader.error(at: group.location, "'\(check.key)' judges a burst: give the request 'burst: N'")
                    }
                case .transport:
                    let probe = check.base.traits.transportProbe ?? .plainHTTP
                    if probe != probeOfStep {
                        reader.error(at: group.location, "'\(check.key)' judges a transport probe: use it in a request step with \(probe.option)")
                    }
                case _ where probeOfStep?.isHandshakeOnly == true:
                    reader.error(
                        at: group.location,
                        "a \(probeOfStep?.option ?? "") step sends no HTTP request; "
                            + "\(probeOfStep?.judgedBy ?? ""), not '\(check.key)'")
                case .samples:
                    let name = check.base.traits.sampleName ?? ""
                    if !names.contains(name) {
                        let hint = Suggestion.closest(to: name, among: Array(names)).map { " (did you mean '\($0)'?)" } ?? ""
                        reader.error(at: group.location, "'\(check.key)' names '\(name)', which no step up to this one captures\(hint)")
                    } else if step.repeatCount < 2, caseRepeat < 2, !captured.contains(name) {
                        reader.error(at: group.location, "'\(check.key)' needs a sample: give this step, or the case, 'repeat' of at least 2")
                    }
                default:
                    break
                }
            }
            guard !opensInEveryCase else { continue }
            switch group.expectation {
            case .all(let checks):
                if let content = checks.first(where: { $0.base.scope == .openedURL }) {
                    reader.error(
                        at: group.location,
                        "'\(content.key)' judges the opened URL; add 'action: open' to this step's checks "
                            + "(under the requirement a decline breaks), so a target that opens nothing fails there and not here")
                }
            case .oneOf(let alternatives):
                let decides = alternatives.contains { alternative in alternative.contains { $0.base.traits.decidesAction } }
                let judgesURL = alternatives.contains { alternative in alternative.contains { $0.base.scope == .openedURL } }
                if judgesURL, !decides {
                    reader.error(
                        at: group.location,
                        "these alternatives judge the opened URL; add 'action: open' to this step's checks, "
                            + "or 'action' to an alternative, so a target that opens nothing gets a verdict")
                }
            }
        }
    }
    /// A group judged only on some statuses (`when_status`) needs an HTTP request, and another group of the step that
    /// judges the status whatever it is: a refusal then fails there, under the requirement it breaks, and the
    /// conditional group is never the only thing standing between a refusal and a pass.
    private mutating func validateConditions(_ step: Step) {
        let isStatus: (AnyCheck) -> Bool = { $0.base.traits.judgesStatus }
        let judgesStatus = step.checks.contains { group in
            guard group.condition == nil else { return false }
            switch group.expectation {
            case .all(let checks): return checks.contains(where: isStatus)
            case .oneOf(let alternatives): return alternatives.allSatisfy { $0.contains(where: isStatus) }
            }
        }
        for group in step.checks where group.condition != nil {
            if case .http(let request) = step.action, request.transportProbe == nil {
                if !judgesStatus {
                    reader.error(
                        at: group.location,
                        "'when_status' leaves other answers unjudged; add 'status' to this step's checks "
                            + "(under the requirement a refusal breaks), so a target that refuses fails there")
                }
            } else {
                reader.error(
                    at: group.location, "'when_status' judges an HTTP response's status; use it in a request step (without a transport probe)")
            }
        }
    }
}
