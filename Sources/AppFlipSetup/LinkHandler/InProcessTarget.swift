import AppFlipModel
import AppFlipReference
import AppFlipRunner

/// The reference handler called in-process: no subprocess, no JSON. For fast tests of the cases themselves.
package struct InProcessTarget: ExchangeTarget {
    package var handler: LinkHandler

    package init(handler: LinkHandler) {
        self.handler = handler
    }

    package var description: String { "in-process reference handler" }

    package func makeSession() -> any ExchangeSession { InProcessSession(handler: handler) }
}

final class InProcessSession: ExchangeSession {
    let handler: LinkHandler

    init(handler: LinkHandler) {
        self.handler = handler
    }

    func exchange(_ request: HandlerRequest, timeout: Double) -> TargetExchange {
        let scenario = LinkHandler.Scenario(rawValue: request.scenario.rawValue) ?? .consent
        switch handler.handle(link: request.link, scenario: scenario) {
        case .decline:
            return TargetExchange(answer: HandlerAnswer(action: .decline), rawAnswer: "decline")
        case .open(let url, let universalLinksOnly):
            return TargetExchange(
                answer: HandlerAnswer(action: .open, url: url, universalLinksOnly: universalLinksOnly),
                rawAnswer: "open \(url)")
        }
    }

    func close() {}
}
