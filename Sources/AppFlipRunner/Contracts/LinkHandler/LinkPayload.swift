import AppFlipBase
import AppFlipModel

/// What a link handler's request hands the app: an App Flip universal link (`"link": …`).
package struct LinkPayload: AdapterPayload {
    package var link: String

    package init(link: String) { self.link = link }

    package var estimatedBytes: Int { link.utf8.count + 16 }

    package func appendMembers(to output: inout [UInt8]) {
        output.append(contentsOf: #""link":"#.utf8)
        JSONText.appendString(link, to: &output)
    }

    package func read(_ line: AnswerParser.Line, expectedID: String) -> Result<Observation, AnswerParser.AnswerError> {
        LinkAnswerParser.parse(line, expectedID: expectedID).map(Observation.link)
    }
}

extension HandlerRequest {
    package init(id: String, link: String, scenario: Scenario) {
        self.init(id: id, payload: LinkPayload(link: link), scenario: scenario)
    }

    /// The link of a link request; empty for another contract's. Setting it makes the request a link request.
    package var link: String {
        get { (payload as? LinkPayload)?.link ?? "" }
        set { payload = LinkPayload(link: newValue) }
    }

    /// What a link handler is sent first, before any case: a link that is no App Flip request (`preflight`).
    package static let linkPreflight = HandlerRequest(id: "preflight", link: "https://preflight.invalid/", scenario: .consent)
}

extension TargetExchange {
    /// A link handler's well-formed answer.
    package init(answer: HandlerAnswer?, failure: String? = nil, rawAnswer: String = "", log: String = "", previousRequestFault: String? = nil) {
        self.init(
            observation: answer.map(Observation.link), failure: failure, rawAnswer: rawAnswer, log: log,
            previousRequestFault: previousRequestFault)
    }

    /// The link handler's answer, when it gave a well-formed one.
    package var answer: HandlerAnswer? {
        if case .link(let answer)? = observation { return answer }
        return nil
    }
}
