import AppFlipModel

/// One request of an adapter contract: the iOS link handler's `{"id": …, "link": …, "scenario": …}`, or the Android
/// activity's `{"id": …, "intent": {…}, "caller": {…}, "scenario": …}`.
package struct HandlerRequest: Sendable, Hashable {
    /// What the request hands the app.
    package enum Payload: Sendable, Hashable {
        /// An App Flip universal link (iOS).
        case link(String)
        /// The intent Google starts the partner's activity with (Android).
        case intent(AndroidIntent)
    }

    package var id: String
    package var payload: Payload
    package var scenario: Scenario

    package init(id: String, link: String, scenario: Scenario) {
        self.id = id
        self.payload = .link(link)
        self.scenario = scenario
    }

    package init(id: String, intent: AndroidIntent, scenario: Scenario) {
        self.id = id
        self.payload = .intent(intent)
        self.scenario = scenario
    }

    /// The link of a link request; empty for an intent. Setting it makes the request a link request.
    package var link: String {
        get {
            if case .link(let link) = payload { return link }
            return ""
        }
        set { payload = .link(newValue) }
    }

    /// The request as one JSON line (members in key order), newline included.
    package var jsonLine: [UInt8] {
        switch payload {
        case .link(let link):
            return JSONText.object([("id", id), ("link", link), ("scenario", scenario.rawValue)]) + [0x0A]
        case .intent(let intent):
            var output: [UInt8] = Array(#"{"id":"#.utf8)
            JSONText.appendString(id, to: &output)
            output.append(0x2C)
            intent.appendMembers(to: &output)
            output.append(contentsOf: Array(#","scenario":"#.utf8))
            JSONText.appendString(scenario.rawValue, to: &output)
            output.append(contentsOf: [0x7D, 0x0A])
            return output
        }
    }
}
